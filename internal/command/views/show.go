package views

import (
	"encoding/json"
	"fmt"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/jsonconfig"
	"github.com/terrane/terrane/internal/command/jsonplan"
	"github.com/terrane/terrane/internal/command/jsonstate"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/ui"
)

// Show shows what `terrane show` was asked for — a state, a saved plan or
// the configuration — for people, or with -json in Terraform's JSON
// state, plan and configuration representations.
type Show struct {
	streams       Streams
	options       arguments.View
	showSensitive bool
}

// NewShow is the show command's view with options; showSensitive shows
// sensitive values in the human forms.
func NewShow(streams Streams, options arguments.View, showSensitive bool) *Show {
	return &Show{streams: streams, options: options, showSensitive: showSensitive}
}

// color is whether what is shown is drawn in colour: never in a JSON
// document.
func (v *Show) color() bool {
	return ui.ColorEnabled(v.options.NoColor) && !v.options.JSON
}

// ArgumentErrors reports a wrong command line, then how to get help.
func (v *Show) ArgumentErrors(ds diags.Diagnostics) {
	ui.WriteDiagnostics(v.streams.Stderr, ds, nil, ui.ColorEnabled(v.options.NoColor))
	fmt.Fprint(v.streams.Stderr, "\nFor more help on using this command, run:\n  terrane show -help\n")
}

// Diagnostics shows why show failed. As OpenTofu's show, warnings are
// shown only beside an error (they would spoil a JSON document), and in
// colour unless -no-color, even with -json.
func (v *Show) Diagnostics(ds diags.Diagnostics, sources ui.Sources) {
	ui.DiagnosticView{Color: ui.ColorEnabled(v.options.NoColor), ConsolidateWarnings: true}.Write(v.streams.Stdout, v.streams.Stderr, ds, sources)
}

// NoState says no apply ever ran in the workspace: OpenTofu has no state
// file to show then.
func (v *Show) NoState() {
	fmt.Fprintln(v.streams.Stdout, "No state.")
}

// State shows state, whose providers' schemas are schemas; under -json,
// stateVersion is the version the document says wrote the state.
func (v *Show) State(state *states.State, schemas *providers.Schemas, stateVersion string) diags.Diagnostics {
	if v.options.JSON {
		out, err := jsonstate.Marshal(state, schemas, stateVersion)
		if err != nil {
			return diags.Diagnostics{diags.Errorf("Cannot show the state", "%s.", err)}
		}
		fmt.Fprintln(v.streams.Stdout, string(out))
		return nil
	}
	return ui.RenderState(v.streams.Stdout, state, schemas, ui.StateOptions{Color: v.color(), ShowSensitive: v.showSensitive})
}

// Plan shows a saved plan for people.
func (v *Show) Plan(plan *plans.Plan, schemas *providers.Schemas) diags.Diagnostics {
	return ui.RenderPlan(v.streams.Stdout, plan, schemas, ui.PlanOptions{Color: v.color(), ShowSensitive: v.showSensitive})
}

// PlanJSON shows the saved plan at path as its JSON representation.
func (v *Show) PlanJSON(in jsonplan.Input, path string) diags.Diagnostics {
	out, err := jsonplan.Marshal(in)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot show the plan", "%s: %s.", path, err)}
	}
	fmt.Fprintln(v.streams.Stdout, string(out))
	return nil
}

// Config shows the configuration in the JSON representation plans carry.
func (v *Show) Config(cfg *config.Config, schemas *providers.Schemas) diags.Diagnostics {
	out, err := json.Marshal(jsonconfig.New(cfg, schemas))
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot show the configuration", "%s.", err)}
	}
	fmt.Fprintln(v.streams.Stdout, string(out))
	return nil
}
