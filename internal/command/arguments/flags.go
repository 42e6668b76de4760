package arguments

import (
	"errors"
	"flag"
	"io"
	"strings"
	"time"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// View is how a command reports: colour, the machine-readable stream, and
// whether warnings are shortened.
type View struct {
	NoColor         bool
	JSON            bool
	CompactWarnings bool
	// Help is set when -help was given: the command prints Usage and
	// exits successfully.
	Help bool
}

// Operation holds the options that shape a plan, shared by plan, apply,
// destroy and refresh.
type Operation struct {
	Vars        []inputvars.VarOption
	Targets     []Target
	Excludes    []Target
	Replace     []addrs.AbsResourceInstance
	Refresh     bool
	RefreshOnly bool
	Destroy     bool
	Parallelism int
	Input       bool
	Lock        bool
	LockTimeout time.Duration
	// GenerateConfigOut is plan's -generate-config-out: the new file to
	// write resource blocks into for import targets that have none.
	GenerateConfigOut string
	// AllowUnsetVariables makes a required variable given no value
	// unknown instead of an error, as console treats it.
	AllowUnsetVariables bool
	// Applying is set for the apply and destroy commands: what
	// terraform.applying evaluates to, in their plan as in their apply.
	Applying bool
	// RecordsRefreshState is set for the refresh command, which records
	// what its refresh-only plan found rather than applying the plan: a
	// root output the plan could not know keeps its recorded value.
	RecordsRefreshState bool
	// SuppressForgetErrors is apply's and destroy's
	// -suppress-forget-errors: a destroy that forgets objects (lifecycle
	// destroy = false) succeeds without the error that says so.
	SuppressForgetErrors bool
	// RefreshMaxAge, when above zero, lets a plan use a record's object
	// without reading it again when a serve reconciler found it in sync
	// within that long and nothing changed the record since.
	RefreshMaxAge time.Duration
}

// Plan is `terrane plan`'s command line.
type Plan struct {
	Operation
	View
	Out              string
	DetailedExitCode bool
}

// Apply is the command line of `terrane apply`, `destroy` and `refresh`.
type Apply struct {
	Operation
	View
	AutoApprove bool
	// PlanFile is the saved plan to apply; empty to plan first.
	PlanFile string
}

// Console is `terrane console`'s command line.
type Console struct {
	View
	Vars []inputvars.VarOption
}

// DefaultParallelism is how many provider operations run at once unless
// -parallelism says otherwise, as in Terraform.
const DefaultParallelism = 10

// operationFlags registers the plan-shaping options on fs; the raw -target,
// -exclude and -replace texts are parsed after fs.Parse.
type operationFlags struct {
	op                                                    *Operation
	targets, excludes, replace, targetFiles, excludeFiles stringList
}

func addOperationFlags(fs *flag.FlagSet, op *Operation) *operationFlags {
	of := &operationFlags{op: op}
	addVarFlags(fs, &op.Vars)
	fs.Var(&of.targets, "target", "limit the operation to this resource or module (repeatable)")
	fs.Var(&of.excludes, "exclude", "leave this resource or module out of the operation (repeatable)")
	fs.Var(&of.targetFiles, "target-file", "limit the operation to the addresses in this file, one a line (repeatable)")
	fs.Var(&of.excludeFiles, "exclude-file", "leave the addresses in this file, one a line, out of the operation (repeatable)")
	fs.Var(&of.replace, "replace", "plan to replace this resource instance (repeatable)")
	fs.BoolVar(&op.Refresh, "refresh", true, "read remote objects before planning")
	fs.BoolVar(&op.RefreshOnly, "refresh-only", false, "only update state to match remote objects")
	fs.DurationVar(&op.RefreshMaxAge, "refresh-max-age", 0, "skip reading objects a serve reconciler found in sync within this long (e.g. 10m)")
	fs.BoolVar(&op.Destroy, "destroy", false, "plan to destroy every object")
	fs.IntVar(&op.Parallelism, "parallelism", DefaultParallelism, "number of provider operations at once")
	fs.BoolVar(&op.Input, "input", true, "ask for input when needed")
	fs.BoolVar(&op.Lock, "lock", true, "respect other runs' claims on records")
	fs.DurationVar(&op.LockTimeout, "lock-timeout", 0, "how long to wait for conflicting runs before giving up")
	return of
}

// finish parses the collected addresses and checks options against each
// other, in OpenTofu's order: -target and -exclude options together are
// refused before any address is read.
func (of *operationFlags) finish() diags.Diagnostics {
	var ds diags.Diagnostics
	op := of.op
	if (len(of.targets) > 0 || len(of.targetFiles) > 0) && (len(of.excludes) > 0 || len(of.excludeFiles) > 0) {
		ds = ds.Append(diags.Errorf("Invalid combination of arguments",
			"The target and exclude planning options are mutually-exclusive. Each plan must use either only the target options or only the exclude options."))
	} else {
		op.Targets, ds = parseTargets(ds, "target", of.targets, of.targetFiles)
		op.Excludes, ds = parseTargets(ds, "exclude", of.excludes, of.excludeFiles)
	}
	for _, text := range of.replace {
		addr, d := ParseReplace(text)
		ds = ds.Append(d)
		if !d.HasErrors() {
			op.Replace = append(op.Replace, addr)
		}
	}
	return ds.Append(op.check())
}

// parseTargets reads the addresses given to -OPTION, then those in the
// files given to -OPTION-file.
func parseTargets(ds diags.Diagnostics, option string, texts, files []string) ([]Target, diags.Diagnostics) {
	var out []Target
	for _, text := range texts {
		target, d := ParseTarget(option, text)
		ds = ds.Append(d)
		if !d.HasErrors() {
			out = append(out, target)
		}
	}
	for _, path := range files {
		targets, d := parseTargetFile(path)
		ds = ds.Append(d)
		out = append(out, targets...)
	}
	return out, ds
}

func (op *Operation) check() diags.Diagnostics {
	var ds diags.Diagnostics
	if op.Destroy && op.RefreshOnly {
		ds = ds.Append(diags.Errorf("Incompatible plan mode options",
			"The -destroy and -refresh-only options are mutually exclusive: choose one."))
	}
	if op.RefreshMaxAge < 0 {
		ds = ds.Append(diags.Errorf("Invalid -refresh-max-age", "-refresh-max-age must not be negative, got %s.", op.RefreshMaxAge))
	}
	if op.RefreshOnly && !op.Refresh {
		ds = ds.Append(diags.Errorf("Incompatible refresh options",
			"It doesn't make sense to use -refresh-only at the same time as -refresh=false, because there would be nothing to do. Remove one of them."))
	}
	if op.Parallelism < 1 {
		ds = ds.Append(diags.Errorf("Invalid -parallelism option",
			"The -parallelism option must be a whole number of at least 1, not %d.", op.Parallelism))
	}
	return ds
}

// addVarFlags registers -var and -var-file on fs: init and validate take
// root variable values for the early evaluation of module sources and
// versions, and commands that read or write state for an encryption
// configuration that uses variables.
func addVarFlags(fs *flag.FlagSet, vars *[]inputvars.VarOption) {
	fs.Var(varOptionFlag{vars: vars}, "var", "set a root module input variable: -var 'name=value' (repeatable)")
	fs.Var(varOptionFlag{vars: vars, file: true}, "var-file", "load variable values from a .tfvars file (repeatable)")
}

func addViewFlags(fs *flag.FlagSet, view *View) {
	fs.BoolVar(&view.NoColor, "no-color", false, "disable colour in output")
	fs.BoolVar(&view.JSON, "json", false, "produce machine-readable output")
	fs.BoolVar(&view.CompactWarnings, "compact-warnings", false, "show warnings in a compact form")
}

// ParsePlan parses `terrane plan`'s arguments.
func ParsePlan(args []string) (*Plan, diags.Diagnostics) {
	plan := &Plan{}
	fs := newFlagSet("plan")
	of := addOperationFlags(fs, &plan.Operation)
	addViewFlags(fs, &plan.View)
	fs.StringVar(&plan.Out, "out", "", "write the plan to this file, for apply")
	fs.BoolVar(&plan.DetailedExitCode, "detailed-exitcode", false, "exit 2 when the plan has changes")
	fs.StringVar(&plan.GenerateConfigOut, "generate-config-out", "", "write resource blocks for import targets that have none into this new file")
	ds := parseFlags(fs, "plan", args, &plan.View)
	if ds.HasErrors() || plan.Help {
		return plan, ds
	}
	if fs.NArg() > 0 {
		ds = ds.Append(tooManyArguments("plan", fs.Args()))
	}
	if plan.GenerateConfigOut != "" && (plan.Destroy || plan.RefreshOnly) {
		ds = ds.Append(diags.Errorf("Incompatible command-line options",
			"Configuration can be generated only in the normal planning mode: remove -generate-config-out, or -destroy and -refresh-only."))
	}
	return plan, ds.Append(of.finish())
}

// ParseApply parses `terrane apply`'s arguments: options and at most one
// saved plan file.
func ParseApply(args []string) (*Apply, diags.Diagnostics) {
	return parseApplyLike("apply", args, Operation{})
}

// ParseDestroy parses `terrane destroy`, which is apply in destroy mode.
func ParseDestroy(args []string) (*Apply, diags.Diagnostics) {
	return parseApplyLike("destroy", args, Operation{Destroy: true})
}

// ParseRefresh parses `terrane refresh`, which is apply -refresh-only
// -auto-approve.
func ParseRefresh(args []string) (*Apply, diags.Diagnostics) {
	apply, ds := parseApplyLike("refresh", args, Operation{RefreshOnly: true})
	apply.AutoApprove = true
	return apply, ds
}

func parseApplyLike(command string, args []string, forced Operation) (*Apply, diags.Diagnostics) {
	apply := &Apply{}
	fs := newFlagSet(command)
	of := addOperationFlags(fs, &apply.Operation)
	addViewFlags(fs, &apply.View)
	fs.BoolVar(&apply.AutoApprove, "auto-approve", false, "skip the interactive approval")
	if command != "refresh" {
		fs.BoolVar(&apply.SuppressForgetErrors, "suppress-forget-errors", false, "do not fail a destroy that forgets objects (lifecycle destroy = false)")
	}
	ds := parseFlags(fs, command, args, &apply.View)
	if ds.HasErrors() || apply.Help {
		return apply, ds
	}
	apply.Destroy = apply.Destroy || forced.Destroy
	apply.RefreshOnly = apply.RefreshOnly || forced.RefreshOnly
	apply.Applying = command == "apply" || command == "destroy"
	apply.RecordsRefreshState = command == "refresh"
	rest := fs.Args()
	if command == "apply" && len(rest) == 1 {
		apply.PlanFile, rest = rest[0], nil
	}
	if len(rest) > 0 {
		ds = ds.Append(tooManyArguments(command, rest))
	}
	ds = ds.Append(of.finish())
	if apply.PlanFile != "" {
		ds = ds.Append(apply.checkSavedPlan(fs))
	}
	return apply, ds
}

// checkSavedPlan refuses options that would shape a new plan: a saved plan
// already fixed them, and silently ignoring them would surprise.
func (a *Apply) checkSavedPlan(fs *flag.FlagSet) diags.Diagnostics {
	// -var and -var-file are allowed: ephemeral variables, which no plan
	// records, are given again when it is applied. Values for the
	// variables the plan did record are checked against it once the
	// configuration is loaded. -target and -exclude are allowed and have
	// no effect, as in OpenTofu: the plan's own apply.
	var ds diags.Diagnostics
	var shaping []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "replace", "refresh", "refresh-only", "destroy":
			shaping = append(shaping, "-"+f.Name)
		}
	})
	if len(shaping) > 0 {
		ds = ds.Append(diags.Errorf("Invalid options for a saved plan",
			"The options %s shape a new plan and cannot be used when applying the saved plan %s. Give them to plan instead.", strings.Join(shaping, ", "), a.PlanFile))
	}
	return ds
}

