package genconfig

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

func opt(ty cty.Type) *schema.Attribute { return &schema.Attribute{Type: ty, Optional: true} }

func TestBlockPerAttributeKind(t *testing.T) {
	cases := []struct {
		name  string
		attr  *schema.Attribute
		value cty.Value
		want  string // the attribute's line; empty when it is left out
	}{
		{"required string", &schema.Attribute{Type: cty.String, Required: true}, cty.StringVal("a"), `  x = "a"` + "\n"},
		{"optional null", opt(cty.String), cty.NullVal(cty.String), "  x = null\n"},
		{"optional number", opt(cty.Number), cty.NumberIntVal(3), "  x = 3\n"},
		{"optional and computed bool", &schema.Attribute{Type: cty.Bool, Optional: true, Computed: true}, cty.True, "  x = true\n"},
		{"computed only", &schema.Attribute{Type: cty.String, Computed: true}, cty.StringVal("server-side"), ""},
		{"sensitive", &schema.Attribute{Type: cty.String, Optional: true, Sensitive: true}, cty.StringVal("hunter2"), "  x = null # sensitive\n"},
		{"write-only", &schema.Attribute{Type: cty.String, Optional: true, WriteOnly: true}, cty.NullVal(cty.String), "  x = null # sensitive\n"},
		{"list", opt(cty.List(cty.String)), cty.ListVal([]cty.Value{cty.StringVal("p"), cty.StringVal("q")}), `  x = ["p", "q"]` + "\n"},
		{"set", opt(cty.Set(cty.Number)), cty.SetVal([]cty.Value{cty.NumberIntVal(1)}), "  x = [1]\n"},
		{"map", opt(cty.Map(cty.String)), cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod")}), "  x = {\n    env = \"prod\"\n  }\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			block := &schema.Block{Attributes: map[string]*schema.Attribute{"x": tc.attr}}
			got := string(Block(Resource{Type: "tpf_thing", Name: "g", ImportID: "i-1", Schema: block,
				Value: cty.ObjectVal(map[string]cty.Value{"x": tc.value})}))
			want := "# __generated__ by Terrane from \"i-1\"\nresource \"tpf_thing\" \"g\" {\n" + tc.want + "}\n"
			if got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestBlockNestedBlocks(t *testing.T) {
	inner := schema.Block{Attributes: map[string]*schema.Attribute{"port": opt(cty.Number), "id": {Type: cty.String, Computed: true}}}
	block := &schema.Block{BlockTypes: map[string]*schema.NestedBlock{
		"listener": {Nesting: schema.NestingList, Block: inner},
		"named":    {Nesting: schema.NestingMap, Block: inner},
		"timeouts": {Nesting: schema.NestingSingle, Block: schema.Block{Attributes: map[string]*schema.Attribute{"create": opt(cty.String)}}},
	}}
	ty := block.ImpliedType()
	element := func(port int64) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port), "id": cty.StringVal("x")})
	}
	value := cty.ObjectVal(map[string]cty.Value{
		"listener": cty.ListVal([]cty.Value{element(80), element(443)}),
		"named":    cty.MapVal(map[string]cty.Value{"admin": element(8080)}),
		"timeouts": cty.NullVal(ty.AttributeType("timeouts")),
	})
	got := string(Block(Resource{Type: "tpf_thing", Name: "g", ImportID: "i-1", Schema: block, Value: value}))
	want := `# __generated__ by Terrane from "i-1"
resource "tpf_thing" "g" {
  listener {
    port = 80
  }
  listener {
    port = 443
  }
  named "admin" {
    port = 8080
  }
}
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestFileStartsWithTheHeader(t *testing.T) {
	block := &schema.Block{Attributes: map[string]*schema.Attribute{"name": {Type: cty.String, Required: true}}}
	got := string(File([]Resource{{Type: "tpf_thing", Name: "g", ImportID: "i-1", Schema: block, Value: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a")})}}))
	want := Header + "\n# __generated__ by Terrane from \"i-1\"\nresource \"tpf_thing\" \"g\" {\n  name = \"a\"\n}\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
