package objchange

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

func TestNormalizeObjectFromLegacySDK(t *testing.T) {
	sch := blockSchema()
	placeholder := inner(unkS, unkS)
	tests := map[string]struct {
		in, want cty.Value
	}{
		"null block collections become empty, a null group its empty value": {
			in: obj(map[string]cty.Value{
				"id": str("i"), "single": cty.NullVal(innerType), "group": cty.NullVal(innerType),
				"list": cty.NullVal(cty.List(innerType)), "set": cty.NullVal(cty.Set(innerType)), "map": cty.NullVal(cty.Map(innerType)),
			}),
			want: obj(map[string]cty.Value{
				"id": str("i"), "single": cty.NullVal(innerType), "group": inner(nullS, nullS),
				"list": cty.ListValEmpty(innerType), "set": cty.SetValEmpty(innerType), "map": cty.NullVal(cty.Map(innerType)),
			}),
		},
		"unknown blocks become known placeholders": {
			in: blocks(unkS, map[string]cty.Value{
				"single": cty.UnknownVal(innerType), "group": cty.UnknownVal(innerType),
				"list": cty.UnknownVal(cty.List(innerType)), "set": cty.UnknownVal(cty.Set(innerType)),
			}),
			want: blocks(unkS, map[string]cty.Value{
				"single": placeholder, "group": placeholder,
				"list": cty.ListVal([]cty.Value{placeholder}), "set": cty.SetVal([]cty.Value{placeholder}),
			}),
		},
		"well-formed values pass through": {
			in: blocks(str("i"), map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{inner(str("a"), str("u"))}),
				"map":  cty.MapVal(map[string]cty.Value{"k": inner(str("m"), nullS)}),
			}),
			want: blocks(str("i"), map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{inner(str("a"), str("u"))}),
				"map":  cty.MapVal(map[string]cty.Value{"k": inner(str("m"), nullS)}),
			}),
		},
		"a null object stays null": {
			in:   cty.NullVal(sch.ImpliedType()),
			want: cty.NullVal(sch.ImpliedType()),
		},
		"marks are kept": {
			in:   blocks(str("i").Mark("sensitive"), map[string]cty.Value{"list": cty.NullVal(cty.List(innerType))}),
			want: blocks(str("i").Mark("sensitive"), nil),
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			got := NormalizeObjectFromLegacySDK(test.in, sch)
			if !got.RawEquals(test.want) {
				t.Errorf("wrong normalised value\ngot:  %#v\nwant: %#v", got, test.want)
			}
		})
	}
}

func TestNormalizeNestedPlaceholdersAreAcceptedByCompatibility(t *testing.T) {
	// A legacy provider planning an unknown block, then returning real
	// ones, keeps the rules once its plan is normalised.
	sch := &schema.Block{BlockTypes: map[string]*schema.NestedBlock{
		"outer": {Nesting: schema.NestingList, Block: schema.Block{
			Attributes: map[string]*schema.Attribute{"name": {Type: cty.String, Optional: true}},
			BlockTypes: map[string]*schema.NestedBlock{
				"inner": {Nesting: schema.NestingSet, Block: schema.Block{Attributes: map[string]*schema.Attribute{
					"v": {Type: cty.String, Optional: true},
				}}},
			},
		}},
	}}
	innerTy := cty.Object(map[string]cty.Type{"v": cty.String})
	outerTy := cty.Object(map[string]cty.Type{"name": cty.String, "inner": cty.Set(innerTy)})
	planned := NormalizeObjectFromLegacySDK(obj(map[string]cty.Value{"outer": cty.UnknownVal(cty.List(outerTy))}), sch)
	wantPlanned := obj(map[string]cty.Value{"outer": cty.ListVal([]cty.Value{obj(map[string]cty.Value{
		"name": unkS, "inner": cty.SetVal([]cty.Value{obj(map[string]cty.Value{"v": unkS})}),
	})})})
	if !planned.RawEquals(wantPlanned) {
		t.Fatalf("wrong normalised plan\ngot:  %#v\nwant: %#v", planned, wantPlanned)
	}
	actual := obj(map[string]cty.Value{"outer": cty.ListVal([]cty.Value{
		obj(map[string]cty.Value{"name": str("a"), "inner": cty.SetValEmpty(innerTy)}),
		obj(map[string]cty.Value{"name": str("b"), "inner": cty.SetVal([]cty.Value{obj(map[string]cty.Value{"v": str("x")})})}),
	})})
	wantErrors(t, AssertObjectCompatible(sch, planned, actual))
}
