package command

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/run"

	"github.com/oklog/ulid/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/logging"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plans/planfile"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/reconcile"
	"github.com/terrane/terrane/internal/ui"
)

// runPlan is `terrane plan`: it shows what apply would do and, with -out,
// saves the plan for `terrane apply PLANFILE`. With -detailed-exitcode it
// exits 0 when nothing would change, 1 on error and 2 when something would.
func runPlan(streams Streams, args []string) int {
	opts, argDiags := arguments.ParsePlan(args)
	out := newOperationOutput(streams, opts.View)
	if opts.Help {
		printCommandHelp(streams.Stdout, "plan")
		return 0
	}
	if argDiags.HasErrors() {
		out.diagnostics(argDiags)
		out.helpPrompt("plan")
		return 1
	}
	if !opts.Destroy && !config.IsConfigDir(".") {
		out.diagnostics(diags.Diagnostics{diags.Errorf("No configuration files",
			"Plan requires configuration to be present. Planning without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run plan with the -destroy option. Otherwise, create a Terrane configuration file (.tf file) and try again.")})
		return 1
	}
	if warnings, files := rootModuleWarnings("."); len(warnings) > 0 {
		out.addSources(files)
		out.diagnostics(warnings)
	}
	op, plan, ds := openAndPlan(out, opts.Operation)
	if op != nil {
		defer op.Close()
	}
	if plan == nil {
		return 1
	}
	if opts.Out != "" {
		ds = ds.Append(op.savePlan(plan, opts.Out))
	}
	if len(op.generatedConfig) > 0 {
		ds = ds.Append(diags.Warnf("Config generation is experimental",
			"Generating configuration during import is currently experimental, and the generated configuration format may change in future versions."))
	}
	ds = ds.Append(staleRecordsNotice(op.Cipher))
	out.diagnostics(ds)
	if !ds.HasErrors() && plan.CanApply() {
		generated := ""
		if len(op.generatedConfig) > 0 {
			generated = opts.GenerateConfigOut
		}
		out.planNextStep(opts.Out, generated)
	}
	switch {
	case ds.HasErrors():
		return 1
	case opts.DetailedExitCode && planHasChanges(plan):
		return 2
	}
	return 0
}

// planNextStep ends a plan that has something to apply as OpenTofu's
// PlanNextStep does: a rule, then where the generated configuration went,
// then either where the plan was saved and how to apply it, or the note
// that without -out the apply may do something else. It says nothing in
// automation (TF_IN_AUTOMATION set), where the next step is not the
// user's to type.
func (o *operationOutput) planNextStep(planPath, generatedConfigPath string) {
	if o.json != nil || os.Getenv("TF_IN_AUTOMATION") != "" {
		return
	}
	width := ui.Width(o.streams.Stdout)
	fmt.Fprintln(o.streams.Stdout, ui.HorizontalRule(width, o.color))
	if generatedConfigPath != "" {
		fmt.Fprintln(o.streams.Stdout, ui.WordWrap(fmt.Sprintf("\nTerrane has generated configuration and written it to %s. Please review the configuration and edit it as necessary before adding it to version control.", generatedConfigPath), width))
	}
	if planPath == "" {
		fmt.Fprintln(o.streams.Stdout, ui.WordWrap("\nNote: You didn't use the -out option to save this plan, so Terrane can't guarantee to take exactly these actions if you run \"terrane apply\" now.", width))
		return
	}
	fmt.Fprintln(o.streams.Stdout, ui.WordWrap(fmt.Sprintf("\nSaved the plan to: %s\n\nTo perform exactly these actions, run the following command to apply:\n    terrane apply %q", planPath, planPath), width))
}

// openAndPlan opens an operation, then makes and shows its plan. The plan
// is nil when either failed, and the diagnostics are then already written;
// otherwise the caller writes them. The caller closes op when it is not nil.
func openAndPlan(out *operationOutput, opts arguments.Operation) (*operation, *plans.Plan, diags.Diagnostics) {
	open := openOperation
	if opts.GenerateConfigOut != "" {
		open = func(out *operationOutput, opts arguments.Operation, _ *plans.Plan, _ *encryption.Encryption) (*operation, diags.Diagnostics) {
			return openGeneratingConfig(out, opts)
		}
	}
	op, ds := open(out, opts, nil, nil)
	if ds.HasErrors() {
		out.diagnostics(ds)
		return op, nil, ds
	}
	plan, planDiags := planAndShow(op, opts, newConflictBackoff(opts.LockTimeout))
	if plan == nil {
		// What opening said (the configuration's warnings) is shown with
		// the failure, as OpenTofu shows what loading it said.
		out.diagnostics(ds)
	}
	return op, plan, ds.Append(planDiags)
}

