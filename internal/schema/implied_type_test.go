package schema

import (
	"testing"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

func optionalAttr(ty cty.Type) *Attribute { return &Attribute{Type: ty, Optional: true} }
func requiredAttr(ty cty.Type) *Attribute { return &Attribute{Type: ty, Required: true} }
func computedAttr(ty cty.Type) *Attribute { return &Attribute{Type: ty, Computed: true} }

func nestedAttr(nesting Nesting, attrs map[string]*Attribute) *Attribute {
	return &Attribute{NestedType: &Object{Nesting: nesting, Attributes: attrs}, Optional: true}
}

func blockOf(attrs map[string]*Attribute) Block {
	return Block{Attributes: attrs}
}

var plainContent = map[string]*Attribute{"name": requiredAttr(cty.String), "size": optionalAttr(cty.Number)}
var plainType = cty.Object(map[string]cty.Type{"name": cty.String, "size": cty.Number})
var dynamicContent = map[string]*Attribute{"value": optionalAttr(cty.DynamicPseudoType)}

func TestImpliedType(t *testing.T) {
	nestedObj := cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number})
	nestedAttrs := map[string]*Attribute{"a": requiredAttr(cty.String), "b": computedAttr(cty.Number)}
	tests := []struct {
		name  string
		block *Block
		want  cty.Type
	}{
		{"nil block", nil, cty.EmptyObject},
		{"empty block", &Block{}, cty.EmptyObject},
		{"primitive and collection attributes", &Block{Attributes: map[string]*Attribute{
			"s": requiredAttr(cty.String), "n": optionalAttr(cty.Number), "b": computedAttr(cty.Bool),
			"l": optionalAttr(cty.List(cty.String)), "m": optionalAttr(cty.Map(cty.Number)), "st": optionalAttr(cty.Set(cty.Bool)),
			"o": optionalAttr(cty.ObjectWithOptionalAttrs(map[string]cty.Type{"x": cty.String}, []string{"x"})),
			"d": optionalAttr(cty.DynamicPseudoType),
		}}, cty.Object(map[string]cty.Type{
			"s": cty.String, "n": cty.Number, "b": cty.Bool,
			"l": cty.List(cty.String), "m": cty.Map(cty.Number), "st": cty.Set(cty.Bool),
			// Values have every attribute: optional ones exist only in
			// type constraints used for conversion.
			"o": cty.Object(map[string]cty.Type{"x": cty.String}),
			"d": cty.DynamicPseudoType,
		})},
		{"nested attribute single", &Block{Attributes: map[string]*Attribute{"x": nestedAttr(NestingSingle, nestedAttrs)}},
			cty.Object(map[string]cty.Type{"x": nestedObj})},
		{"nested attribute list", &Block{Attributes: map[string]*Attribute{"x": nestedAttr(NestingList, nestedAttrs)}},
			cty.Object(map[string]cty.Type{"x": cty.List(nestedObj)})},
		{"nested attribute set", &Block{Attributes: map[string]*Attribute{"x": nestedAttr(NestingSet, nestedAttrs)}},
			cty.Object(map[string]cty.Type{"x": cty.Set(nestedObj)})},
		{"nested attribute map", &Block{Attributes: map[string]*Attribute{"x": nestedAttr(NestingMap, nestedAttrs)}},
			cty.Object(map[string]cty.Type{"x": cty.Map(nestedObj)})},
		{"nested attribute list with dynamic stays a list", &Block{Attributes: map[string]*Attribute{"x": nestedAttr(NestingList, dynamicContent)}},
			cty.Object(map[string]cty.Type{"x": cty.List(cty.Object(map[string]cty.Type{"value": cty.DynamicPseudoType}))})},
		{"nested attribute in nested attribute", &Block{Attributes: map[string]*Attribute{
			"x": nestedAttr(NestingMap, map[string]*Attribute{"inner": nestedAttr(NestingList, nestedAttrs)}),
		}}, cty.Object(map[string]cty.Type{"x": cty.Map(cty.Object(map[string]cty.Type{"inner": cty.List(nestedObj)}))})},
		{"block single", &Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingSingle, Block: blockOf(plainContent)}}},
			cty.Object(map[string]cty.Type{"b": plainType})},
		{"block group", &Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingGroup, Block: blockOf(plainContent)}}},
			cty.Object(map[string]cty.Type{"b": plainType})},
		{"block list", &Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingList, Block: blockOf(plainContent)}}},
			cty.Object(map[string]cty.Type{"b": cty.List(plainType)})},
		{"block set", &Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingSet, Block: blockOf(plainContent)}}},
			cty.Object(map[string]cty.Type{"b": cty.Set(plainType)})},
		{"block map", &Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingMap, Block: blockOf(plainContent)}}},
			cty.Object(map[string]cty.Type{"b": cty.Map(plainType)})},
		{"block list with dynamic is dynamic", &Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingList, Block: blockOf(dynamicContent)}}},
			cty.Object(map[string]cty.Type{"b": cty.DynamicPseudoType})},
		{"block map with dynamic is dynamic", &Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingMap, Block: blockOf(dynamicContent)}}},
			cty.Object(map[string]cty.Type{"b": cty.DynamicPseudoType})},
		{"block single with dynamic", &Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingSingle, Block: blockOf(dynamicContent)}}},
			cty.Object(map[string]cty.Type{"b": cty.Object(map[string]cty.Type{"value": cty.DynamicPseudoType})})},
		{"nested attribute inside a block list", &Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingList, Block: Block{
			Attributes: map[string]*Attribute{"x": nestedAttr(NestingSingle, nestedAttrs)},
		}}}}, cty.Object(map[string]cty.Type{"b": cty.List(cty.Object(map[string]cty.Type{"x": nestedObj}))})},
		{"invalid schema parts do not panic", &Block{
			Attributes: map[string]*Attribute{"untyped": {Optional: true}, "nil": nil, "clash": optionalAttr(cty.String)},
			BlockTypes: map[string]*NestedBlock{"clash": {Nesting: NestingList}, "bad": {Nesting: NestingInvalid}, "nilblock": nil},
		}, cty.Object(map[string]cty.Type{"untyped": cty.DynamicPseudoType, "clash": cty.String})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.block.ImpliedType()
			if !got.Equals(tc.want) {
				t.Errorf("got  %#v\nwant %#v", got, tc.want)
			}
			// The decoder spec must produce values of the implied type.
			specType := hcldec.ImpliedType(tc.block.DecoderSpec()).WithoutOptionalAttributesDeep()
			if !specType.Equals(got) {
				t.Errorf("decoder spec implies %#v, ImpliedType says %#v", specType, got)
			}
		})
	}
}

