package ui

import (
	"fmt"
	"io"
	"strings"

	"github.com/terrane/terrane/internal/diags"
)

// DiagnosticView is how a command shows diagnostics, set by the options
// OpenTofu accepts on every command: -no-color, -consolidate-warnings
// (on unless =false), -consolidate-errors and -compact-warnings.
type DiagnosticView struct {
	Color               bool
	ConsolidateWarnings bool
	ConsolidateErrors   bool
	CompactWarnings     bool
	// NewlineAfter ends each diagnostic with an empty line, as OpenTofu's
	// older commands (init, state, workspace and the like) print them.
	NewlineAfter bool
	// Deprecation is -deprecation=module:LEVEL: "local" hides the
	// deprecation warnings of modules from remote sources, "none" all of
	// them; otherwise all are shown.
	Deprecation string
}

// Write shows ds as OpenTofu's View.Diagnostics does: sorted, grouped as
// the view says, warnings on stdout and errors on stderr, wrapped to
// stderr's width. With CompactWarnings and nothing but warnings, each
// warning is one line.
func (v DiagnosticView) Write(stdout, stderr io.Writer, ds diags.Diagnostics, sources Sources) {
	v.write(stdout, stderr, ds, sources, Width(stderr))
}

func (v DiagnosticView) write(stdout, stderr io.Writer, ds diags.Diagnostics, sources Sources, width int) {
	if len(ds) == 0 {
		return
	}
	groups := v.groups(v.deprecationsAllowed(SortDiagnostics(ds)))
	if v.CompactWarnings && !ds.HasErrors() {
		writeCompactWarnings(stdout, groups, v.Color)
		return
	}
	for _, group := range groups {
		d := group.Described()
		w := stdout
		if d.Severity == diags.Error {
			w = stderr
		}
		text := FormatDiagnosticPlain(d, sources, width)
		if v.Color {
			text = FormatDiagnostic(d, sources, width)
		}
		if v.NewlineAfter {
			text += "\n"
		}
		io.WriteString(w, text)
	}
}

// deprecationsAllowed drops the deprecation warnings the view hides, and
// every one but the first of each cause, as OpenTofu's view does.
func (v DiagnosticView) deprecationsAllowed(ds diags.Diagnostics) diags.Diagnostics {
	out := make(diags.Diagnostics, 0, len(ds))
	seen := map[string]bool{}
	for _, d := range ds {
		w, ok := diags.ExtraAs[diags.DeprecationWarning](d.Extra)
		if !ok {
			out = append(out, d)
			continue
		}
		key, remote := w.DeprecationCause()
		if seen[key] || v.Deprecation == "none" || (v.Deprecation == "local" && remote) {
			seen[key] = true
			continue
		}
		seen[key] = true
		out = append(out, d)
	}
	return out
}

// groups consolidates sorted diagnostics as the view says.
func (v DiagnosticView) groups(ds diags.Diagnostics) []DiagnosticGroup {
	groups := make([]DiagnosticGroup, 0, len(ds))
	for _, d := range ds {
		groups = append(groups, DiagnosticGroup{First: d, Count: 1})
	}
	for _, severity := range []diags.Severity{diags.Warning, diags.Error} {
		if (severity == diags.Warning && !v.ConsolidateWarnings) || (severity == diags.Error && !v.ConsolidateErrors) {
			continue
		}
		groups = consolidateGroups(groups, severity)
	}
	return groups
}

// writeCompactWarnings lists warnings one to a line with where they are,
// as OpenTofu's format.DiagnosticWarningsCompact does.
func writeCompactWarnings(w io.Writer, groups []DiagnosticGroup, color bool) {
	var b strings.Builder
	title := "[bold][yellow]Warnings:[reset]\n\n"
	if color {
		b.WriteString(colorize(title))
	} else {
		b.WriteString(stripColors(title))
	}
	for _, g := range groups {
		d := g.Described()
		fmt.Fprintf(&b, "- %s\n", d.Summary)
		if g.First.Subject == nil {
			continue
		}
		if g.Count > 1 {
			fmt.Fprintf(&b, "  on %s line %d (and %d more)\n", g.First.Subject.Filename, g.First.Subject.Start.Line, g.Count-1)
		} else {
			fmt.Fprintf(&b, "  on %s line %d\n", g.First.Subject.Filename, g.First.Subject.Start.Line)
		}
	}
	fmt.Fprint(w, "\n"+b.String()+"\nTo see the full warning notes, run Terrane without -compact-warnings.\n")
}