// ParseConsole parses `terrane console`'s arguments.
func ParseConsole(args []string) (*Console, diags.Diagnostics) {
	console := &Console{}
	fs := newFlagSet("console")
	addVarFlags(fs, &console.Vars)
	addViewFlags(fs, &console.View)
	ds := parseFlags(fs, "console", args, &console.View)
	if !ds.HasErrors() && !console.Help && fs.NArg() > 0 {
		ds = ds.Append(tooManyArguments("console", fs.Args()))
	}
	return console, ds
}

func newFlagSet(command string) *flag.FlagSet {
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags runs fs.Parse and turns its error into OpenTofu's diagnostic.
func parseFlags(fs *flag.FlagSet, command string, args []string, view *View) diags.Diagnostics {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		view.Help = true
		return nil
	}
	if err != nil {
		return diags.Diagnostics{flagsError(err)}
	}
	return nil
}

// parseFlagsRefusingHelp runs fs.Parse for a command whose help the runner
// prints before the command runs: a -help that still reaches it (--h,
// -help=x) is refused as the flag package refuses it, as any unknown flag.
func parseFlagsRefusingHelp(fs *flag.FlagSet, args []string) diags.Diagnostics {
	if err := fs.Parse(args); err != nil {
		return diags.Diagnostics{flagsError(err)}
	}
	return nil
}

