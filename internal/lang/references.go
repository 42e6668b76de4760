package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/terrane/terrane/internal/addrs"
)

// ReferencesInExpr returns what an expression refers to, each with the
// source range where it is written. Iteration symbols of `for` expressions
// are not references and are not returned.
func ReferencesInExpr(expr hcl.Expression) ([]*addrs.Reference, hcl.Diagnostics) {
	if expr == nil {
		return nil, nil
	}
	return addrs.References(expr.Variables())
}

// ReferencesInBlock returns what a block body refers to when decoded with
// spec (a provider schema's decoder spec), including the for_each and
// content of `dynamic` blocks but not their iterator symbols.
func ReferencesInBlock(body hcl.Body, spec hcldec.Spec) ([]*addrs.Reference, hcl.Diagnostics) {
	if body == nil {
		return nil, nil
	}
	return addrs.References(dynblock.VariablesHCLDec(body, spec))
}

// ProviderFunctionsInExpr lists the provider-defined functions an
// expression calls; see ProviderFunctionsInNode for the JSON limitation.
func ProviderFunctionsInExpr(expr hcl.Expression) []ProviderFunctionRef {
	return providerFunctionsIn(expr)
}

// ProviderFunctionsInBody lists the provider-defined functions called
// anywhere in a body.
func ProviderFunctionsInBody(body hcl.Body) []ProviderFunctionRef {
	return providerFunctionsIn(body)
}
