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
//
// A Block is immutable once built: its implied type and decoder spec are
// computed once and remembered, so changing a Block after using it would
// leave them describing the old schema. Derive a new Block instead (as
// NoneRequired does).
type Block struct {
	Attributes      map[string]*Attribute
	BlockTypes      map[string]*NestedBlock
	Description     string
	DescriptionKind StringKind
	Deprecated      bool
	// DeprecationMessage says why the block is deprecated and what to use
	// instead, when the provider says (protocol 5.10 and 6.10).
	DeprecationMessage string
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
	// DeprecationMessage says why the attribute is deprecated and what to
	// use instead, when the provider says (protocol 5.10 and 6.10).
	DeprecationMessage string
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
