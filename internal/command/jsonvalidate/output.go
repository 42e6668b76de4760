package jsonvalidate

import (
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
)

// FormatVersion is the version of the document's shape; consumers check its
// major part.
const FormatVersion = "1.0"

// Output is the whole document.
type Output struct {
	FormatVersion string               `json:"format_version"`
	Valid         bool                 `json:"valid"`
	ErrorCount    int                  `json:"error_count"`
	WarningCount  int                  `json:"warning_count"`
	Diagnostics   []*ui.DiagnosticJSON `json:"diagnostics"`
}

// New builds the document for ds, each diagnostic in its UI form (see
// ui.NewDiagnosticJSON), in the order given.
func New(ds diags.Diagnostics, sources ui.Sources) Output {
	out := Output{FormatVersion: FormatVersion, Diagnostics: make([]*ui.DiagnosticJSON, 0, len(ds))}
	for _, d := range ds {
		switch d.Severity {
		case diags.Error:
			out.ErrorCount++
		case diags.Warning:
			out.WarningCount++
		}
		out.Diagnostics = append(out.Diagnostics, ui.NewDiagnosticJSON(d, sources))
	}
	out.Valid = out.ErrorCount == 0
	return out
}
