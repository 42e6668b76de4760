package moduletest

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/oklog/ulid/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// runSetup is what one run (or one clean-up) plans with: the configuration
// under test, the run's version of it, its variable values and the
// context its test expressions are evaluated in.
type runSetup struct {
	cfg    *config.Config
	key    string
	rc     *runConfig
	inputs engine.InputValues
	ctx    *hcl.EvalContext
	runs   map[string]cty.Value
}

// prepare works out run's configuration and variables, seeing the run
// outputs visible before index visibleBefore (-1: all of them).
func (fr *fileRunner) prepare(run *Run, visibleBefore int) (*runSetup, diags.Diagnostics) {
	setup := &runSetup{cfg: fr.s.Config, key: stateKey(run)}
	var ds diags.Diagnostics
	if run.Module != nil {
		setup.cfg, ds = fr.s.loadModule(run.Module.Source)
		if ds.HasErrors() || setup.cfg == nil {
			return nil, ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Cannot load the run's module",
				Detail:  fmt.Sprintf("The module %q given in run %q could not be loaded (see the errors above). Check that the directory exists, relative to the directory tests run in, and holds a valid module.", run.Module.Source, run.Name),
				Subject: run.Module.SourceRange.Ptr()})
		}
	}
	setup.runs = fr.visibleRuns(visibleBefore)
	ctx, cds := testContext(setup.cfg, fr.s.Globals, setup.runs)
	ds = ds.Append(cds)
	setup.ctx = ctx
	inputs, ids := inputValues(setup.cfg, fr.file, run, fr.s.Globals, ctx)
	ds = ds.Append(ids)
	setup.inputs = inputs
	var carried *carriedOverrides
	if run.Module == nil {
		carried = &fr.s.carried
	}
	rc, tds := transformConfig(setup.cfg, fr.file, run, providerContext(ctx, inputs), carried)
	setup.rc = rc
	return setup, ds.Append(tds)
}

func (fr *fileRunner) newEngine(setup *runSetup, st *testState) (*engine.Engine, diags.Diagnostics) {
	return engine.New(engine.Options{
		Config:          setup.rc.config,
		Providers:       fr.s.factories,
		State:           st.store,
		Variables:       setup.inputs,
		RunID:           ulid.Make().String(),
		Logger:          fr.s.Logger,
		Workspace:       fr.s.Workspace,
		ProviderWrapper: setup.rc.fakes,
		KeepValues:      true,
	})
}

// executeRun plans run and, for command = apply, applies it, then checks
// its expected failures and assertions, as OpenTofu's test runner does.
func (fr *fileRunner) executeRun(ctx context.Context, run *Run) {
	fail := func(ds diags.Diagnostics) {
		run.Diagnostics = run.Diagnostics.Append(ds)
		run.Status = run.Status.Merge(Error)
	}
	expected, ds := fr.validateRun(run)
	if ds.HasErrors() {
		fail(ds)
		return
	}
	setup, ds := fr.prepare(run, run.Index)
	if run.Diagnostics = run.Diagnostics.Append(ds); ds.HasErrors() {
		fail(nil)
		return
	}
	opts, ds := planOptions(run)
	if ds.HasErrors() {
		fail(ds)
		return
	}
	st := fr.state(setup.key)
	eng, ds := fr.newEngine(setup, st)
	if ds.HasErrors() {
		fail(ds)
		return
	}
	defer eng.Close()
	plan, planDiags := eng.Plan(ctx, opts)
	if run.Command == PlanCommand {
		planDiags = expectFailures(expected, planDiags)
		if run.Diagnostics = run.Diagnostics.Append(planDiags); planDiags.HasErrors() {
			fail(nil)
			return
		}
		fr.verbose(run, setup, eng, plan, nil)
		// A plan changes nothing: the outputs it did not work out are
		// still the state's.
		snap, err := st.store.Load(context.WithoutCancel(ctx))
		if err != nil {
			fail(diags.Diagnostics{diags.Errorf("Cannot read the test state", "Reading the state for the assertions failed: %s.", err)})
			return
		}
		fr.assert(run, setup, eng, stateOutputs(snap.State), false)
		return
	}
	fr.applyRun(ctx, run, setup, st, eng, plan, planDiags, expected)
}

// validateRun checks what OpenTofu checks as each run starts: the file's
// overrides, then the run's expect_failures and overrides.
func (fr *fileRunner) validateRun(run *Run) ([]*expectedFailure, diags.Diagnostics) {
	ds := duplicateOverrides(fr.file.Overrides, fr.file.ModuleMocks)
	expected, eds := parseExpectedFailures(run.ExpectFailures)
	ds = ds.Append(eds).Append(duplicateOverrides(run.Overrides, run.ModuleMocks))
	return expected, ds
}

