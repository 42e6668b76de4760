package views

import (
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
)

// View is what every command's view shares: the streams, whether colour
// is on, the source files diagnostics may quote, and how diagnostics are
// shown for a person.
type View struct {
	streams Streams
	options arguments.View
	color   bool
	sources ui.Sources
}

// NewView is the view of a command whose own view options are options.
func NewView(streams Streams, options arguments.View) *View {
	return &View{
		streams: streams,
		options: options,
		color:   ui.ColorEnabled(options.NoColor),
		sources: ui.Sources{},
	}
}

// Streams are the streams the view writes to.
func (v *View) Streams() Streams { return v.streams }

// Color reports whether the view writes in colour.
func (v *View) Color() bool { return v.color }

// Sources are the files diagnostics may quote, as gathered so far.
func (v *View) Sources() ui.Sources { return v.sources }

// AddSources adds files that later diagnostics may quote.
func (v *View) AddSources(files map[string]*hcl.File) {
	for name, file := range files {
		v.sources[name] = file
	}
}

// Diagnostics writes warnings to stdout and errors to stderr, as the
// command line's view options say (see diagnosticView).
func (v *View) Diagnostics(ds diags.Diagnostics) {
	diagnosticView(v.streams, v.options, v.color).Write(v.streams.Stdout, v.streams.Stderr, ds, v.sources)
}

// HelpPrompt follows the errors in a command line, as OpenTofu's views
// of plan, apply, destroy, refresh and test do.
func (v *View) HelpPrompt(command string) {
	fmt.Fprintf(v.streams.Stderr, "\nFor more help on using this command, run:\n  terrane %s -help\n", command)
}

// bold is text in bold when colour is on.
func (v *View) bold(text string) string {
	if !v.color {
		return text
	}
	return "\x1b[1m" + text + "\x1b[0m"
}

// diagnosticView is how a command shows diagnostics, from its own view
// options and the global ones.
func diagnosticView(streams Streams, options arguments.View, color bool) ui.DiagnosticView {
	return ui.DiagnosticView{
		Color:               color,
		ConsolidateWarnings: !streams.View.KeepWarningsApart,
		ConsolidateErrors:   streams.View.ConsolidateErrors,
		CompactWarnings:     options.CompactWarnings,
		Deprecation:         streams.View.Deprecation,
	}
}

// WriteLegacyDiagnostics writes diagnostics as OpenTofu's older commands
// (state, taint, workspace and the like) do through Meta.showDiagnostics:
// each followed by an empty line, the newline its Ui adds. They may quote
// the files in sources.
func WriteLegacyDiagnostics(w io.Writer, ds diags.Diagnostics, sources ui.Sources, color bool) {
	ui.DiagnosticView{Color: color, ConsolidateWarnings: true, NewlineAfter: true}.Write(w, w, ds, sources)
}
