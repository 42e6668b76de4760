package arguments

import (
	"errors"
	"flag"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// Graph is `terrane graph`'s command line.
type Graph struct {
	View
	// Type is the operation to draw: plan, plan-refresh-only,
	// plan-destroy or apply; plan by default, apply with PlanFile.
	Type string
	// PlanFile is -plan: the saved plan whose apply graph is drawn.
	PlanFile   string
	DrawCycles bool
	// Vars do not change the graph, but an encryption configuration that
	// uses variables needs them to read the state and a saved plan.
	Vars []inputvars.VarOption
	// UsageError is set when the command line is wrong in a way that has
	// the command's help follow the error: a flag error or an argument.
	UsageError bool
}

// ParseGraph parses `terrane graph`'s arguments.
func ParseGraph(args []string) (*Graph, diags.Diagnostics) {
	graph := &Graph{}
	fs := newFlagSet("graph")
	fs.StringVar(&graph.Type, "type", "", "")
	fs.StringVar(&graph.PlanFile, "plan", "", "")
	fs.BoolVar(&graph.DrawCycles, "draw-cycles", false, "")
	// Accepted for compatibility: modules are always drawn whole.
	fs.Int("module-depth", -1, "")
	fs.Bool("verbose", false, "")
	fs.BoolVar(&graph.NoColor, "no-color", false, "")
	addVarFlags(fs, &graph.Vars)
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		graph.Help = true
		return graph, nil
	} else if err != nil {
		graph.UsageError = true
		return graph, diags.Diagnostics{flagsError(err)}
	}
	if fs.NArg() > 0 {
		graph.UsageError = true
		return graph, diags.Diagnostics{unexpectedArgument()}
	}
	if graph.Type == "" {
		graph.Type = "plan"
		if graph.PlanFile != "" {
			graph.Type = "apply"
		}
	}
	switch graph.Type {
	case "plan", "plan-refresh-only", "plan-destroy", "apply":
	case "eval", "validate":
		return graph, diags.Diagnostics{diags.Errorf("Graph type no longer available",
			"The graph type %q is no longer available. Use -type=plan instead to get a similar result.", graph.Type)}
	default:
		return graph, diags.Diagnostics{diags.Errorf("Unsupported graph type",
			`The -type=... argument must be either "plan", "plan-refresh-only", "plan-destroy", or "apply".`)}
	}
	return graph, nil
}
