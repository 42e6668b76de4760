package schema

import (
	"github.com/zclconf/go-cty/cty"
)

// WriteOnlyAt reports whether path into a value of the block lies within
// a write-only attribute: the attribute itself, or anything inside its
// value.
func (b *Block) WriteOnlyAt(path cty.Path) bool {
	block := b
	for i := 0; i < len(path); i++ {
		step, isAttr := path[i].(cty.GetAttrStep)
		if !isAttr {
			continue // an index into a nested block collection
		}
		if block == nil {
			return false
		}
		if attr := block.Attributes[step.Name]; attr != nil {
			return attr.writeOnlyAt(path[i+1:])
		}
		nested := block.BlockTypes[step.Name]
		if nested == nil {
			return false
		}
		block = &nested.Block
	}
	return false
}

func (a *Attribute) writeOnlyAt(rest cty.Path) bool {
	if a.WriteOnly {
		return true
	}
	if a.NestedType == nil {
		return false
	}
	for i, step := range rest {
		if attrStep, isAttr := step.(cty.GetAttrStep); isAttr {
			inner := a.NestedType.Attributes[attrStep.Name]
			return inner != nil && inner.writeOnlyAt(rest[i+1:])
		}
	}
	return false
}

// ContainsWriteOnly reports whether the block has a write-only attribute
// anywhere, so callers can skip the work of nulling them.
func (b *Block) ContainsWriteOnly() bool {
	for _, attr := range b.Attributes {
		if attr.containsWriteOnly() {
			return true
		}
	}
	for _, nested := range b.BlockTypes {
		if nested.Block.ContainsWriteOnly() {
			return true
		}
	}
	return false
}

func (a *Attribute) containsWriteOnly() bool {
	if a.WriteOnly {
		return true
	}
	if a.NestedType == nil {
		return false
	}
	for _, inner := range a.NestedType.Attributes {
		if inner.containsWriteOnly() {
			return true
		}
	}
	return false
}

// NullWriteOnly returns val, an unmarked value of the block's type, with
// every write-only attribute set to null. A write-only value is sent to
// the provider and never kept: plans and state hold null in its place,
// whatever a provider answered.
func (b *Block) NullWriteOnly(val cty.Value) cty.Value {
	if !b.ContainsWriteOnly() || val.IsNull() || !val.IsKnown() {
		return val
	}
	out, err := cty.Transform(val, func(path cty.Path, v cty.Value) (cty.Value, error) {
		if len(path) > 0 && !v.IsNull() && b.writeOnlyAttributeAt(path) {
			return cty.NullVal(v.Type()), nil
		}
		return v, nil
	})
	if err != nil {
		return val // Transform fails only when the callback does
	}
	return out
}

// writeOnlyAttributeAt reports whether path names a write-only attribute
// itself (not a value inside one, which nulling the attribute covers).
func (b *Block) writeOnlyAttributeAt(path cty.Path) bool {
	if _, isAttr := path[len(path)-1].(cty.GetAttrStep); !isAttr {
		return false
	}
	return b.WriteOnlyAt(path)
}
