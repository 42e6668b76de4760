package pulumi

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestAlignTo(t *testing.T) {
	str := cty.UnknownVal(cty.String)
	cases := []struct {
		name              string
		answer, reference cty.Value
		want              cty.Value
	}{
		{"unknown Any takes the configured type", cty.DynamicVal, str, str},
		{"unknown refined by the configuration", cty.UnknownVal(cty.String), cty.UnknownVal(cty.String).RefineNotNull(), cty.UnknownVal(cty.String).RefineNotNull()},
		{"list of Any unknowns", cty.ListVal([]cty.Value{cty.DynamicVal}), cty.ListVal([]cty.Value{str}), cty.ListVal([]cty.Value{str})},
		{"collapsed set of unknowns", cty.UnknownVal(cty.Set(cty.String)), cty.SetVal([]cty.Value{str}), cty.SetVal([]cty.Value{str})},
		{"tuple answered for a list", cty.TupleVal([]cty.Value{cty.StringVal("a")}), cty.ListVal([]cty.Value{cty.StringVal("a")}), cty.ListVal([]cty.Value{cty.StringVal("a")})},
		{"number answered for a string", cty.NumberIntVal(5), cty.StringVal("5"), cty.StringVal("5")},
		{"empty map for null", cty.MapValEmpty(cty.String), cty.NullVal(cty.Map(cty.String)), cty.NullVal(cty.Map(cty.String))},
		{"a real difference stays", cty.StringVal("b"), cty.StringVal("a"), cty.StringVal("b")},
		{"unknown where the configuration is known stays", str, cty.StringVal("a"), str},
		{"an empty string is a value, not null", cty.StringVal(""), cty.NullVal(cty.String), cty.StringVal("")},
		{
			"objects align attribute by attribute",
			cty.ObjectVal(map[string]cty.Value{"echo": cty.DynamicVal, "name": cty.StringVal("n"), "id": cty.StringVal("x")}),
			cty.ObjectVal(map[string]cty.Value{"echo": str, "name": cty.StringVal("n"), "id": cty.NullVal(cty.String)}),
			cty.ObjectVal(map[string]cty.Value{"echo": str, "name": cty.StringVal("n"), "id": cty.StringVal("x")}),
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := alignTo(c.answer, c.reference); !got.RawEquals(c.want) {
				t.Errorf("alignTo(%#v, %#v) = %#v, want %#v", c.answer, c.reference, got, c.want)
			}
		})
	}
}
