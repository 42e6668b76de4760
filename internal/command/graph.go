package command

import (
	"context"
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

// runGraph is `terrane graph`: the dependency graph of a plan or apply
// operation in the DOT language, shaped as OpenTofu's graph command draws
// it. The graph is the one the engine walks, so what it shows is the order
// Terrane works in.
func runGraph(streams views.Streams, args []string) int {
	opts, argDiags := arguments.ParseGraph(args)
	if opts.Help {
		return 0
	}
	out := views.NewOperation(streams, arguments.View{NoColor: opts.NoColor})
	if argDiags.HasErrors() {
		code := writeGraphFailure(out, argDiags)
		if opts.UsageError {
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
	fmt.Fprintln(streams.Stdout, drawGraph(g, kind, opts.DrawCycles))
	return 0
}

// writeGraphFailure writes ds to stderr, warnings included: stdout is
// for the DOT text only, which a program may be reading. Each diagnostic
// has an empty line after it, as OpenTofu's graph command writes them.
func writeGraphFailure(out *views.Operation, ds diags.Diagnostics) int {
	ui.DiagnosticView{Color: out.Color(), ConsolidateWarnings: true, NewlineAfter: true}.Write(out.Streams().Stderr, out.Streams().Stderr, ds, out.Sources())
	return 1
}

// operationGraph builds the graph opts ask for. The graph is nil when it
// could not be built; otherwise ds may still hold its cycles as errors.
func operationGraph(out *views.Operation, opts *arguments.Graph) (*engine.OperationGraph, graphKind, diags.Diagnostics) {
	if opts.Type == "apply" && opts.PlanFile != "" {
		return savedPlanGraph(out, opts.PlanFile, opts.Vars)
	}
	op, ds := openGraphOperation(out, opts.Vars, nil)
	if op == nil {
		return nil, 0, ds
	}
	defer op.Close()
	ctx := context.Background()
	var g *engine.OperationGraph
	var gds diags.Diagnostics
	kind := graphOfPlan
	switch opts.Type {
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
