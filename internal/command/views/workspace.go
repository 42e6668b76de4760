package views

import (
	"fmt"
	"strings"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
)

// Workspace shows what the workspace subcommands report, in OpenTofu's
// words and colours.
type Workspace struct {
	streams Streams
	color   bool
}

// NewWorkspace is a workspace subcommand's view.
func NewWorkspace(streams Streams, color bool) *Workspace {
	return &Workspace{streams: streams, color: color}
}

// Diagnostics writes ds as OpenTofu's workspace commands do: errors on
// stderr, warnings on stdout, each followed by an empty line.
func (v *Workspace) Diagnostics(ds ...diags.Diagnostic) {
	for _, d := range ds {
		w := v.streams.Stderr
		if d.Severity == diags.Warning {
			w = v.streams.Stdout
		}
		WriteLegacyDiagnostics(w, diags.Diagnostics{d}, nil, v.color)
	}
}

// say writes one of OpenTofu's coloured messages, the format marked up and
// the values put in after.
func (v *Workspace) say(format string, args ...any) {
	fmt.Fprintln(v.streams.Stdout, fmt.Sprintf(ui.Colorize(format, v.color), args...))
}

// Created says workspace name was created and selected.
func (v *Workspace) Created(name string) {
	v.say("[reset][green][bold]Created and switched to workspace %q![reset][green]\n\n"+
		"You're now on a new, empty workspace. Workspaces isolate their state,\n"+
		"so if you run \"terrane plan\" Terrane will not see any existing state\n"+
		"for this configuration.", name)
}

// Switched says workspace name was selected.
func (v *Workspace) Switched(name string) {
	v.say("[reset][green]Switched to workspace %q.", name)
}

// Deleted says workspace name was deleted.
func (v *Workspace) Deleted(name string) {
	v.say("[reset][green]Deleted workspace %q!", name)
}

// Current names the selected workspace.
func (v *Workspace) Current(name string) {
	fmt.Fprintln(v.streams.Stdout, name)
}

// List lists the workspaces names, current marked with an asterisk;
// overridden says TF_WORKSPACE chose it.
func (v *Workspace) List(names []string, current string, overridden bool) {
	var b strings.Builder
	for _, name := range names {
		marker := "  "
		if name == current {
			marker = "* "
		}
		b.WriteString(marker + name + "\n")
	}
	fmt.Fprintln(v.streams.Stdout, b.String())
	if overridden {
		fmt.Fprint(v.streams.Stdout, "\n\nThe active workspace is being overridden using the TF_WORKSPACE environment\nvariable.\n\n")
	}
}
