package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/logging"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/ui"
)

// graphOptions is `terrane graph`'s command line.
type graphOptions struct {
	help       bool   // -help: the usage is printed, nothing else done
	graphType  string // "" picks plan, or apply with planFile
	planFile   string
	drawCycles bool
	noColor    bool
	// usage is set when the command line is wrong in a way that has the
	// command's help follow the error.
	usage bool
	// vars are -var and -var-file: they do not change the graph, but an
	// encryption configuration that uses variables needs them to read
	// the state and a saved plan.
	vars []inputvars.VarOption
}

// runGraph is `terrane graph`: the dependency graph of a plan or apply
// operation in the DOT language, shaped as OpenTofu's graph command draws
// it. The graph is the one the engine walks, so what it shows is the order
// Terrane works in.
func runGraph(streams views.Streams, args []string) int {
	opts, argDiags := parseGraphArgs(streams, args)
	if opts.help {
		return 0
	}
	out := views.NewOperation(streams, arguments.View{NoColor: opts.noColor})
	if argDiags.HasErrors() {
		code := writeGraphFailure(out, argDiags)
		if opts.usage {
			return runResultHelp
		}
		return code
	}
	g, kind, ds := operationGraph(out, opts)
	if g == nil {
		return writeGraphFailure(out, ds)
	}
	if len(g.Cycles) > 0 {
		// As in OpenTofu, a graph with cycles is not drawn, -draw-cycles
		// or not: building it fails, naming the nodes of each cycle.
		return writeGraphFailure(out, cycleErrors(g, ds))
	}
	if ds.HasErrors() {
		return writeGraphFailure(out, ds)
	}
	// OpenTofu prints the drawing with a line break after it, though the
	// drawing ends with one.
	fmt.Fprintln(streams.Stdout, drawGraph(g, kind, opts.drawCycles))
	return 0
}

// writeGraphFailure writes ds to stderr, warnings included: stdout is
// for the DOT text only, which a program may be reading. Each diagnostic
// has an empty line after it, as OpenTofu's graph command writes them.
func writeGraphFailure(out *views.Operation, ds diags.Diagnostics) int {
	ui.DiagnosticView{Color: out.Color(), ConsolidateWarnings: true, NewlineAfter: true}.Write(out.Streams().Stderr, out.Streams().Stderr, ds, out.Sources())
	return 1
}

func parseGraphArgs(streams views.Streams, args []string) (graphOptions, diags.Diagnostics) {
	var opts graphOptions
	fs := newFlagSet("graph", streams)
	fs.StringVar(&opts.graphType, "type", "", "The operation to draw: plan, plan-refresh-only, plan-destroy or apply (the default with -plan)")
	fs.StringVar(&opts.planFile, "plan", "", "Draw the apply graph of this saved plan")
	fs.BoolVar(&opts.drawCycles, "draw-cycles", false, "Draw the graph even when it has cycles, their edges in red")
	fs.Int("module-depth", -1, "Accepted for compatibility; modules are always drawn whole")
	fs.Bool("verbose", false, "Accepted for compatibility")
	fs.BoolVar(&opts.noColor, "no-color", false, "Disable colour in diagnostics")
	// Variable values do not change the graph: references, not values,
	// make its edges. Only the encryption configuration uses them.
	arguments.AddVarFlags(fs, &opts.vars)
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		opts.help = true
		return opts, nil
	} else if err != nil {
		opts.usage = true
		return opts, diags.Diagnostics{diags.Errorf("Failed to parse command-line flags", "%s", err)}
	}
	if fs.NArg() > 0 {
		opts.usage = true
		return opts, diags.Diagnostics{diags.Errorf("Unexpected argument",
			"Too many command line arguments. Did you mean to use -chdir?")}
	}
	if opts.graphType == "" {
		opts.graphType = "plan"
		if opts.planFile != "" {
			opts.graphType = "apply"
		}
	}
	switch opts.graphType {
	case "plan", "plan-refresh-only", "plan-destroy", "apply":
	case "eval", "validate":
		return opts, diags.Diagnostics{diags.Errorf("Graph type no longer available",
			"The graph type %q is no longer available. Use -type=plan instead to get a similar result.", opts.graphType)}
	default:
		return opts, diags.Diagnostics{diags.Errorf("Unsupported graph type",
			`The -type=... argument must be either "plan", "plan-refresh-only", "plan-destroy", or "apply".`)}
	}
	return opts, nil
}

