package ui

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/marks"
)

const snippetSource = `resource "a" "b" {
  name = var.name
  size = 3
}
`

func parseSnippetSource(t *testing.T) Sources {
	t.Helper()
	file, d := hclsyntax.ParseConfig([]byte(snippetSource), "main.tf", hcl.InitialPos)
	if d.HasErrors() {
		t.Fatal(d)
	}
	return Sources{"main.tf": file}
}

func rangeOf(startByte, endByte int) *hcl.Range {
	pos := func(b int) hcl.Pos {
		line, col := 1, 1
		for _, c := range snippetSource[:b] {
			if c == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return hcl.Pos{Line: line, Column: col, Byte: b}
	}
	return &hcl.Range{Filename: "main.tf", Start: pos(startByte), End: pos(endByte)}
}

func TestSnippets(t *testing.T) {
	sources := parseSnippetSource(t)
	nameAt := len(`resource "a" "b" {` + "\n  ")
	tests := []struct {
		name               string
		diag               diags.Diagnostic
		code               string
		startLine          int
		highlightStart, hl int
		context            string
	}{
		{"one line", diags.Diagnostic{Subject: rangeOf(nameAt, nameAt+4)},
			"  name = var.name", 2, 2, 6, `resource "a" "b"`},
		{"empty range widened to one byte", diags.Diagnostic{Subject: rangeOf(nameAt, nameAt)},
			"  name = var.name", 2, 2, 3, `resource "a" "b"`},
		{"context widens the lines shown", diags.Diagnostic{Subject: rangeOf(nameAt, nameAt+4), Context: rangeOf(0, len(snippetSource)-1)},
			snippetSource[:len(snippetSource)-1], 1, nameAt, nameAt + 4, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.diag.Severity, tc.diag.Summary = diags.Error, "Oops"
			got := NewDiagnosticJSON(tc.diag, sources)
			s := got.Snippet
			if s == nil {
				t.Fatal("no snippet")
			}
			if s.Code != tc.code || s.StartLine != tc.startLine || s.HighlightStartOffset != tc.highlightStart || s.HighlightEndOffset != tc.hl {
				t.Errorf("snippet %q line %d highlight %d-%d, want %q line %d highlight %d-%d",
					s.Code, s.StartLine, s.HighlightStartOffset, s.HighlightEndOffset, tc.code, tc.startLine, tc.highlightStart, tc.hl)
			}
			gotContext := ""
			if s.Context != nil {
				gotContext = *s.Context
			}
			if tc.context != "" && gotContext != tc.context {
				t.Errorf("context %q, want %q", gotContext, tc.context)
			}
			if s.Values == nil {
				t.Error("values must be an empty list, not null")
			}
		})
	}
}

func TestWithoutSourceThereIsNoSnippet(t *testing.T) {
	d := NewDiagnosticJSON(diags.Diagnostic{Severity: diags.Warning, Summary: "w", Subject: rangeOf(0, 8)}, nil)
	if d.Range == nil || d.Snippet != nil || d.Severity != "warning" {
		t.Errorf("got %+v", d)
	}
	d = NewDiagnosticJSON(diags.Diagnostic{Severity: diags.Error, Summary: "e", Address: "a.b"}, nil)
	if d.Range != nil || d.Address != "a.b" {
		t.Errorf("got %+v", d)
	}
}

func TestExpressionValues(t *testing.T) {
	expr, d := hclsyntax.ParseExpression([]byte(`"${var.name}-${var.size}-${var.secret}-${var.later}-${var.tags.x}-${var.tags.missing.deeper}"`), "x.tf", hcl.InitialPos)
	if d.HasErrors() {
		t.Fatal(d)
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{
		"name":   cty.StringVal("web"),
		"size":   cty.NumberIntVal(3),
		"secret": cty.StringVal("hunter2").Mark(marks.Sensitive),
		"later":  cty.UnknownVal(cty.String),
		"tags":   cty.MapVal(map[string]cty.Value{"x": cty.StringVal("y")}),
	})}}
	got := expressionValues(diags.Diagnostic{Expression: expr, EvalContext: ctx})
	want := []ExpressionValueJSON{
		{"var.later", "is a string"},
		{"var.name", `is "web"`},
		{"var.size", "is 3"},
		{"var.tags", "is map of string with 1 element"},
		{"var.tags.x", `is "y"`},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("value %d: got %v, want %v", i, got[i], want[i])
		}
	}
}
