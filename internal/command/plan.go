package command

import (
	"context"
	"os"

	"github.com/oklog/ulid/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/logging"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/run"
)

// runPlan is `terrane plan`: it shows what apply would do and, with -out,
// saves the plan for `terrane apply PLANFILE`. With -detailed-exitcode it
// exits 0 when nothing would change, 1 on error and 2 when something would.
func runPlan(streams views.Streams, args []string) int {
	opts, argDiags := arguments.ParsePlan(args)
	out := views.NewOperation(streams, opts.View)
	if opts.Help {
		printCommandHelp(streams.Stdout, "plan")
		return 0
	}
	if argDiags.HasErrors() {
		out.Diagnostics(argDiags)
		out.HelpPrompt("plan")
		return 1
	}
	if !opts.Destroy && !config.IsConfigDir(".") {
		out.Diagnostics(diags.Diagnostics{diags.Errorf("No configuration files",
			"Plan requires configuration to be present. Planning without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run plan with the -destroy option. Otherwise, create a Terrane configuration file (.tf file) and try again.")})
		return 1
	}
	if warnings, files := rootModuleWarnings("."); len(warnings) > 0 {
		out.AddSources(files)
		out.Diagnostics(warnings)
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
	out.Diagnostics(ds)
	if !ds.HasErrors() && plan.CanApply() {
		generated := ""
		if len(op.generatedConfig) > 0 {
			generated = opts.GenerateConfigOut
		}
		out.PlanNextStep(opts.Out, generated)
	}
	switch {
	case ds.HasErrors():
		return 1
	case opts.DetailedExitCode && planHasChanges(plan):
		return 2
	}
	return 0
}

// openAndPlan opens an operation, then makes and shows its plan. The plan
// is nil when either failed, and the diagnostics are then already written;
// otherwise the caller writes them. The caller closes op when it is not nil.
func openAndPlan(out *views.Operation, opts arguments.Operation) (*operation, *plans.Plan, diags.Diagnostics) {
	open := openOperation
	if opts.GenerateConfigOut != "" {
		open = func(out *views.Operation, opts arguments.Operation, _ *plans.Plan, _ *encryption.Encryption) (*operation, diags.Diagnostics) {
			return openGeneratingConfig(out, opts)
		}
	}
	op, ds := open(out, opts, nil, nil)
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return op, nil, ds
	}
	plan, planDiags := planAndShow(op, opts, newConflictBackoff(opts.LockTimeout))
	if plan == nil {
		// What opening said (the configuration's warnings) is shown with
		// the failure, as OpenTofu shows what loading it said.
		out.Diagnostics(ds)
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
			op.out.Plan(plan, op.Engine.Schemas())
		}
		if aborted || ds.HasErrors() || plan == nil {
			op.out.Diagnostics(ds)
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
	out *views.Operation
	// generatedConfig is plan -generate-config-out's block for each
	// address it wrote one for.
	generatedConfig map[string]string
}

// openOperation opens a run over the working directory: its variable
// values from the command line, files and the environment (or a saved
// plan's), its encryption (enc, when the caller read a saved plan with
// it), records and installed providers.
func openOperation(out *views.Operation, opts arguments.Operation, saved *plans.Plan, enc *encryption.Encryption) (*operation, diags.Diagnostics) {
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
		Sources:          out.AddSources,
		Engine: engine.Options{
			Parallelism:          opts.Parallelism,
			Hooks:                out.Hooks(),
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
func inputValues(out *views.Operation, dir string, cfg *config.Config, opts arguments.Operation, saved *plans.Plan) (engine.InputValues, diags.Diagnostics) {
	decls := cfg.Module.Variables
	given, ds := inputvars.CollectValues(dir, decls, opts.Vars, os.Environ())
	out.AddSources(given.Files)
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
		ds = ds.Append(promptForVariables(out, decls, given))
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