// operationGraph builds the graph opts ask for. The graph is nil when it
// could not be built; otherwise ds may still hold its cycles as errors.
func operationGraph(out *views.Operation, opts graphOptions) (*engine.OperationGraph, graphKind, diags.Diagnostics) {
	if opts.graphType == "apply" && opts.planFile != "" {
		return savedPlanGraph(out, opts.planFile, opts.vars)
	}
	op, ds := openGraphOperation(out, opts.vars, nil)
	if op == nil {
		return nil, 0, ds
	}
	defer op.Close()
	ctx := context.Background()
	var g *engine.OperationGraph
	var gds diags.Diagnostics
	kind := graphOfPlan
	switch opts.graphType {
	case "plan":
		g, gds = op.Engine.PlanGraph(ctx, plans.NormalMode)
	case "plan-refresh-only":
		g, gds = op.Engine.PlanGraph(ctx, plans.RefreshOnlyMode)
	case "plan-destroy":
		g, gds = op.Engine.DestroyGraph(ctx)
		kind = graphOfDestroy
	case "apply":
		// As in OpenTofu, an apply graph without a plan is the graph of
		// applying a plan that changes nothing.
		g, gds = op.Engine.ApplyGraph(ctx, nil)
		kind = graphOfApply
	}
	return g, kind, ds.Append(gds)
}

// savedPlanGraph is the apply graph of the plan saved at path, refused,
// as apply refuses it, when the configuration changed since.
func savedPlanGraph(out *views.Operation, path string, vars []inputvars.VarOption) (*engine.OperationGraph, graphKind, diags.Diagnostics) {
	if _, err := os.Stat(path); err != nil {
		return nil, 0, diags.Diagnostics{diags.Errorf("Failed loading the plan file",
			"Encountered an error while opening the plan file %q: %s", path, err)}
	}
	plan, snapshot, lockFile, enc, ds := readSavedPlan(path, ".", vars)
	if ds.HasErrors() {
		return nil, 0, ds
	}
	op, ds := openGraphOperation(out, vars, enc)
	if op == nil {
		return nil, 0, ds
	}
	defer op.Close()
	if ds = ds.Append(op.checkSavedPlanInputs(path, snapshot, lockFile)); ds.HasErrors() {
		return nil, 0, ds
	}
	g, gds := op.Engine.ApplyGraph(context.Background(), plan)
	return g, applyGraphKind(plan), ds.Append(gds)
}

func applyGraphKind(plan *plans.Plan) graphKind {
	if plan.UIMode == plans.DestroyMode {
		return graphOfDestroy
	}
	return graphOfApply
}

// openGraphOperation loads the configuration, the workspace's records and
// the installed providers, as plan does, but without variable values:
// references, not values, make the graph, so a required variable left unset
// is no error here. vars serve only the encryption configuration, and enc,
// when not nil, is the encryption a saved plan was read with. It returns
// nil, with the diagnostics, on failure.
func openGraphOperation(out *views.Operation, vars []inputvars.VarOption, enc *encryption.Encryption) (*operation, diags.Diagnostics) {
	r, ds := run.Open(context.Background(), run.Options{
		Dir:        ".",
		Vars:       vars,
		Encryption: enc,
		Sources:    out.AddSources,
		Engine:     engine.Options{Logger: logging.Named("engine"), OriginalWorkingDir: originalWorkingDir},
	})
	if r == nil {
		return nil, ds
	}
	return &operation{Run: r, out: out}, ds
}

// cycleErrors replaces the engine's cycle errors in ds with OpenTofu's
// graph error for each cycle: "Cycle: " and the names of its nodes, as
// the drawing would name them.
func cycleErrors(g *engine.OperationGraph, ds diags.Diagnostics) diags.Diagnostics {
	var out diags.Diagnostics
	for _, d := range ds {
		if !strings.HasPrefix(d.Summary, engine.CycleSummaryPrefix) {
			out = append(out, d)
		}
	}
	byKey := map[string]engine.GraphVertex{}
	for _, v := range g.Vertices {
		byKey[v.Key] = v
	}
	for _, cycle := range g.Cycles {
		names := make([]string, 0, len(cycle))
		for _, key := range cycle {
			ends := newDrawing().addVertex(byKey[key], graphOfPlan, nil, nil, false)
			names = append(names, ends.to...)
		}
		slices.Sort(names)
		out = append(out, diags.Errorf("Cycle: "+strings.Join(names, ", "), ""))
	}
	return out
}
