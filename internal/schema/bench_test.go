package schema

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// wideSchema resembles a large cloud resource: many attributes and a few
// levels of nested blocks.
func wideSchema() *Block {
	attrs := make(map[string]*Attribute, 60)
	for i := range 60 {
		attrs[fmt.Sprintf("attr_%d", i)] = optionalAttr(cty.String)
	}
	inner := Block{Attributes: attrs}
	return &Block{
		Attributes: attrs,
		BlockTypes: map[string]*NestedBlock{
			"a": {Nesting: NestingList, Block: Block{Attributes: attrs, BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingSet, Block: inner}}}},
			"c": {Nesting: NestingSingle, Block: inner},
		},
	}
}

func BenchmarkImpliedType(b *testing.B) {
	schema := wideSchema()
	b.Run("remembered", func(b *testing.B) {
		for b.Loop() {
			_ = schema.ImpliedType()
		}
	})
	b.Run("computed", func(b *testing.B) {
		for b.Loop() {
			_ = schema.specType().WithoutOptionalAttributesDeep()
		}
	})
}
