package schema

import (
	"github.com/hashicorp/hcl/v2/hcldec"
)

// mapBlockLabels names the one label of a block in a NestingMap block type,
// whose value is the block's key in the map.
var mapBlockLabels = []string{"key"}

// DecoderSpec is the hcldec spec that decodes a configuration body written
// against the block into a value of ImpliedType (up to nested attribute
// types' optional attributes, which decode as null when omitted). hcldec
// enforces what the schema says about presence: required attributes, and
// the minimum and maximum number of nested blocks.
//
// Attributes have no defaults here: an omitted optional attribute is null
// and the provider decides. The one default is a NestingGroup block type's:
// absent, it decodes as the block's EmptyValue, an object whose attributes
// are all null, which hcldec can only express as a DefaultSpec.
func (b *Block) DecoderSpec() hcldec.Spec {
	if b == nil {
		return hcldec.ObjectSpec{}
	}
	return derivedOf(b).decoderSpec(b)
}

func (b *Block) decoderSpec() hcldec.Spec {
	spec := make(hcldec.ObjectSpec, len(b.Attributes)+len(b.BlockTypes))
	for name, attr := range b.Attributes {
		if attr == nil {
			continue
		}
		spec[name] = &hcldec.AttrSpec{
			Name:     name,
			Type:     attr.specType(),
			Required: attr.Required,
		}
	}
	for name, nested := range b.BlockTypes {
		if _, clash := spec[name]; clash || nested == nil || !nested.Nesting.valid() {
			// An attribute and a block type may not share a name; the
			// attribute wins, as in ImpliedType. InternalValidate reports it.
			continue
		}
		spec[name] = nested.decoderSpec(name)
	}
	return spec
}

func (b *NestedBlock) decoderSpec(typeName string) hcldec.Spec {
	content := b.Block.decoderSpec()
	switch b.Nesting {
	case NestingSingle:
		return &hcldec.BlockSpec{TypeName: typeName, Nested: content, Required: b.MinItems >= 1}
	case NestingGroup:
		return &hcldec.DefaultSpec{
			Primary: &hcldec.BlockSpec{TypeName: typeName, Nested: content, Required: b.MinItems >= 1},
			Default: &hcldec.LiteralSpec{Value: b.Block.EmptyValue()},
		}
	case NestingList:
		// A list's elements must share one type; with dynamically-typed
		// attributes inside, each block may differ, so they decode as a tuple.
		if b.Block.specType().HasDynamicTypes() {
			return &hcldec.BlockTupleSpec{TypeName: typeName, Nested: content, MinItems: b.MinItems, MaxItems: b.MaxItems}
		}
		return &hcldec.BlockListSpec{TypeName: typeName, Nested: content, MinItems: b.MinItems, MaxItems: b.MaxItems}
	case NestingSet:
		return &hcldec.BlockSetSpec{TypeName: typeName, Nested: content, MinItems: b.MinItems, MaxItems: b.MaxItems}
	default: // NestingMap: decoderSpec's caller has excluded invalid modes.
		if b.Block.specType().HasDynamicTypes() {
			return &hcldec.BlockObjectSpec{TypeName: typeName, Nested: content, LabelNames: mapBlockLabels}
		}
		return &hcldec.BlockMapSpec{TypeName: typeName, Nested: content, LabelNames: mapBlockLabels}
	}
}
