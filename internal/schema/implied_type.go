package schema

import (
	"github.com/zclconf/go-cty/cty"
)

// ImpliedType is the object type of values that conform to the block: what
// configuration decodes to and what the provider sends and receives.
//
// Optional attributes of nested attribute types are optional only in the
// decoder's type (so configuration may leave them out); values themselves
// always have every attribute, so the implied type has no optional
// attributes anywhere.
func (b *Block) ImpliedType() cty.Type {
	if b == nil {
		return cty.EmptyObject
	}
	return derivedOf(b).impliedType(b)
}

// specType is the type the block's decoder spec decodes configuration as;
// it differs from ImpliedType only in nested attribute types' optional
// attributes.
func (b *Block) specType() cty.Type {
	if b == nil {
		return cty.EmptyObject
	}
	attrTypes := make(map[string]cty.Type, len(b.Attributes)+len(b.BlockTypes))
	for name, attr := range b.Attributes {
		if attr != nil {
			attrTypes[name] = attr.specType()
		}
	}
	for name, nested := range b.BlockTypes {
		if _, clash := attrTypes[name]; clash || nested == nil || !nested.Nesting.valid() {
			// Attributes win a name clash, as in DecoderSpec; InternalValidate
			// reports both problems.
			continue
		}
		attrTypes[name] = nested.specType()
	}
	return cty.Object(attrTypes)
}

// ImpliedType is the type of the attribute's values.
func (a *Attribute) ImpliedType() cty.Type {
	return a.specType().WithoutOptionalAttributesDeep()
}

func (a *Attribute) specType() cty.Type {
	switch {
	case a.NestedType != nil:
		return a.NestedType.specType()
	case a.Type == cty.NilType:
		// A schema that gives an attribute no type is invalid
		// (InternalValidate says so); any value is better than a panic.
		return cty.DynamicPseudoType
	default:
		return a.Type
	}
}

// ImpliedType is the type of values of a nested attribute type.
func (o *Object) ImpliedType() cty.Type {
	return o.specType().WithoutOptionalAttributesDeep()
}

// specType is the nested attribute type as configuration is decoded into
// it: attributes that are optional or computed are optional attributes of
// the object type, so configuration may omit them and they become null.
// Unlike nested blocks, a list or map of nested objects stays a list or map
// even with dynamically-typed attributes inside: the elements must then
// agree on one type, which conversion to the list or map enforces.
func (o *Object) specType() cty.Type {
	if o == nil {
		return cty.EmptyObject
	}
	attrTypes := make(map[string]cty.Type, len(o.Attributes))
	var optional []string
	for name, attr := range o.Attributes {
		if attr == nil {
			continue
		}
		attrTypes[name] = attr.specType()
		if attr.Optional || attr.Computed {
			optional = append(optional, name)
		}
	}
	elem := cty.ObjectWithOptionalAttrs(attrTypes, optional)
	switch o.Nesting {
	case NestingSingle, NestingGroup:
		return elem
	case NestingList:
		return cty.List(elem)
	case NestingSet:
		return cty.Set(elem)
	case NestingMap:
		return cty.Map(elem)
	default:
		return cty.DynamicPseudoType
	}
}

// ImpliedType is the type of the nested block's value in its parent object.
// A list or map of blocks whose content has a dynamically-typed attribute
// cannot be a cty list or map (elements may differ in type), so its type is
// DynamicPseudoType and its values are tuples or objects, which the wire
// encodes the same way.
func (b *NestedBlock) ImpliedType() cty.Type {
	return b.specType().WithoutOptionalAttributesDeep()
}

func (b *NestedBlock) specType() cty.Type {
	elem := b.Block.specType()
	switch b.Nesting {
	case NestingSingle, NestingGroup:
		return elem
	case NestingList:
		if elem.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.List(elem)
	case NestingSet:
		return cty.Set(elem)
	case NestingMap:
		if elem.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.Map(elem)
	default:
		return cty.DynamicPseudoType
	}
}

func (n Nesting) valid() bool {
	return n >= NestingSingle && n <= NestingMap
}

// EmptyValue is the value of a block written with nothing in it: every
// attribute null and every nested block type absent.
func (b *Block) EmptyValue() cty.Value {
	if b == nil {
		return cty.EmptyObjectVal
	}
	vals := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, attr := range b.Attributes {
		if attr != nil {
			vals[name] = cty.NullVal(attr.ImpliedType())
		}
	}
	for name, nested := range b.BlockTypes {
		if _, clash := vals[name]; clash || nested == nil || !nested.Nesting.valid() {
			continue
		}
		vals[name] = nested.EmptyValue()
	}
	return cty.ObjectVal(vals)
}

// EmptyValue is the value of the nested block type when configuration has
// no block of it: null for a single block, an all-null object for a group,
// and an empty collection otherwise (an empty tuple or object when the
// blocks' type is dynamic).
func (b *NestedBlock) EmptyValue() cty.Value {
	ty := b.ImpliedType()
	switch b.Nesting {
	case NestingGroup:
		return b.Block.EmptyValue()
	case NestingList:
		if ty == cty.DynamicPseudoType {
			return cty.EmptyTupleVal
		}
		return cty.ListValEmpty(ty.ElementType())
	case NestingSet:
		return cty.SetValEmpty(ty.ElementType())
	case NestingMap:
		if ty == cty.DynamicPseudoType {
			return cty.EmptyObjectVal
		}
		return cty.MapValEmpty(ty.ElementType())
	default:
		return cty.NullVal(ty)
	}
}
