package objchange

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// TestPlannedDataResourceObjectNesting: whatever the nesting, a data
// source read at apply plans what the configuration sets as configured and
// every computed value it leaves null unknown.
func TestPlannedDataResourceObjectNesting(t *testing.T) {
	inner := map[string]*schema.Attribute{
		"key":   {Type: cty.String, Required: true},
		"value": {Type: cty.String, Computed: true},
	}
	elem := func(key string, value cty.Value) cty.Value {
		return obj(map[string]cty.Value{"key": str(key), "value": value})
	}
	elemType := cty.Object(map[string]cty.Type{"key": cty.String, "value": cty.String})
	for _, tc := range []struct {
		name         string
		sch          *schema.Block
		config, want cty.Value
	}{
		{
			name: "set block",
			sch: &schema.Block{BlockTypes: map[string]*schema.NestedBlock{
				"tag": {Nesting: schema.NestingSet, Block: schema.Block{Attributes: inner}},
			}},
			config: obj(map[string]cty.Value{"tag": cty.SetVal([]cty.Value{elem("a", nullS), elem("b", nullS)})}),
			want:   obj(map[string]cty.Value{"tag": cty.SetVal([]cty.Value{elem("a", unkS), elem("b", unkS)})}),
		},
		{
			name: "map block",
			sch: &schema.Block{BlockTypes: map[string]*schema.NestedBlock{
				"tag": {Nesting: schema.NestingMap, Block: schema.Block{Attributes: inner}},
			}},
			config: obj(map[string]cty.Value{"tag": cty.MapVal(map[string]cty.Value{"x": elem("a", nullS)})}),
			want:   obj(map[string]cty.Value{"tag": cty.MapVal(map[string]cty.Value{"x": elem("a", unkS)})}),
		},
		{
			name: "list nested attribute",
			sch: &schema.Block{Attributes: map[string]*schema.Attribute{
				"items": {Optional: true, NestedType: &schema.Object{Nesting: schema.NestingList, Attributes: inner}},
			}},
			config: obj(map[string]cty.Value{"items": cty.ListVal([]cty.Value{elem("a", nullS)})}),
			want:   obj(map[string]cty.Value{"items": cty.ListVal([]cty.Value{elem("a", unkS)})}),
		},
		{
			name: "computed nested attribute",
			sch: &schema.Block{Attributes: map[string]*schema.Attribute{
				"filter":  {Type: cty.String, Required: true},
				"results": {Computed: true, NestedType: &schema.Object{Nesting: schema.NestingList, Attributes: inner}},
			}},
			config: obj(map[string]cty.Value{"filter": str("f"), "results": cty.NullVal(cty.List(elemType))}),
			want:   obj(map[string]cty.Value{"filter": str("f"), "results": cty.UnknownVal(cty.List(elemType))}),
		},
		{
			name: "optional computed left null, set and unknown",
			sch: &schema.Block{Attributes: map[string]*schema.Attribute{
				"a": {Type: cty.String, Optional: true, Computed: true},
				"b": {Type: cty.String, Optional: true, Computed: true},
				"c": {Type: cty.String, Optional: true, Computed: true},
			}},
			config: obj(map[string]cty.Value{"a": nullS, "b": str("set"), "c": unkS}),
			want:   obj(map[string]cty.Value{"a": unkS, "b": str("set"), "c": unkS}),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := PlannedDataResourceObject(tc.sch, tc.config)
			if !got.RawEquals(tc.want) {
				t.Errorf("planned\n%#v\nwant\n%#v", got, tc.want)
			}
		})
	}
}