// flagsError is OpenTofu's diagnostic for a command line the flag package
// refused.
func flagsError(err error) diags.Diagnostic {
	return diags.Errorf("Failed to parse command-line flags", "%s", err)
}

// unexpectedArgument is OpenTofu's error for positional arguments a
// command that takes none was given.
func unexpectedArgument() diags.Diagnostic {
	return diags.Errorf("Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")
}

// addLockFlags registers -lock and -lock-timeout, which OpenTofu's state
// and workspace commands take. Terrane writes records with compare-and-swap
// and holds no lock on the state, so their values are not kept; a value
// the flag package cannot read is still refused.
func addLockFlags(fs *flag.FlagSet) {
	fs.Bool("lock", true, "")
	fs.Duration("lock-timeout", 0, "")
}

// tooManyArguments reports positional arguments a command does not take,
// in the words OpenTofu's command uses.
func tooManyArguments(command string, extra []string) diags.Diagnostic {
	detail := "Expected at most one positional argument."
	if command == "plan" {
		detail = "To specify a working directory for the plan, use the global -chdir flag."
	}
	return diags.Errorf("Too many command line arguments", "%s", detail)
}

// stringList collects every use of a repeatable option, in order.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// varOptionFlag appends -var and -var-file uses to one list, keeping their
// relative order, which decides which wins.
type varOptionFlag struct {
	vars *[]inputvars.VarOption
	file bool
}

func (v varOptionFlag) String() string { return "" }
func (v varOptionFlag) Set(text string) error {
	*v.vars = append(*v.vars, inputvars.VarOption{File: v.file, Text: text})
	return nil
}
