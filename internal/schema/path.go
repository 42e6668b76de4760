package schema

import (
	"github.com/zclconf/go-cty/cty"
)

// AttributeByPath finds the attribute schema a path into a value of the
// block leads to, or nil if the path ends at a block, a nested object or
// nothing at all. Index steps into nested blocks and nested attribute
// collections are passed over, whatever their key: every element has the
// same schema.
func (b *Block) AttributeByPath(path cty.Path) *Attribute {
	block := b
	for i := 0; i < len(path); i++ {
		step, isAttr := path[i].(cty.GetAttrStep)
		if !isAttr {
			// An index into a nested block collection: the element has the
			// block's schema.
			continue
		}
		if block == nil {
			return nil
		}
		if attr := block.Attributes[step.Name]; attr != nil {
			return attr.attributeByPath(path[i+1:])
		}
		nested := block.BlockTypes[step.Name]
		if nested == nil {
			return nil
		}
		block = &nested.Block
	}
	return nil
}

// attributeByPath follows the rest of a path from the attribute itself.
func (a *Attribute) attributeByPath(rest cty.Path) *Attribute {
	if len(rest) == 0 {
		return a
	}
	if a.NestedType == nil {
		// The path goes into a plain attribute's value, such as an element
		// of a list(string): no attribute schema describes that part alone.
		return nil
	}
	return a.NestedType.AttributeByPath(rest)
}

// AttributeByPath finds the attribute schema a path into a value of the
// nested attribute type leads to, or nil if there is none.
func (o *Object) AttributeByPath(path cty.Path) *Attribute {
	for i, step := range path {
		if attrStep, isAttr := step.(cty.GetAttrStep); isAttr {
			attr := o.Attributes[attrStep.Name]
			if attr == nil {
				return nil
			}
			return attr.attributeByPath(path[i+1:])
		}
	}
	return nil
}
