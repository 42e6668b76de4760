package views

import (
	"encoding/json"
	"fmt"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/jsonvalidate"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
)

// Validate shows validate's verdict: the diagnostics, then a line saying
// the configuration is valid, as OpenTofu's views.ValidateHuman does; or,
// with -json, one document holding both.
type Validate struct {
	streams Streams
	options arguments.View
	color   bool
}

// NewValidate is the validate command's view with options.
func NewValidate(streams Streams, options arguments.View) *Validate {
	return &Validate{streams: streams, options: options, color: !options.NoColor && !options.JSON}
}

// ArgumentErrors reports a wrong command line: the errors, then, for
// people, how to get help.
func (v *Validate) ArgumentErrors(ds diags.Diagnostics) {
	ui.WriteDiagnostics(v.streams.Stderr, ds, nil, v.color)
	if !v.options.JSON {
		fmt.Fprint(v.streams.Stderr, "\nFor more help on using this command, run:\n  terrane validate -help\n")
	}
}

// Result shows what validating found, ds, with the files it may quote.
// It reports whether the result could be written.
func (v *Validate) Result(ds diags.Diagnostics, sources ui.Sources) bool {
	if v.options.JSON {
		return v.resultJSON(ds, sources)
	}
	diagnosticView(v.streams, arguments.View{CompactWarnings: v.options.CompactWarnings}, v.color).Write(v.streams.Stdout, v.streams.Stderr, ds, sources)
	if ds.HasErrors() {
		return true
	}
	// One line, colour included, wrapped to the output's width.
	success := "Success!"
	if v.color {
		success = "\x1b[32m\x1b[1mSuccess!\x1b[0m"
	}
	msg := success + " The configuration is valid."
	if len(ds) > 0 {
		msg = success + " The configuration is valid, but there were some validation warnings as shown above."
	}
	fmt.Fprintln(v.streams.Stdout, ui.WordWrap(msg, ui.Width(v.streams.Stdout)))
	return true
}

func (v *Validate) resultJSON(ds diags.Diagnostics, sources ui.Sources) bool {
	out, err := json.MarshalIndent(jsonvalidate.New(ds, sources), "", "  ")
	if err != nil {
		fmt.Fprintf(v.streams.Stdout, "Error: cannot encode the validation result: %s\n", err)
		return false
	}
	fmt.Fprintln(v.streams.Stdout, string(out))
	return true
}
