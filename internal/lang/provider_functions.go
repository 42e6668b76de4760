package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty/function"
)

// ProviderFunctionRef names a provider-defined function as called:
// provider::NAME::FUNCTION or provider::NAME::ALIAS::FUNCTION, where NAME is
// the provider's local name in the calling module.
type ProviderFunctionRef struct {
	ProviderName string
	Alias        string
	Function     string
	// CallRange is where the call is written.
	CallRange hcl.Range
}

// String prints the reference as it is written in configuration.
func (r ProviderFunctionRef) String() string {
	if r.Alias != "" {
		return fmt.Sprintf("provider::%s::%s::%s", r.ProviderName, r.Alias, r.Function)
	}
	return fmt.Sprintf("provider::%s::%s", r.ProviderName, r.Function)
}

// ProviderFunctionResolver returns a callable function for a provider
// function reference: the engine builds one from the provider's declared
// signature whose Impl forwards to the provider's CallFunction. found is
// false when the provider has no such function.
type ProviderFunctionResolver func(ref ProviderFunctionRef) (fn function.Function, found bool, diags hcl.Diagnostics)

// builtinProviderName is the provider whose functions Terrane implements
// itself (provider::terraform::encode_tfvars and friends).
const builtinProviderName = "terraform"

// parseProviderFunctionName splits "provider::NAME[::ALIAS]::FUNCTION"; ok
// is false for names outside the provider namespace.
func parseProviderFunctionName(name string, rng hcl.Range) (ProviderFunctionRef, bool) {
	parts := strings.Split(name, "::")
	if len(parts) < 3 || len(parts) > 4 || parts[0] != "provider" {
		return ProviderFunctionRef{}, false
	}
	ref := ProviderFunctionRef{ProviderName: parts[1], Function: parts[len(parts)-1], CallRange: rng}
	if len(parts) == 4 {
		ref.Alias = parts[2]
	}
	return ref, true
}

// ProviderFunctionsInNode lists the provider-defined functions called
// anywhere inside a native-syntax expression or body, so the engine can make
// the calling node depend on the provider. JSON-syntax configuration calls
// functions only inside template strings, which it cannot list ahead of
// evaluation; those calls are resolved when evaluated.
func ProviderFunctionsInNode(node hclsyntax.Node) []ProviderFunctionRef {
	var refs []ProviderFunctionRef
	hclsyntax.VisitAll(node, func(n hclsyntax.Node) hcl.Diagnostics {
		call, ok := n.(*hclsyntax.FunctionCallExpr)
		if !ok {
			return nil
		}
		if ref, ok := parseProviderFunctionName(call.Name, call.NameRange); ok {
			refs = append(refs, ref)
		}
		return nil
	})
	return refs
}

// IsBuiltin reports whether the function is one of the built-in terraform
// provider's, which Terrane implements itself: no provider process serves
// it, though the module must still declare the provider.
func (r ProviderFunctionRef) IsBuiltin() bool {
	return r.ProviderName == builtinProviderName
}

// UndeclaredFunctionProviders reports each call of a provider-defined
// function through a provider name that the calling module's
// required_providers does not declare, as OpenTofu does: the name alone
// does not say which provider is meant.
func UndeclaredFunctionProviders(refs []ProviderFunctionRef, declared func(localName string) bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, ref := range refs {
		if declared(ref.ProviderName) {
			continue
		}
		diags = diags.Append(&hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unknown function provider",
			Detail:   fmt.Sprintf("Provider %q does not exist within the required_providers of this module", ref.ProviderName),
			Subject:  ref.CallRange.Ptr(),
		})
	}
	return diags
}

// providerFunctionsIn is ProviderFunctionsInNode for any expression or body.
func providerFunctionsIn(v any) []ProviderFunctionRef {
	if node, ok := v.(hclsyntax.Node); ok {
		return ProviderFunctionsInNode(node)
	}
	return nil
}
