package schema

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// decodeHCL decodes configuration source written against b the way the
// engine does: parse, then hcldec with b's decoder spec.
func decodeHCL(t *testing.T, b *Block, src string) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	file, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("test configuration does not parse: %s", diags.Error())
	}
	return hcldec.Decode(file.Body, b.DecoderSpec(), nil)
}

func plainObj(name string, size cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "size": size})
}

func TestDecoderSpecDecodesEveryNestingMode(t *testing.T) {
	limited := map[string]*NestedBlock{
		"one":   {Nesting: NestingSingle, Block: blockOf(plainContent), MinItems: 1, MaxItems: 1},
		"group": {Nesting: NestingGroup, Block: blockOf(plainContent)},
		"list":  {Nesting: NestingList, Block: blockOf(plainContent), MinItems: 1, MaxItems: 2},
		"set":   {Nesting: NestingSet, Block: blockOf(plainContent), MaxItems: 2},
		"map":   {Nesting: NestingMap, Block: blockOf(plainContent)},
		"opt":   {Nesting: NestingSingle, Block: blockOf(plainContent)},
		"dlist": {Nesting: NestingList, Block: blockOf(dynamicContent)},
		"dmap":  {Nesting: NestingMap, Block: blockOf(dynamicContent)},
	}
	b := &Block{
		Attributes: map[string]*Attribute{
			"id":   computedAttr(cty.String),
			"tags": optionalAttr(cty.Map(cty.String)),
			"rule": nestedAttr(NestingList, map[string]*Attribute{
				"port": requiredAttr(cty.Number), "proto": optionalAttr(cty.String),
			}),
		},
		BlockTypes: limited,
	}
	got, diags := decodeHCL(t, b, `
tags = { env = "prod" }
rule = [{ port = 22 }, { port = 443, proto = "tcp" }]
one { name = "a" }
list { name = "l1" }
list {
  name = "l2"
  size = 2
}
set { name = "s" }
map "k1" { name = "m" }
dlist { value = "text" }
dlist { value = 5 }
dmap "x" { value = true }
`)
	if diags.HasErrors() {
		t.Fatalf("unexpected diagnostics: %s", diags.Error())
	}
	null := cty.NullVal(cty.Number)
	want := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.NullVal(cty.String),
		"tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod")}),
		"rule": cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(22), "proto": cty.NullVal(cty.String)}),
			cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(443), "proto": cty.StringVal("tcp")}),
		}),
		"one":   plainObj("a", null),
		"group": cty.ObjectVal(map[string]cty.Value{"name": cty.NullVal(cty.String), "size": null}),
		"list":  cty.ListVal([]cty.Value{plainObj("l1", null), plainObj("l2", cty.NumberIntVal(2))}),
		"set":   cty.SetVal([]cty.Value{plainObj("s", null)}),
		"map":   cty.MapVal(map[string]cty.Value{"k1": plainObj("m", null)}),
		"opt":   cty.NullVal(plainType),
		"dlist": cty.TupleVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"value": cty.StringVal("text")}),
			cty.ObjectVal(map[string]cty.Value{"value": cty.NumberIntVal(5)}),
		}),
		"dmap": cty.ObjectVal(map[string]cty.Value{"x": cty.ObjectVal(map[string]cty.Value{"value": cty.True})}),
	})
	if !got.RawEquals(want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
	if errs := got.Type().TestConformance(b.ImpliedType()); errs != nil {
		t.Errorf("decoded value does not conform to the implied type: %v", errs)
	}
}

func TestDecoderSpecGroupBlockPresent(t *testing.T) {
	b := &Block{BlockTypes: map[string]*NestedBlock{"g": {Nesting: NestingGroup, Block: blockOf(plainContent)}}}
	got, diags := decodeHCL(t, b, `g { name = "x" }`)
	want := cty.ObjectVal(map[string]cty.Value{"g": plainObj("x", cty.NullVal(cty.Number))})
	if diags.HasErrors() || !got.RawEquals(want) {
		t.Errorf("got %#v, %s", got, diags.Error())
	}
}

