package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/addrs"
)

// ImportProviders are the providers the module's import blocks need for
// their targets, even where no resource block is written for one yet (as
// when plan generates it): the one an import's provider argument names,
// else the one its target's resource type implies. Targets in other
// modules are left to those modules' resource blocks.
func (m *Module) ImportProviders() []addrs.Provider {
	var out []addrs.Provider
	for _, imp := range m.Import {
		if imp.ProviderConfigRef != nil {
			out = append(out, m.ProviderForLocalName(imp.ProviderConfigRef.Name))
			continue
		}
		if typeName, ok := importTargetType(imp.To); ok {
			out = append(out, m.ProviderForLocalName(addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typeName}.ImpliedProvider()))
		}
	}
	return out
}

// importTargetType is the resource type of an import's target address in
// this module, read without evaluating any instance key.
func importTargetType(to hcl.Expression) (string, bool) {
	for {
		index, ok := to.(*hclsyntax.IndexExpr)
		if !ok {
			break
		}
		to = index.Collection
	}
	traversal, diags := hcl.AbsTraversalForExpr(to)
	if diags.HasErrors() || len(traversal) < 2 {
		return "", false
	}
	switch root := traversal.RootName(); root {
	case "module":
		return "", false
	case "data":
		step, ok := traversal[1].(hcl.TraverseAttr)
		return step.Name, ok
	default:
		return root, true
	}
}
