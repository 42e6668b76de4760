package diags

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func TestInConfigBodyPlacesAsOpenTofu(t *testing.T) {
	const src = `resource "tpf_blocks" "b" {
name = "n"
zones = ["a", "b"]
labels = { x = "1", y = "2" }
rule {
  action = "allow"
}
rule {
  action = "deny"
}
settings {
  level = 3
}
}
`
	file, hd := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if hd.HasErrors() {
		t.Fatal(hd)
	}
	body := file.Body.(*hclsyntax.Body).Blocks[0].Body
	// The opening of the resource's body, where OpenTofu points for
	// what the path does not lead to an argument of.
	bodyStart := func(line int) hcl.Pos { return hcl.Pos{Line: line, Column: 27, Byte: 26} }
	given := &hcl.Range{Filename: "other.tf", Start: hcl.Pos{Line: 9}}
	tests := []struct {
		name     string
		diag     Diagnostic
		wantLine int
		wantCol  int
		wantFile string
	}{
		{"an argument", Diagnostic{AttributePath: cty.GetAttrPath("name")}, 2, 8, "main.tf"},
		{"an element of a list argument", Diagnostic{AttributePath: cty.GetAttrPath("zones").IndexInt(1)}, 3, 15, "main.tf"},
		{"an element past the end of a list: the argument's name", Diagnostic{AttributePath: cty.GetAttrPath("zones").IndexInt(5)}, 3, 1, "main.tf"},
		{"an element of a map argument", Diagnostic{AttributePath: cty.GetAttrPath("labels").IndexString("y")}, 4, 26, "main.tf"},
		{"an argument of the second block of a list", Diagnostic{AttributePath: cty.GetAttrPath("rule").IndexInt(1).GetAttr("action")}, 9, 12, "main.tf"},
		{"a single block's argument", Diagnostic{AttributePath: cty.GetAttrPath("settings").GetAttr("level")}, 12, 11, "main.tf"},
		{"a single block's argument not written: the block's body", Diagnostic{AttributePath: cty.GetAttrPath("settings").GetAttr("mode")}, 11, 10, "main.tf"},
		{"a block: the resource's body", Diagnostic{AttributePath: cty.GetAttrPath("settings")}, bodyStart(1).Line, bodyStart(1).Column, "main.tf"},
		{"an attribute not written: the resource's body", Diagnostic{AttributePath: cty.GetAttrPath("id")}, bodyStart(1).Line, bodyStart(1).Column, "main.tf"},
		{"no attribute: the resource's body", Diagnostic{}, bodyStart(1).Line, bodyStart(1).Column, "main.tf"},
		{"a range already given", Diagnostic{Subject: given, AttributePath: cty.GetAttrPath("name")}, 9, 0, "other.tf"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			got := Diagnostics{test.diag}.InConfigBody(body)[0].Subject
			if got == nil || got.Filename != test.wantFile || got.Start.Line != test.wantLine || got.Start.Column != test.wantCol {
				t.Errorf("subject %v, want %s line %d column %d", got, test.wantFile, test.wantLine, test.wantCol)
			}
		})
	}
}
