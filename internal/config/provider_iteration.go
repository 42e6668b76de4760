package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func providerIterationWarning(blockType, target string, source, instance hcl.Expression) hcl.Diagnostics {
	if source == nil || instance == nil || len(source.Variables()) == 0 || len(instance.Variables()) == 0 {
		return nil
	}
	if !sameIteration(source, instance) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Provider configuration for_each matches " + blockType,
		Detail: fmt.Sprintf("This provider configuration uses the same for_each expression as a %s, which means that subsequent removal of elements from this collection would cause a planning error.\n\n"+
			"Terrane relies on a provider instance to destroy resource instances that are associated with it, and so the provider instance must outlive all of its resource instances by at least one plan/apply round. "+
			"For removal of instances to succeed in future you must structure the configuration so that the provider block's for_each expression can produce a superset of the instances of the resources associated with the provider configuration. "+
			"Refer to the Terrane documentation for specific suggestions.\n\n"+
			"To destroy this object before removing the provider configuration, consider first performing a targeted destroy:\n    terrane apply -destroy %s",
			blockType, target),
		Subject: source.Range().Ptr(),
	}}
}

// sameIteration compares two for_each expressions as OpenTofu does, on a
// best-effort basis: the same references, literals and operations.
func sameIteration(a, b hcl.Expression) bool {
	if pa, ok := a.(*hclsyntax.ParenthesesExpr); ok {
		return sameIteration(pa.Expression, b)
	}
	if pb, ok := b.(*hclsyntax.ParenthesesExpr); ok {
		return sameIteration(a, pb.Expression)
	}
	if ka, ok := a.(*hclsyntax.ObjectConsKeyExpr); ok {
		return sameIteration(ka.Wrapped, b)
	}
	if kb, ok := b.(*hclsyntax.ObjectConsKeyExpr); ok {
		return sameIteration(a, kb.Wrapped)
	}
	switch as := a.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		if bs, ok := b.(*hclsyntax.ScopeTraversalExpr); ok {
			return sameTraversal(as.Traversal, bs.Traversal)
		}
	case *hclsyntax.LiteralValueExpr:
		if bs, ok := b.(*hclsyntax.LiteralValueExpr); ok {
			return as.Val.Equals(bs.Val).True()
		}
	case *hclsyntax.RelativeTraversalExpr:
		if bs, ok := b.(*hclsyntax.RelativeTraversalExpr); ok {
			return sameTraversal(as.Traversal, bs.Traversal) && sameIteration(as.Source, bs.Source)
		}
	case *hclsyntax.FunctionCallExpr:
		if bs, ok := b.(*hclsyntax.FunctionCallExpr); ok && as.Name == bs.Name {
			return sameExpressions(as.Args, bs.Args)
		}
	case *hclsyntax.ConditionalExpr:
		if bs, ok := b.(*hclsyntax.ConditionalExpr); ok {
			return sameIteration(as.Condition, bs.Condition) && sameIteration(as.TrueResult, bs.TrueResult) && sameIteration(as.FalseResult, bs.FalseResult)
		}
	case *hclsyntax.IndexExpr:
		if bs, ok := b.(*hclsyntax.IndexExpr); ok {
			return sameIteration(as.Collection, bs.Collection) && sameIteration(as.Key, bs.Key)
		}
	case *hclsyntax.TupleConsExpr:
		if bs, ok := b.(*hclsyntax.TupleConsExpr); ok {
			return sameExpressions(as.Exprs, bs.Exprs)
		}
	case *hclsyntax.ObjectConsExpr:
		if bs, ok := b.(*hclsyntax.ObjectConsExpr); ok && len(as.Items) == len(bs.Items) {
			for i := range as.Items {
				if !sameIteration(as.Items[i].KeyExpr, bs.Items[i].KeyExpr) || !sameIteration(as.Items[i].ValueExpr, bs.Items[i].ValueExpr) {
					return false
				}
			}
			return true
		}
	case *hclsyntax.ForExpr:
		if bs, ok := b.(*hclsyntax.ForExpr); ok {
			return as.KeyVar == bs.KeyVar && as.ValVar == bs.ValVar && as.Group == bs.Group &&
				sameIteration(as.CollExpr, bs.CollExpr) && sameOptional(as.KeyExpr, bs.KeyExpr) &&
				sameIteration(as.ValExpr, bs.ValExpr) && sameOptional(as.CondExpr, bs.CondExpr)
		}
	case *hclsyntax.BinaryOpExpr:
		if bs, ok := b.(*hclsyntax.BinaryOpExpr); ok {
			return as.Op == bs.Op && sameIteration(as.LHS, bs.LHS) && sameIteration(as.RHS, bs.RHS)
		}
	case *hclsyntax.UnaryOpExpr:
		if bs, ok := b.(*hclsyntax.UnaryOpExpr); ok {
			return as.Op == bs.Op && sameIteration(as.Val, bs.Val)
		}
	case *hclsyntax.TemplateExpr:
		if bs, ok := b.(*hclsyntax.TemplateExpr); ok {
			return sameExpressions(as.Parts, bs.Parts)
		}
	}
	return false
}

func sameOptional(a, b hcl.Expression) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return sameIteration(a, b)
}

func sameExpressions(a, b []hclsyntax.Expression) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameIteration(a[i], b[i]) {
			return false
		}
	}
	return true
}

// sameTraversal reports whether two traversals name the same thing,
// written with attribute or index steps alike.
func sameTraversal(a, b hcl.Traversal) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if stepName(a[i]) != stepName(b[i]) {
			return false
		}
	}
	return true
}

func stepName(step hcl.Traverser) string {
	switch s := step.(type) {
	case hcl.TraverseRoot:
		return "." + s.Name
	case hcl.TraverseAttr:
		return "." + s.Name
	case hcl.TraverseIndex:
		if s.Key.Type().FriendlyName() == "string" && s.Key.IsKnown() && !s.Key.IsNull() {
			return "." + s.Key.AsString()
		}
		return fmt.Sprintf("[%#v]", s.Key)
	case hcl.TraverseSplat:
		return "[*]"
	}
	return "?"
}
