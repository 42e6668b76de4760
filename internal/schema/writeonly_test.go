package schema

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

var writeOnlySchema = &Block{
	Attributes: map[string]*Attribute{
		"name":        {Type: cty.String, Required: true},
		"password_wo": {Type: cty.String, Optional: true, WriteOnly: true},
		"nested": {NestedType: &Object{Nesting: NestingList, Attributes: map[string]*Attribute{
			"key_wo": {Type: cty.String, Optional: true, WriteOnly: true},
			"label":  {Type: cty.String, Optional: true},
		}}},
	},
	BlockTypes: map[string]*NestedBlock{
		"rule": {Nesting: NestingList, Block: Block{Attributes: map[string]*Attribute{
			"token_wo": {Type: cty.Map(cty.String), Optional: true, WriteOnly: true},
			"action":   {Type: cty.String, Optional: true},
		}}},
	},
}

func TestWriteOnlyAt(t *testing.T) {
	tests := map[string]struct {
		path cty.Path
		want bool
	}{
		"plain":                 {cty.GetAttrPath("name"), false},
		"write-only":            {cty.GetAttrPath("password_wo"), true},
		"nested attribute":      {cty.GetAttrPath("nested").IndexInt(0).GetAttr("key_wo"), true},
		"nested plain":          {cty.GetAttrPath("nested").IndexInt(0).GetAttr("label"), false},
		"inside a block":        {cty.GetAttrPath("rule").IndexInt(1).GetAttr("token_wo"), true},
		"inside its value":      {cty.GetAttrPath("rule").IndexInt(1).GetAttr("token_wo").IndexString("k"), true},
		"block plain attribute": {cty.GetAttrPath("rule").IndexInt(1).GetAttr("action"), false},
		"unknown attribute":     {cty.GetAttrPath("nothing"), false},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			if got := writeOnlySchema.WriteOnlyAt(test.path); got != test.want {
				t.Errorf("WriteOnlyAt = %v, want %v", got, test.want)
			}
		})
	}
}

func TestNullWriteOnly(t *testing.T) {
	val := cty.ObjectVal(map[string]cty.Value{
		"name":        cty.StringVal("n"),
		"password_wo": cty.StringVal("hunter2"),
		"nested": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"key_wo": cty.StringVal("k"), "label": cty.StringVal("l"),
		})}),
		"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"token_wo": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b")}), "action": cty.StringVal("allow"),
		})}),
	})
	want := cty.ObjectVal(map[string]cty.Value{
		"name":        cty.StringVal("n"),
		"password_wo": cty.NullVal(cty.String),
		"nested": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"key_wo": cty.NullVal(cty.String), "label": cty.StringVal("l"),
		})}),
		"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"token_wo": cty.NullVal(cty.Map(cty.String)), "action": cty.StringVal("allow"),
		})}),
	})
	if got := writeOnlySchema.NullWriteOnly(val); !got.RawEquals(want) {
		t.Errorf("NullWriteOnly:\n got %#v\nwant %#v", got, want)
	}
	plain := &Block{Attributes: map[string]*Attribute{"name": {Type: cty.String}}}
	same := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n")})
	if got := plain.NullWriteOnly(same); !got.RawEquals(same) {
		t.Errorf("a schema without write-only attributes changed the value: %#v", got)
	}
}
