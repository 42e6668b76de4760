package command

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/schema"
)

// This file places provider diagnostics, which carry attribute paths, on
// the configuration text they are about.

// placeProviderDiags gives a provider's diagnostics a place in the
// configuration: the argument or block their attribute path leads to, or
// else the whole block.
func placeProviderDiags(ds diags.Diagnostics, scope *lang.Scope, body hcl.Body, block *schema.Block, declRange hcl.Range, addr string) diags.Diagnostics {
	if len(ds) == 0 {
		return nil
	}
	expanded, _ := scope.ExpandBlock(body, block.DecoderSpec())
	out := make(diags.Diagnostics, len(ds))
	for i, d := range ds {
		if d.Subject == nil {
			if rng := attributePathRange(expanded, block, d.AttributePath); rng != nil {
				d.Subject = rng
			} else {
				d.Subject = declRange.Ptr()
			}
		}
		if d.Address == "" {
			d.Address = addr
		}
		out[i] = d
	}
	return out
}

// attributePathRange finds where in body the value at path is written:
// the expression of the argument it names, or the header of the innermost
// nested block it reaches. nil when the first step leads nowhere (the
// value came from a default, say).
func attributePathRange(body hcl.Body, block *schema.Block, path cty.Path) *hcl.Range {
	var found *hcl.Range
	for len(path) > 0 {
		step, ok := path[0].(cty.GetAttrStep)
		if !ok {
			return found
		}
		if _, isAttr := block.Attributes[step.Name]; isAttr {
			content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: step.Name}}})
			if attr := content.Attributes[step.Name]; attr != nil {
				rng := attr.Expr.Range()
				return &rng
			}
			return found
		}
		nested := block.BlockTypes[step.Name]
		if nested == nil {
			return found
		}
		chosen, rest := chooseNestedBlock(body, step.Name, nested, path[1:])
		if chosen == nil {
			return found
		}
		found = chosen.DefRange.Ptr()
		body, block, path = chosen.Body, &nested.Block, rest
	}
	return found
}

// chooseNestedBlock picks the block of type name that the index step at
// the start of rest selects (by position for lists, by label for maps),
// and returns the path after it. For sets, whose elements have no stable
// position, it picks the block only when there is one.
func chooseNestedBlock(body hcl.Body, name string, nested *schema.NestedBlock, rest cty.Path) (*hcl.Block, cty.Path) {
	header := hcl.BlockHeaderSchema{Type: name}
	if nested.Nesting == schema.NestingMap {
		header.LabelNames = []string{"key"}
	}
	content, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{header}})
	blocks := content.Blocks
	if len(blocks) == 0 {
		return nil, nil
	}
	index, indexed := cty.NilVal, false
	if len(rest) > 0 {
		if step, ok := rest[0].(cty.IndexStep); ok {
			index, indexed, rest = step.Key, true, rest[1:]
		}
	}
	if !indexed {
		// The path names the block type as a whole (a count of blocks, say):
		// the first block shows where they are written.
		return blocks[0], rest
	}
	if !index.IsKnown() || index.IsNull() {
		return nil, nil
	}
	switch {
	case nested.Nesting == schema.NestingList && index.Type() == cty.Number:
		i, accuracy := index.AsBigFloat().Int64()
		if accuracy == 0 && i >= 0 && int(i) < len(blocks) {
			return blocks[i], rest
		}
	case nested.Nesting == schema.NestingMap && index.Type() == cty.String:
		for _, b := range blocks {
			if b.Labels[0] == index.AsString() {
				return b, rest
			}
		}
	case len(blocks) == 1:
		return blocks[0], rest
	}
	return nil, nil
}

// isEmptyBody reports whether a block body sets nothing.
func isEmptyBody(body hcl.Body) bool {
	if body == nil {
		return true
	}
	_, diags := body.Content(&hcl.BodySchema{})
	return !diags.HasErrors()
}
