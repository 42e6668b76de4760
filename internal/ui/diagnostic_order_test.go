package ui

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/diags"
)

func at(file string, line, startByte int) *hcl.Range {
	return &hcl.Range{Filename: file, Start: hcl.Pos{Line: line, Column: 1, Byte: startByte}, End: hcl.Pos{Line: line, Column: 2, Byte: startByte + 1}}
}

// TestSortDiagnostics orders as OpenTofu's tfdiags sortDiagnostics:
// warnings first, sourceless first, fewer path segments first, then file
// name and position; ties keep their order.
func TestSortDiagnostics(t *testing.T) {
	ds := diags.Diagnostics{
		{Severity: diags.Error, Summary: "e main", Subject: at("main.tf", 1, 0)},
		{Severity: diags.Warning, Summary: "w module", Subject: at("modules/a/main.tf", 1, 0)},
		{Severity: diags.Warning, Summary: "w main late", Subject: at("main.tf", 9, 90)},
		{Severity: diags.Warning, Summary: "w b.tf", Subject: at("b.tf", 3, 30)},
		{Severity: diags.Error, Summary: "e sourceless"},
		{Severity: diags.Warning, Summary: "w main early", Subject: at("main.tf", 2, 20)},
		{Severity: diags.Warning, Summary: "w sourceless 1"},
		{Severity: diags.Warning, Summary: "w sourceless 2"},
	}
	var got []string
	for _, d := range SortDiagnostics(ds) {
		got = append(got, d.Summary)
	}
	want := []string{"w sourceless 1", "w sourceless 2", "w b.tf", "w main early", "w main late", "w module", "e sourceless", "e main"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if ds[0].Summary != "e main" {
		t.Errorf("SortDiagnostics sorted its argument in place")
	}
}

// TestWriteDiagnosticsConsolidatesWarnings shows warnings with one summary
// once, counting the rest in OpenTofu's words; errors, sourceless warnings
// and failed checks are each shown.
func TestWriteDiagnosticsConsolidatesWarnings(t *testing.T) {
	ds := diags.Diagnostics{
		{Severity: diags.Warning, Summary: "Deprecated attribute", Detail: "Use b.", Subject: at("main.tf", 1, 0)},
		{Severity: diags.Warning, Summary: "Deprecated attribute", Detail: "Use b.", Subject: at("main.tf", 5, 50)},
		{Severity: diags.Warning, Summary: "Deprecated attribute", Detail: "Use b.", Subject: at("main.tf", 9, 90)},
		{Severity: diags.Warning, Summary: "Once more", Subject: at("main.tf", 2, 20)},
		{Severity: diags.Warning, Summary: "Once more", Subject: at("main.tf", 3, 30)},
		{Severity: diags.Warning, Summary: "Check block assertion failed", Subject: at("main.tf", 6, 60), FailedCheck: true},
		{Severity: diags.Warning, Summary: "Check block assertion failed", Subject: at("main.tf", 7, 70), FailedCheck: true},
		{Severity: diags.Warning, Summary: "Sourceless"},
		{Severity: diags.Warning, Summary: "Sourceless"},
		{Severity: diags.Error, Summary: "Broken", Subject: at("main.tf", 1, 0)},
		{Severity: diags.Error, Summary: "Broken", Subject: at("main.tf", 2, 20)},
	}
	var out strings.Builder
	WriteDiagnostics(&out, ds, nil, false)
	text := out.String()
	for summary, want := range map[string]int{"Deprecated attribute": 1, "Once more": 1, "Check block assertion failed": 2, "Sourceless": 2, "Broken": 2} {
		if n := strings.Count(text, ": "+summary+"\n"); n != want {
			t.Errorf("%q shown %d times, want %d:\n%s", summary, n, want, text)
		}
	}
	for _, note := range []string{"Use b.\n\n(and 2 more similar warnings elsewhere)\n", "(and one more similar warning elsewhere)\n"} {
		if !strings.Contains(text, note) {
			t.Errorf("no %q in:\n%s", note, text)
		}
	}
	if strings.Contains(text, "similar error") {
		t.Errorf("errors consolidated:\n%s", text)
	}
}