// planAndShow makes and shows op's plan; while another run is changing
// instances the plan would leave out, it waits and plans again as backoff
// allows. The plan is nil when planning failed, and the diagnostics are
// then already written.
func planAndShow(op *operation, opts arguments.Operation, backoff *conflictBackoff) (*plans.Plan, diags.Diagnostics) {
	for {
		plan, ds, aborted := planWithInterrupts(op, opts)
		if !aborted && !ds.HasErrors() && backoff.retry(op.out, ds) {
			continue
		}
		if plan != nil && !aborted {
			op.out.renderPlan(plan, op.Engine)
		}
		if aborted || ds.HasErrors() || plan == nil {
			op.out.diagnostics(ds)
			return nil, ds
		}
		return plan, ds
	}
}

// planHasChanges reports whether applying plan would do anything, which
// is what -detailed-exitcode's status 2 means.
func planHasChanges(plan *plans.Plan) bool {
	if !plan.Changes.IsEmpty() {
		return true
	}
	return plan.UIMode == plans.RefreshOnlyMode && len(plan.DriftedResources) > 0
}

// operation is what plan and apply commands work with: an open run (the
// loaded configuration, the variable values, the workspace's records and
// an engine over them) and the command's output.
type operation struct {
	*run.Run
	out *operationOutput
	// generatedConfig is plan -generate-config-out's block for each
	// address it wrote one for.
	generatedConfig map[string]string
}

// openOperation opens a run over the working directory: its variable
// values from the command line, files and the environment (or a saved
// plan's), its encryption (enc, when the caller read a saved plan with
// it), records and installed providers.
func openOperation(out *operationOutput, opts arguments.Operation, saved *plans.Plan, enc *encryption.Encryption) (*operation, diags.Diagnostics) {
	const dir = "."
	r, ds := run.Open(context.Background(), run.Options{
		Dir:        dir,
		Vars:       opts.Vars,
		Saved:      saved,
		Encryption: enc,
		Values: func(cfg *config.Config) (engine.InputValues, diags.Diagnostics) {
			return inputValues(out, dir, cfg, opts, saved)
		},
		Plans:            true,
		MayCreate:        !opts.Destroy && !opts.RefreshOnly,
		GeneratingConfig: opts.GenerateConfigOut != "",
		Sources:          out.addSources,
		Engine: engine.Options{
			Parallelism:          opts.Parallelism,
			Hooks:                out.hooks(),
			RunID:                ulid.Make().String(),
			Logger:               logging.Named("engine"),
			Applying:             opts.Applying,
			RecordsRefreshState:  opts.RecordsRefreshState,
			OriginalWorkingDir:   originalWorkingDir,
			SuppressForgetErrors: opts.SuppressForgetErrors,
		},
	})
	if r == nil {
		return nil, ds
	}
	return &operation{Run: r, out: out}, ds
}

// inputValues gathers the root module's variable values from the command
// line, files and environment, or from a saved plan. Values are checked
// here for presence only, as OpenTofu checks them before a run: whether
// a value suits its variable the run finds once the configuration is
// validated.
func inputValues(out *operationOutput, dir string, cfg *config.Config, opts arguments.Operation, saved *plans.Plan) (engine.InputValues, diags.Diagnostics) {
	decls := cfg.Module.Variables
	given, ds := inputvars.CollectValues(dir, decls, opts.Vars, os.Environ())
	out.addSources(given.Files)
	if opts.AllowUnsetVariables {
		for name, decl := range decls {
			if given.ByName[name] == nil && decl.Default == nil {
				given.ByName[name] = &inputvars.Value{Value: cty.UnknownVal(decl.Type.Type)}
			}
		}
	}
	if saved != nil {
		return savedPlanValues(cfg, saved, given, ds)
	}
	if opts.Input && inputAllowedByEnv() && !opts.AllowUnsetVariables {
		ds = ds.Append(out.promptForVariables(decls, given))
	}
	ds = ds.Append(inputvars.CheckRequired(decls, given))
	return given.Engine(), ds
}

// planOpts translates the command line into the engine's terms.
func planOpts(opts arguments.Operation) engine.PlanOpts {
	po := engine.PlanOpts{SkipRefresh: !opts.Refresh, ForceReplace: opts.Replace}
	switch {
	case opts.Destroy:
		po.Mode = plans.DestroyMode
	case opts.RefreshOnly:
		po.Mode = plans.RefreshOnlyMode
	}
	for _, target := range opts.Targets {
		po.Targets = append(po.Targets, target.Addr.(addrs.Targetable))
	}
	for _, exclude := range opts.Excludes {
		po.Excludes = append(po.Excludes, exclude.Addr.(addrs.Targetable))
	}
	return po
}