func TestNestedAttributeSpecTypeHasOptionalAttributes(t *testing.T) {
	b := &Block{Attributes: map[string]*Attribute{"x": nestedAttr(NestingList, map[string]*Attribute{
		"req": requiredAttr(cty.String), "opt": optionalAttr(cty.String), "comp": computedAttr(cty.String),
	})}}
	spec := b.DecoderSpec().(hcldec.ObjectSpec)
	got := spec["x"].(*hcldec.AttrSpec).Type
	want := cty.List(cty.ObjectWithOptionalAttrs(
		map[string]cty.Type{"req": cty.String, "opt": cty.String, "comp": cty.String}, []string{"opt", "comp"}))
	if !got.Equals(want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

func TestEmptyValue(t *testing.T) {
	b := &Block{
		Attributes: map[string]*Attribute{"a": optionalAttr(cty.String), "n": nestedAttr(NestingList, plainContent)},
		BlockTypes: map[string]*NestedBlock{
			"single": {Nesting: NestingSingle, Block: blockOf(plainContent)},
			"group":  {Nesting: NestingGroup, Block: blockOf(plainContent)},
			"list":   {Nesting: NestingList, Block: blockOf(plainContent)},
			"set":    {Nesting: NestingSet, Block: blockOf(plainContent)},
			"map":    {Nesting: NestingMap, Block: blockOf(plainContent)},
			"dlist":  {Nesting: NestingList, Block: blockOf(dynamicContent)},
			"dmap":   {Nesting: NestingMap, Block: blockOf(dynamicContent)},
		},
	}
	want := cty.ObjectVal(map[string]cty.Value{
		"a":      cty.NullVal(cty.String),
		"n":      cty.NullVal(cty.List(plainType)),
		"single": cty.NullVal(plainType),
		"group":  cty.ObjectVal(map[string]cty.Value{"name": cty.NullVal(cty.String), "size": cty.NullVal(cty.Number)}),
		"list":   cty.ListValEmpty(plainType),
		"set":    cty.SetValEmpty(plainType),
		"map":    cty.MapValEmpty(plainType),
		"dlist":  cty.EmptyTupleVal,
		"dmap":   cty.EmptyObjectVal,
	})
	got := b.EmptyValue()
	if !got.RawEquals(want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
	if errs := got.Type().TestConformance(b.ImpliedType()); errs != nil {
		t.Errorf("EmptyValue does not conform to ImpliedType: %v", errs)
	}
}

func TestImpliedTypeIsRemembered(t *testing.T) {
	b := &Block{Attributes: map[string]*Attribute{"a": optionalAttr(cty.String)}}
	done := make(chan cty.Type)
	for range 4 {
		go func() { done <- b.ImpliedType() }()
	}
	for range 4 {
		if got := <-done; !got.Equals(cty.Object(map[string]cty.Type{"a": cty.String})) {
			t.Fatalf("got %#v", got)
		}
	}
	if first, second := b.DecoderSpec(), b.DecoderSpec(); first.(hcldec.ObjectSpec)["a"] != second.(hcldec.ObjectSpec)["a"] {
		t.Error("DecoderSpec was computed twice for the same block")
	}
}