// TestDecoderSpecDiagnostics checks that what the schema requires is
// enforced with a diagnostic at the right place.
func TestDecoderSpecDiagnostics(t *testing.T) {
	b := &Block{
		Attributes: map[string]*Attribute{"name": requiredAttr(cty.String), "count": optionalAttr(cty.Number)},
		BlockTypes: map[string]*NestedBlock{
			"one":  {Nesting: NestingSingle, Block: blockOf(plainContent), MinItems: 1, MaxItems: 1},
			"list": {Nesting: NestingList, Block: blockOf(plainContent), MinItems: 1, MaxItems: 2},
			"set":  {Nesting: NestingSet, Block: blockOf(plainContent), MinItems: 1, MaxItems: 1},
			"map":  {Nesting: NestingMap, Block: blockOf(plainContent)},
		},
	}
	valid := "name = \"n\"\none { name = \"a\" }\nlist { name = \"b\" }\nset { name = \"c\" }\n"
	tests := []struct {
		name        string
		src         string
		wantSummary string
		wantLine    int
	}{
		{"missing required attribute", "one { name = \"a\" }\nlist { name = \"b\" }\nset { name = \"c\" }\n", "Missing required argument", 0},
		{"missing required attribute in a block", "name = \"n\"\none {}\nlist { name = \"b\" }\nset { name = \"c\" }\n", "Missing required argument", 2},
		{"missing required single block", "name = \"n\"\nlist { name = \"b\" }\nset { name = \"c\" }\n", "Missing one block", 0},
		{"too few list blocks", "name = \"n\"\none { name = \"a\" }\nset { name = \"c\" }\n", "Insufficient list blocks", 0},
		{"too many list blocks", valid + "list { name = \"x\" }\nlist { name = \"y\" }\n", "Too many list blocks", 6},
		{"too many set blocks", valid + "set { name = \"x\" }\n", "Too many set blocks", 5},
		{"duplicate single block", valid + "one { name = \"again\" }\n", "Duplicate one block", 5},
		{"map block without its key", valid + "map { name = \"x\" }\n", "Missing key for map", 5},
		{"unknown attribute", valid + "nmae = \"x\"\n", "Unsupported argument", 5},
		{"unknown block type", valid + "lst { name = \"x\" }\n", "Unsupported block type", 5},
		{"wrong attribute type", valid + "count = \"many\"\n", "Incorrect attribute value type", 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := decodeHCL(t, b, tc.src)
			if !diags.HasErrors() {
				t.Fatal("no error diagnostics")
			}
			var found *hcl.Diagnostic
			for _, d := range diags {
				if strings.Contains(d.Summary, tc.wantSummary) {
					found = d
				}
			}
			if found == nil {
				t.Fatalf("no diagnostic %q among %s", tc.wantSummary, diags.Error())
			}
			if found.Subject == nil || found.Subject.Filename != "main.tf" {
				t.Fatalf("diagnostic %q has no source range in main.tf", found.Summary)
			}
			if tc.wantLine > 0 && found.Subject.Start.Line != tc.wantLine {
				t.Errorf("diagnostic at line %d, want %d", found.Subject.Start.Line, tc.wantLine)
			}
		})
	}
	if _, diags := decodeHCL(t, b, valid); diags.HasErrors() {
		t.Errorf("the valid configuration gave %s", diags.Error())
	}
}

func TestDecoderSpecNoneRequiredAcceptsPartialConfig(t *testing.T) {
	b := &Block{
		Attributes: map[string]*Attribute{"name": requiredAttr(cty.String)},
		BlockTypes: map[string]*NestedBlock{"list": {Nesting: NestingList, Block: blockOf(plainContent), MinItems: 1, MaxItems: 1}},
	}
	relaxed := b.NoneRequired()
	got, diags := decodeHCL(t, relaxed, "list {}\nlist {}\n")
	if diags.HasErrors() {
		t.Fatalf("NoneRequired still requires: %s", diags.Error())
	}
	if got.GetAttr("list").LengthInt() != 2 || !got.GetAttr("name").IsNull() {
		t.Errorf("got %#v", got)
	}
	if _, diags := decodeHCL(t, b, "list {}\nlist {}\n"); !diags.HasErrors() {
		t.Error("NoneRequired changed the original block")
	}
	if !b.Attributes["name"].Required || b.BlockTypes["list"].MinItems != 1 {
		t.Error("NoneRequired modified the original schema")
	}
	if !relaxed.ImpliedType().Equals(b.ImpliedType()) {
		t.Error("NoneRequired changed the implied type")
	}
}
