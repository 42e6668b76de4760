package views

import (
	"fmt"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
)

// Import shows what `terrane import` reports, as OpenTofu's import
// command does: the progress of the run, its diagnostics as that command
// writes them, and the closing note.
type Import struct {
	*Operation
}

// NewImport is the import command's view with options.
func NewImport(streams Streams, options arguments.View) *Import {
	return &Import{Operation: NewOperation(streams, options)}
}

// Diagnostics writes diagnostics as OpenTofu's import command does:
// sorted, warnings on stdout, errors on stderr, each followed by an empty
// line, none consolidated.
func (v *Import) Diagnostics(ds diags.Diagnostics) {
	for _, d := range ui.SortDiagnostics(ds) {
		w := v.streams.Stderr
		if d.Severity == diags.Warning {
			w = v.streams.Stdout
		}
		ui.WriteDiagnostic(w, d, v.sources, v.color)
		fmt.Fprintln(w)
	}
}

// AddressSyntaxHelp follows an address that could not be read.
func (v *Import) AddressSyntaxHelp() {
	fmt.Fprintln(v.streams.Stdout, "For information on valid syntax, see:\nhttps://opentofu.org/docs/cli/state/resource-addressing/")
}

// TargetMissing says the configuration has no resource block for addr,
// in module where, with an example of one. Not a diagnostic in OpenTofu
// either: its detail holds an example.
func (v *Import) TargetMissing(addr addrs.AbsResourceInstance, where string) {
	res := addr.Resource.Resource
	text := fmt.Sprintf("[reset][bold][red]Error:[reset][bold] resource address %q does not exist in the configuration.[reset]\n\n"+
		"Before importing this resource, please create its configuration in %s. For example:\n\n"+
		"resource %q %q {\n  # (resource arguments)\n}\n", addr, where, res.Type, res.Name)
	fmt.Fprintln(v.streams.Stderr, ui.Colorize(text, v.color))
}

// Succeeded closes a successful import.
func (v *Import) Succeeded() {
	fmt.Fprintln(v.streams.Stdout, ui.Colorize("\n[reset][green]Import successful!\n\n"+
		"The resources that were imported are shown above. These resources are now in\n"+
		"your Terrane state and will henceforth be managed by Terrane.\n", v.color))
}