// savePlan writes plan to path with the configuration it was made from and
// the dependency lock file, so apply can carry it out exactly.
func (op *operation) savePlan(plan *plans.Plan, path string) diags.Diagnostics {
	snapshot, err := configSnapshot(op.Config)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to save the plan", "Reading the configuration for the plan file: %s.", err)}
	}
	if err := plan.EncodeValuesAsMsgpack(changeValueTypes(op.Engine.Schemas())); err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to save the plan", "%s. Make a new plan with the providers this configuration uses now.", err)}
	}
	if err := planfile.CreateSealed(path, planfile.Contents{Plan: plan, Config: snapshot, LockFile: op.LockFile}, planSeal(op.Encryption)); err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to save the plan", "Writing %s: %s. Check that its directory exists and is writable.", path, err)}
	}
	if !op.Encryption.State().WritesPlain() && op.Encryption.Plan().WritesPlain() {
		return diags.Diagnostics{diags.Warnf("Plan file not encrypted",
			"State is encrypted, but %s is not: a plan file holds the values of the state it was made from and of the planned changes. Configure the plan target of the encryption block to encrypt plan files too.", path)}
	}
	return nil
}

// changeValueTypes gives a resource instance change's value types from its
// provider's schema, working each resource type's out once.
func changeValueTypes(schemas *providers.Schemas) plans.ValueTypes {
	known := map[string]plans.ObjectTypes{}
	return func(change *plans.ResourceInstanceChangeSrc) (plans.ObjectTypes, error) {
		provider, resource := change.ProviderAddr.Config.Provider, change.Addr.Resource.Resource
		isData := resource.Mode == addrs.DataResourceMode
		key := fmt.Sprintf("%s %t %s", provider, isData, resource.Type)
		if types, ok := known[key]; ok {
			return types, nil
		}
		s, ok := schemas.ResourceType(provider, isData, resource.Type)
		if !ok {
			return plans.ObjectTypes{}, fmt.Errorf("provider %s has no schema for resource type %q", provider, resource.Type)
		}
		types := plans.ObjectTypes{Value: s.Block.ImpliedType(), Identity: cty.NilType}
		if identity, ok := schemas.Identity(provider, resource.Type); ok && !isData {
			types.Identity = identity.ImpliedType()
		}
		known[key] = types
		return types, nil
	}
}

// configSnapshot reads every module's files into a snapshot keyed as plan
// files key modules: "" for the root, "a.b" for module.b inside module.a.
func configSnapshot(cfg *config.Config) (*planfile.ConfigSnapshot, error) {
	snapshot := &planfile.ConfigSnapshot{Modules: map[string]*planfile.SnapshotModule{}}
	var firstErr error
	cfg.DeepEach(func(c *config.Config) {
		if firstErr != nil {
			return
		}
		firstErr = snapshot.AddModuleDir(strings.Join(c.Path, "."), c.SourceAddr, "", c.Module.SourceDir)
	})
	return snapshot, firstErr
}

// planWithInterrupts runs the engine's plan, cancelling it on the first
// interrupt and giving up on the second.
func planWithInterrupts(op *operation, opts arguments.Operation) (*plans.Plan, diags.Diagnostics, bool) {
	type result struct {
		plan  *plans.Plan
		diags diags.Diagnostics
	}
	r, aborted := withInterrupts(op.out, func(ctx context.Context) result {
		po := planOpts(opts)
		if opts.RefreshMaxAge > 0 && opts.Refresh {
			project, workspace := op.Store.Tenancy()
			fresh, err := reconcile.FreshInstances(ctx, op.Store.Service(), project, workspace, opts.RefreshMaxAge, time.Now())
			if err != nil {
				return result{nil, diags.Diagnostics{diags.Errorf("Cannot read the reconciler's status", "Reading the statuses -refresh-max-age relies on failed: %s.", err)}}
			}
			po.Fresh = fresh
		}
		plan, ds := op.Engine.Plan(ctx, po)
		op.markGeneratedConfig(plan)
		return result{plan, ds}
	})
	if aborted {
		return nil, diags.Diagnostics{abortedDiag()}, true
	}
	return r.plan, r.diags, false
}

// withInterrupts runs fn with a context the first SIGINT or SIGTERM
// cancels, so the engine stops starting provider calls and records the ones
// in flight. A second signal gives up waiting: aborted is true and the
// caller returns at once, leaving fn running until the process exits.
func withInterrupts[T any](out *operationOutput, fn func(ctx context.Context) T) (result T, aborted bool) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	done := make(chan T, 1)
	go func() { done <- fn(ctx) }()
	interrupted := false
	for {
		select {
		case result = <-done:
			return result, false
		case <-signals:
			if interrupted {
				fmt.Fprintln(out.streams.Stderr, "Two interrupts received. Exiting immediately. Note that data loss may have occurred.")
				return result, true
			}
			interrupted = true
			fmt.Fprintln(out.streams.Stderr, "Interrupt received.\nPlease wait for Terrane to exit or data loss may occur.\nGracefully shutting down...")
			cancel()
		}
	}
}

func abortedDiag() diags.Diagnostic {
	return diags.Errorf("Operation aborted",
		"A second interrupt stopped Terrane without waiting for provider calls in flight. Their results may not be recorded: run plan to see what the records say, and import or forget any object a create may have made.")
}
