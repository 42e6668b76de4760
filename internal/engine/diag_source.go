package engine

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// withResourceSource gives a provider's diagnostics about a resource the
// source range users look for, as Terraform does: the argument their
// attribute path names when the configuration has it, else the resource
// block itself. Diagnostics that already have a range keep it.
func withResourceSource(ds diags.Diagnostics, res *config.Resource) diags.Diagnostics {
	if res == nil || len(ds) == 0 {
		return ds
	}
	out := make(diags.Diagnostics, len(ds))
	for i, d := range ds {
		if d.Subject == nil {
			subject := res.DeclRange
			if rng, ok := attributeRange(res.Config, d.AttributePath); ok {
				subject = rng
			}
			d.Subject = &subject
		}
		out[i] = d
	}
	return out
}

// attributeRange finds the expression or nested block path names in a
// native-syntax body. It reports false when the path is empty or leads
// nowhere in the written configuration (a computed attribute, a JSON
// file, an argument left to its default).
func attributeRange(body hcl.Body, path cty.Path) (hcl.Range, bool) {
	syntaxBody, ok := body.(*hclsyntax.Body)
	if !ok || len(path) == 0 {
		return hcl.Range{}, false
	}
	for i := 0; i < len(path); i++ {
		step, ok := path[i].(cty.GetAttrStep)
		if !ok {
			return hcl.Range{}, false
		}
		if attr, found := syntaxBody.Attributes[step.Name]; found {
			return attr.Expr.Range(), true
		}
		blocks := blocksOfType(syntaxBody, step.Name)
		if len(blocks) == 0 {
			return hcl.Range{}, false
		}
		block := blocks[0]
		// A list of blocks is indexed by position; sets and maps of
		// blocks name the first one, which is as close as a path gets.
		if i+1 < len(path) {
			if index, isIndex := path[i+1].(cty.IndexStep); isIndex {
				i++
				if n, exact := blockIndex(index); exact && n < len(blocks) {
					block = blocks[n]
				}
			}
		}
		if i+1 == len(path) {
			return block.DefRange(), true
		}
		syntaxBody = block.Body
	}
	return hcl.Range{}, false
}

func blocksOfType(body *hclsyntax.Body, typeName string) []*hclsyntax.Block {
	var out []*hclsyntax.Block
	for _, block := range body.Blocks {
		if block.Type == typeName {
			out = append(out, block)
		}
	}
	return out
}

func blockIndex(step cty.IndexStep) (int, bool) {
	if step.Key.Type() != cty.Number || !step.Key.IsKnown() || step.Key.IsNull() {
		return 0, false
	}
	n, accuracy := step.Key.AsBigFloat().Int64()
	return int(n), accuracy == 0 && n >= 0
}
