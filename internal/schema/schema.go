package schema

import (
	"github.com/zclconf/go-cty/cty"
)

// Nesting is how a nested block or a nested attribute type repeats.
type Nesting int

const (
	NestingInvalid Nesting = iota
	// NestingSingle is at most one object; absent is null.
	NestingSingle
	// NestingGroup is exactly one object; absent is an object whose
	// attributes are all null (blocks only).
	NestingGroup
	// NestingList is an ordered list of objects.
	NestingList
	// NestingSet is an unordered set of objects.
	NestingSet
	// NestingMap is a map of objects keyed by the block's label.
	NestingMap
)

func (n Nesting) String() string {
	switch n {
	case NestingSingle:
		return "single"
	case NestingGroup:
		return "group"
	case NestingList:
		return "list"
	case NestingSet:
		return "set"
	case NestingMap:
		return "map"
	default:
		return "invalid"
	}
}

// StringKind says how a description is written.
type StringKind int

const (
	StringPlain StringKind = iota
	StringMarkdown
)

// Schema is a versioned block schema: a provider's configuration, a
// resource type, a data source or an ephemeral resource type.
type Schema struct {
	Version int64
	Block   *Block
}

// Block is a set of attributes and nested blocks.
type Block struct {
	Attributes      map[string]*Attribute
	BlockTypes      map[string]*NestedBlock
	Description     string
	DescriptionKind StringKind
	Deprecated      bool
}

// Attribute is one attribute of a block or of a nested attribute type.
// Exactly one of Type and NestedType is set.
type Attribute struct {
	Type       cty.Type
	NestedType *Object

	Description     string
	DescriptionKind StringKind
	Required        bool
	Optional        bool
	Computed        bool
	Sensitive       bool
	Deprecated      bool
	// WriteOnly attributes are sent to the provider but never stored.
	WriteOnly bool
}

// Object is a nested attribute type (protocol 6 only).
type Object struct {
	Attributes map[string]*Attribute
	Nesting    Nesting // Single, List, Set or Map
}

// NestedBlock is a block type nested in a block.
type NestedBlock struct {
	Block
	Nesting  Nesting
	MinItems int
	MaxItems int
}

// ImpliedType is the object type of values that conform to the block.
func (b *Block) ImpliedType() cty.Type {
	if b == nil {
		return cty.EmptyObject
	}
	attrTypes := make(map[string]cty.Type, len(b.Attributes)+len(b.BlockTypes))
	for name, attr := range b.Attributes {
		attrTypes[name] = attr.ImpliedType()
	}
	for name, nested := range b.BlockTypes {
		attrTypes[name] = nested.ImpliedType()
	}
	return cty.Object(attrTypes)
}

// ImpliedType is the type of the attribute's values.
func (a *Attribute) ImpliedType() cty.Type {
	if a.NestedType != nil {
		return a.NestedType.ImpliedType()
	}
	return a.Type
}

// ImpliedType is the type of values of a nested attribute type. Optional
// attributes of a nested object are optional in its type constraint too,
// so configuration may omit them.
func (o *Object) ImpliedType() cty.Type {
	attrTypes := make(map[string]cty.Type, len(o.Attributes))
	for name, attr := range o.Attributes {
		attrTypes[name] = attr.ImpliedType()
	}
	elem := cty.Object(attrTypes)
	switch o.Nesting {
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

// ImpliedType is the type of the nested block's value in its parent object.
// A list or map of blocks whose content has a dynamically-typed attribute
// cannot be a cty list or map (elements may differ in type), so it is a
// tuple or object, which the wire encodes the same way.
func (b *NestedBlock) ImpliedType() cty.Type {
	elem := b.Block.ImpliedType()
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
