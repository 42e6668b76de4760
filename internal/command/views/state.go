package views

import (
	"fmt"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/jsonstate"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/ui/jsonview"
	"github.com/terrane/terrane/internal/version"
)

// State shows what the state subcommands report, as OpenTofu's state
// commands do: lines of text and diagnostics as its older commands write
// them, or with -json its messages.
type State struct {
	streams Streams
	color   bool
	// json is the -json message stream; nil for human output.
	json *jsonview.View
}

// NewState is a state subcommand's view; under -json it starts the
// message stream with the version message.
func NewState(streams Streams, color, asJSON bool) *State {
	v := &State{streams: streams, color: color}
	if asJSON {
		v.json = jsonview.New(streams.Stdout)
		v.json.Version()
	}
	return v
}

// JSON reports whether the view writes -json messages.
func (v *State) JSON() bool { return v.json != nil }

// Color reports whether the view writes in colour.
func (v *State) Color() bool { return v.color }

// Info says something to the user: a line of text, or with -json an info
// message (OpenTofu's JSON views leave out the full stop).
func (v *State) Info(text, jsonText string) {
	if v.json != nil {
		v.json.Message(jsonview.LevelInfo, jsonText)
		return
	}
	fmt.Fprintln(v.streams.Stdout, text)
}

// Diagnostics prints ds: as JSON messages with -json, else as OpenTofu's
// older commands do (see WriteLegacyDiagnostics), warnings on stdout and
// errors on stderr.
func (v *State) Diagnostics(ds diags.Diagnostics) {
	if v.json != nil {
		v.json.Diagnostics(ds, nil)
		return
	}
	for _, d := range ds {
		w := v.streams.Stderr
		if d.Severity == diags.Warning {
			w = v.streams.Stdout
		}
		WriteLegacyDiagnostics(w, diags.Diagnostics{d}, nil, v.color)
	}
}

// ConfigDiagnostics prints diagnostics about the configuration, which may
// quote the files in sources: warnings on stdout, errors on stderr, as
// OpenTofu's views print them.
func (v *State) ConfigDiagnostics(ds diags.Diagnostics, sources ui.Sources) {
	if v.json != nil {
		v.json.Diagnostics(ds, sources)
		return
	}
	ui.DiagnosticView{Color: v.color, ConsolidateWarnings: true, NewlineAfter: true}.Write(v.streams.Stdout, v.streams.Stderr, ds, sources)
}

// ResourceAddress lists one instance, as state list does.
func (v *State) ResourceAddress(addr addrs.AbsResourceInstance) {
	if v.json != nil {
		v.json.Typed(jsonview.LevelInfo, "resource_address", addr.String(), nil)
		return
	}
	fmt.Fprintln(v.streams.Stdout, addr)
}

// Instance shows the current object of res's instance inst at addr as
// OpenTofu's state show does: the layout of `terrane show` limited to
// that object, or with -json the state of that one instance as show -json
// would write it.
func (v *State) Instance(res *states.Resource, addr addrs.AbsResourceInstance, inst *states.ResourceInstance, schemas *providers.Schemas) diags.Diagnostics {
	only := states.NewState()
	if inst.Current != nil {
		only.SetResourceInstanceCurrent(addr, inst.Current, res.ProviderConfig)
	}
	if v.json == nil {
		return ui.RenderState(v.streams.Stdout, only, schemas, ui.StateOptions{Color: v.color})
	}
	out, err := jsonstate.Marshal(only, schemas, version.OpenTofuVersion)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to marshal state to json", "Error while marshalling state to json: %s", err)}
	}
	fmt.Fprintln(v.streams.Stdout, string(out))
	return nil
}

// ComponentChildren lists, after a component resource's object, the
// resources the component at addr created.
func (v *State) ComponentChildren(addr addrs.AbsResourceInstance, children []recordstore.ComponentChild) {
	if len(children) == 0 {
		return
	}
	w := v.streams.Stdout
	fmt.Fprintf(w, "\n# Children of %s (created by the component):\n", addr)
	for _, child := range children {
		fmt.Fprintf(w, "#   %s %q\n#     id      = %q\n#     urn     = %q\n#     outputs = %s\n", child.Type, child.Name, child.ID, child.URN, child.OutputsJSON)
	}
}

// Problems writes diagnostics to stderr, warnings too, after what was
// shown on stdout.
func (v *State) Problems(ds diags.Diagnostics) {
	ui.WriteDiagnostics(v.streams.Stderr, ds, nil, v.color)
}

// ReplaceProviderPlan shows what state replace-provider is about to do:
// hand resources from provider from to provider to.
func (v *State) ReplaceProviderPlan(from, to addrs.Provider, resources []addrs.AbsResource) {
	out := func(text string) { fmt.Fprintln(v.streams.Stdout, ui.Colorize(text, v.color)) }
	out("Terrane will perform the following actions:\n")
	out("  [yellow]~[reset] Updating provider:")
	out(fmt.Sprintf("    [red]-[reset] %s", from))
	out(fmt.Sprintf("    [green]+[reset] %s\n", to))
	out(fmt.Sprintf("[bold]Changing[reset] %d resources:\n", len(resources)))
	for _, addr := range resources {
		out(fmt.Sprintf("  %s", addr))
	}
}
