package engine

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

func TestProviderDiagnosticsPointAtTheConfiguration(t *testing.T) {
	const src = `name = "n"
rule {
  action = "allow"
}
rule {
  action = "deny"
}
settings {
  level = 3
}
`
	file, hd := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if hd.HasErrors() {
		t.Fatal(hd)
	}
	decl := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 30}}
	res := &config.Resource{Config: file.Body, DeclRange: decl}
	given := &hcl.Range{Filename: "other.tf", Start: hcl.Pos{Line: 9}}
	tests := []struct {
		name     string
		diag     diags.Diagnostic
		wantLine int
		wantFile string
	}{
		{"an argument", diags.Diagnostic{AttributePath: cty.GetAttrPath("name")}, 1, "main.tf"},
		{"an argument of the second block of a list", diags.Diagnostic{AttributePath: cty.GetAttrPath("rule").IndexInt(1).GetAttr("action")}, 6, "main.tf"},
		{"a single block's argument", diags.Diagnostic{AttributePath: cty.GetAttrPath("settings").GetAttr("level")}, 9, "main.tf"},
		{"a block", diags.Diagnostic{AttributePath: cty.GetAttrPath("settings")}, 8, "main.tf"},
		{"an attribute not written: the resource block", diags.Diagnostic{AttributePath: cty.GetAttrPath("id")}, decl.Start.Line, "main.tf"},
		{"no attribute: the resource block", diags.Diagnostic{}, decl.Start.Line, "main.tf"},
		{"a range already given", diags.Diagnostic{Subject: given, AttributePath: cty.GetAttrPath("name")}, 9, "other.tf"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			got := withResourceSource(diags.Diagnostics{test.diag}, res)[0].Subject
			if got == nil || got.Filename != test.wantFile || got.Start.Line != test.wantLine {
				t.Errorf("subject %v, want %s line %d", got, test.wantFile, test.wantLine)
			}
		})
	}
}
