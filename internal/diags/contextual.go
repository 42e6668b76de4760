package diags

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"
)

// InConfigBody gives the diagnostics that have no source range the place
// in body their attribute path leads to (see AttributeRange), as OpenTofu
// does with a provider's diagnostics about a resource or provider
// configuration (tfdiags.Diagnostics.InConfigBody). It returns a copy.
func (d Diagnostics) InConfigBody(body hcl.Body) Diagnostics {
	if len(d) == 0 || body == nil {
		return d
	}
	out := make(Diagnostics, len(d))
	for i, diag := range d {
		if diag.Subject == nil && !diag.Standalone {
			subject := AttributeRange(body, diag.AttributePath)
			diag.Subject = &subject
		}
		out[i] = diag
	}
	return out
}

// AttributeRange finds where in body the attribute path leads, as
// OpenTofu's attributeDiagnostic.ElaborateFromConfigBody does: the
// expression of the attribute the path ends at (the element, for an index
// into a list or map written out), else the "missing item" range of the
// deepest block the path reaches, the opening of its body. A path that
// names a nested block, or an attribute the configuration leaves out, so
// lands on the block that holds it.
func AttributeRange(body hcl.Body, path cty.Path) hcl.Range {
	if len(path) == 0 {
		return body.MissingItemRange()
	}
	if _, isIndex := path[0].(cty.IndexStep); isIndex {
		return body.MissingItemRange()
	}
	traverse, final := path, path[len(path)-1]
	index, hasIndex := final.(cty.IndexStep)
	if hasIndex {
		final, traverse = path[len(path)-2], path[:len(path)-1]
	}
	if len(traverse) > 1 {
		body = traversePathSteps(traverse, body)
	}
	subject := body.MissingItemRange()
	step, isAttr := final.(cty.GetAttrStep)
	if !isAttr {
		return subject
	}
	content, _, hd := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: step.Name, Required: true}}})
	if hd.HasErrors() {
		return subject
	}
	attr, ok := content.Attributes[step.Name]
	if !ok {
		return subject
	}
	if hasIndex {
		return indexRange(index, attr)
	}
	return attr.Expr.Range()
}

// traversePathSteps follows the steps of a path that name nested blocks
// (with an index into a list of them, or a key of a map of them) to the
// body of the block they lead to, stopping where they stop matching
// exactly one block (OpenTofu's tfdiags.traversePathSteps).
func traversePathSteps(traverse cty.Path, body hcl.Body) hcl.Body {
	for i := 0; i < len(traverse); i++ {
		step, ok := traverse[i].(cty.GetAttrStep)
		if !ok {
			return body
		}
		var key cty.Value
		if i+1 < len(traverse) {
			if next, isIndex := traverse[i+1].(cty.IndexStep); isIndex {
				key = next.Key
				i++
			}
		}
		var labels []string
		if key != cty.NilVal && key.Type() == cty.String {
			labels = []string{"key"}
		}
		content, _, hd := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: step.Name, LabelNames: labels}}})
		if hd.HasErrors() {
			return body
		}
		var blocks []*hcl.Block
		for _, block := range content.Blocks {
			if block.Type == step.Name {
				blocks = append(blocks, block)
			}
		}
		if len(blocks) == 0 {
			continue
		}
		switch {
		case key == cty.NilVal:
			if len(blocks) != 1 {
				return body
			}
			body = blocks[0].Body
		case key.Type() == cty.Number:
			var n int
			if err := gocty.FromCtyValue(key, &n); err != nil || n >= len(blocks) {
				return body
			}
			body = blocks[n].Body
		case key.Type() == cty.String:
			var found *hcl.Block
			for _, block := range blocks {
				if block.Labels[0] == key.AsString() {
					found = block
					break
				}
			}
			if found == nil {
				return body
			}
			body = found.Body
		default:
			return body
		}
	}
	return body
}

// indexRange is the range of the element an index step names in a list or
// map the configuration writes out, else the attribute's name (OpenTofu's
// hclRangeFromIndexStepAndAttribute).
func indexRange(index cty.IndexStep, attr *hcl.Attribute) hcl.Range {
	switch index.Key.Type() {
	case cty.Number:
		var n int
		err := gocty.FromCtyValue(index.Key, &n)
		items, hd := hcl.ExprList(attr.Expr)
		if hd.HasErrors() {
			return attr.Expr.Range()
		}
		if err != nil || n >= len(items) {
			return attr.NameRange
		}
		return items[n].Range()
	case cty.String:
		pairs, hd := hcl.ExprMap(attr.Expr)
		if hd.HasErrors() {
			return attr.Expr.Range()
		}
		for _, pair := range pairs {
			key, hd := pair.Key.Value(nil)
			if hd.HasErrors() {
				return attr.Expr.Range()
			}
			if key.Type() == cty.String && key.AsString() == index.Key.AsString() {
				return pair.Value.StartRange()
			}
		}
		return attr.NameRange
	}
	return attr.Expr.Range()
}
