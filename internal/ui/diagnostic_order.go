package ui

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/diags"
)

// SortDiagnostics orders diagnostics as OpenTofu's views do before showing
// them (tfdiags.Diagnostics.Sort): warnings before errors, then those
// without a source location, then by file (fewer path segments first, then
// by name) and position in it; otherwise the order they were raised in is
// kept. It returns a sorted copy.
func SortDiagnostics(ds diags.Diagnostics) diags.Diagnostics {
	out := append(diags.Diagnostics(nil), ds...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Severity != b.Severity {
			return a.Severity == diags.Warning
		}
		if (a.Subject == nil) != (b.Subject == nil) {
			return a.Subject == nil
		}
		if a.Subject == nil || *a.Subject == *b.Subject {
			return false
		}
		sa, sb := a.Subject, b.Subject
		if sa.Filename != sb.Filename {
			sep := string(filepath.Separator)
			if ca, cb := strings.Count(sa.Filename, sep), strings.Count(sb.Filename, sep); ca != cb {
				return ca < cb
			}
			return sa.Filename < sb.Filename
		}
		if sa.Start.Byte != sb.Start.Byte {
			return sa.Start.Byte < sb.Start.Byte
		}
		return sa.End.Byte < sb.End.Byte
	})
	return out
}

// DiagnosticGroup is a diagnostic shown once for several with its summary:
// First stands for all of them and Count says how many there are.
type DiagnosticGroup struct {
	First diags.Diagnostic
	Count int
}

// Described is the group's diagnostic as shown: the first one, its detail
// ending with how many more there are, in OpenTofu's words
// (tfdiags.consolidatedGroup.Description).
func (g DiagnosticGroup) Described() diags.Diagnostic {
	d := g.First
	extra := g.Count - 1
	if extra < 1 {
		return d
	}
	kind := "warning"
	if d.Severity == diags.Error {
		kind = "error"
	}
	note := fmt.Sprintf("(and %d more similar %ss elsewhere)", extra, kind)
	if extra == 1 {
		note = fmt.Sprintf("(and one more similar %s elsewhere)", kind)
	}
	if d.Detail != "" {
		d.Detail += "\n\n" + note
	} else {
		d.Detail = note
	}
	return d
}

// ConsolidateDiagnostics groups the diagnostics of one severity that have
// a source location and the same consolidation key (the summary, narrowed
// by the Extra's key) under the first of them, as OpenTofu's
// tfdiags.Diagnostics.Consolidate does with a threshold of one: a
// configuration that uses a deprecated feature in fifty places gets one
// warning saying there are forty-nine more. A failed check is never
// grouped: each failure is news. Other diagnostics stay as they are, each
// a group of one.
func ConsolidateDiagnostics(ds diags.Diagnostics, severity diags.Severity) []DiagnosticGroup {
	groups := make([]DiagnosticGroup, len(ds))
	for i, d := range ds {
		groups[i] = DiagnosticGroup{First: d, Count: 1}
	}
	return consolidateGroups(groups, severity)
}

// consolidateGroups merges groups as ConsolidateDiagnostics merges
// diagnostics, each into the first group of its key.
func consolidateGroups(groups []DiagnosticGroup, severity diags.Severity) []DiagnosticGroup {
	out := make([]DiagnosticGroup, 0, len(groups))
	byKey := map[string]int{}
	for _, g := range groups {
		d := g.First
		if d.Severity != severity || d.Subject == nil || d.FailedCheck {
			out = append(out, g)
			continue
		}
		key := d.ConsolidationKey()
		if i, ok := byKey[key]; ok {
			out[i].Count += g.Count
			continue
		}
		byKey[key] = len(out)
		out = append(out, g)
	}
	return out
}