// applyRun carries out an apply run once its plan is made.
func (fr *fileRunner) applyRun(ctx context.Context, run *Run, setup *runSetup, st *testState, eng *engine.Engine, plan *plans.Plan, planDiags diags.Diagnostics, expected []*expectedFailure) {
	planDiags = expectedVariableFailures(expected, planDiags)
	if run.Diagnostics = run.Diagnostics.Append(planDiags); planDiags.HasErrors() {
		run.Status = Error
		return
	}
	var applyDiags diags.Diagnostics
	if plan.CanApply() {
		// The apply evaluates the check blocks again: its findings are the
		// ones that count, and each is reported once.
		run.Diagnostics = withoutCheckFindings(run.Diagnostics)
		applyDiags = eng.Apply(ctx, plan)
	} else {
		// Nothing to change: the plan's findings stand for the apply's.
		applyDiags, run.Diagnostics = checkFindings(run.Diagnostics), withoutCheckFindings(run.Diagnostics)
		// OpenTofu applies it all the same, which warns about targeting.
		applyDiags = applyDiags.Append(engine.IncompleteApplyWarning(plan))
	}
	applyDiags = expectFailures(expected, applyDiags)
	run.Diagnostics = run.Diagnostics.Append(applyDiags)
	snap, err := st.store.Load(context.WithoutCancel(ctx))
	if err != nil {
		run.Diagnostics = run.Diagnostics.Append(diags.Errorf("Cannot read the test state", "Reading the state after the apply failed: %s.", err))
		run.Status = Error
		return
	}
	outputs := stateOutputs(snap.State)
	fr.recordUpdate(setup.key, run, cty.ObjectVal(outputs))
	if applyDiags.HasErrors() {
		run.Status = Error
		return
	}
	fr.verbose(run, setup, eng, plan, snap.State)
	fr.assert(run, setup, eng, outputs, true)
}

// stateOutputs are the root output values recorded in state, those
// declared sensitive marked so.
func stateOutputs(state *states.State) map[string]cty.Value {
	outputs := map[string]cty.Value{}
	for name, out := range state.Outputs {
		val := out.Value
		if out.Sensitive && !val.HasMark(marks.Sensitive) {
			val = val.Mark(marks.Sensitive)
		}
		outputs[name] = val
	}
	return outputs
}

// assert evaluates run's assertions against the engine's last walk;
// stored are the state's outputs: after an apply, the ones OpenTofu's
// assertions read; after a plan, the ones the plan did not work out.
func (fr *fileRunner) assert(run *Run, setup *runSetup, eng *engine.Engine, stored map[string]cty.Value, applied bool) {
	ev := eng.LastEvaluation()
	if ev == nil {
		run.Status = run.Status.Merge(Error)
		run.Diagnostics = run.Diagnostics.Append(diags.Errorf("No values to check", "The run's plan or apply ended before its values were worked out, so its assertions cannot be evaluated."))
		return
	}
	testVars := assertionVariables(setup.cfg, fr.file, run, fr.s.Globals, setup.ctx)
	scope := &assertScope{cfg: setup.rc.config, schemas: eng.Schemas(), eval: ev, testVars: testVars, stored: stored, applied: applied}
	status, ds := scope.evaluate(run)
	run.Status = run.Status.Merge(status)
	run.Diagnostics = run.Diagnostics.Append(ds)
}

// verbose keeps what -verbose shows of run: its plan, or with state the
// state after its apply.
func (fr *fileRunner) verbose(run *Run, setup *runSetup, eng *engine.Engine, plan *plans.Plan, state *states.State) {
	if fr.s.Verbose {
		run.Verbose = &Verbose{Plan: plan, State: state, Config: setup.rc.config, Schemas: eng.Schemas()}
	}
}

// isCheckFinding reports whether d is something a check block reported
// (an apply evaluates check blocks again).
func isCheckFinding(d diags.Diagnostic) bool {
	return d.FromCheckBlock && isCheckAddr(d.Object)
}

func checkFindings(ds diags.Diagnostics) diags.Diagnostics {
	var out diags.Diagnostics
	for _, d := range ds {
		if isCheckFinding(d) {
			out = append(out, d)
		}
	}
	return out
}

func withoutCheckFindings(ds diags.Diagnostics) diags.Diagnostics {
	var out diags.Diagnostics
	for _, d := range ds {
		if !isCheckFinding(d) {
			out = append(out, d)
		}
	}
	return out
}

// planOptions are the engine's options for run's plan_options.
func planOptions(run *Run) (engine.PlanOpts, diags.Diagnostics) {
	opts := engine.PlanOpts{SkipRefresh: !run.Options.Refresh}
	if run.Options.RefreshOnly {
		opts.Mode = plans.RefreshOnlyMode
	}
	var ds diags.Diagnostics
	for _, t := range run.Options.Target {
		target, td := parseTarget(t)
		ds = ds.Append(td)
		if target != nil {
			opts.Targets = append(opts.Targets, target)
		}
	}
	for _, t := range run.Options.Replace {
		addr, hd := addrs.ParseAbsResourceInstance(t)
		ds = ds.Append(hd)
		if hd.HasErrors() {
			continue
		}
		if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Can only target managed resources for forced replacements.",
				Detail: addr.String(), Subject: t.SourceRange().Ptr()})
			continue
		}
		opts.ForceReplace = append(opts.ForceReplace, addr)
	}
	return opts, ds
}

// parseTarget reads a plan_options target: a module, a resource or one
// resource instance.
func parseTarget(t hcl.Traversal) (addrs.Targetable, diags.Diagnostics) {
	if module, md := addrs.ParseModuleInstance(t); !md.HasErrors() && len(module) > 0 {
		return module, nil
	}
	inst, hd := addrs.ParseAbsResourceInstance(t)
	if hd.HasErrors() {
		return nil, diags.Diagnostics{}.Append(hd)
	}
	if inst.Resource.Key == addrs.NoKey {
		return inst.ContainingResource(), nil
	}
	return inst, nil
}
