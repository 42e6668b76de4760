package addrs

import (
	"strings"

	tfaddr "github.com/hashicorp/terraform-registry-address"
	svchost "github.com/hashicorp/terraform-svchost"
)

// Provider is a provider source address, host/namespace/type, such as
// registry.opentofu.org/hashicorp/null. Provider values compare with ==.
type Provider = tfaddr.Provider

// DefaultProviderRegistryHost is the registry a source address without a
// hostname refers to. Terrane follows OpenTofu here.
const DefaultProviderRegistryHost = svchost.Hostname("registry.opentofu.org")

// BuiltInProviderHost and BuiltInProviderNamespace name the providers that
// are part of Terrane itself, such as terraform.io/builtin/terraform.
const (
	BuiltInProviderHost      = tfaddr.BuiltInProviderHost
	BuiltInProviderNamespace = tfaddr.BuiltInProviderNamespace
)

// TerraformProvider is the built-in provider of terraform_data.
var TerraformProvider = NewBuiltInProvider("terraform")

// NewDefaultProvider returns the address of a provider in the hashicorp
// namespace of the default registry, which is what a configuration means
// when it uses a provider it never declared in required_providers.
func NewDefaultProvider(typeName string) Provider {
	return Provider{Hostname: DefaultProviderRegistryHost, Namespace: "hashicorp", Type: typeName}
}

// NewBuiltInProvider returns the address of a built-in provider.
func NewBuiltInProvider(typeName string) Provider {
	return Provider{Hostname: BuiltInProviderHost, Namespace: BuiltInProviderNamespace, Type: typeName}
}

// ImpliedProviderForUnqualifiedType returns the provider a local name means
// when required_providers does not declare it: the built-in provider for
// "terraform", otherwise hashicorp/NAME on the default registry.
func ImpliedProviderForUnqualifiedType(localName string) Provider {
	if localName == "terraform" {
		return TerraformProvider
	}
	return NewDefaultProvider(localName)
}

// ParseProviderSource parses a provider source address as written in
// required_providers: TYPE, NAMESPACE/TYPE or HOST/NAMESPACE/TYPE. Without
// a host, the default registry is registry.opentofu.org; without a
// namespace, it is hashicorp, as OpenTofu assumes.
func ParseProviderSource(str string) (Provider, error) {
	provider, err := tfaddr.ParseProviderSource(str)
	if err != nil {
		return Provider{}, err
	}
	hasHost := strings.Count(str, "/") == 2
	if !hasHost {
		provider.Hostname = DefaultProviderRegistryHost
	}
	if provider.Namespace == tfaddr.UnknownProviderNamespace {
		provider.Namespace = "hashicorp"
	}
	if provider.Hostname == BuiltInProviderHost && provider.Namespace != BuiltInProviderNamespace {
		return Provider{}, &tfaddr.ParserError{
			Summary: "Invalid provider source",
			Detail:  "The host " + string(BuiltInProviderHost) + " is reserved for built-in providers in the namespace " + BuiltInProviderNamespace + ".",
		}
	}
	return provider, nil
}

// ProviderForDisplay returns a provider address the way a user would write
// it: without the host when it is the default registry.
func ProviderForDisplay(provider Provider) string {
	if provider.Hostname == DefaultProviderRegistryHost {
		return provider.Namespace + "/" + provider.Type
	}
	return provider.String()
}

// IsDefaultRegistryEquivalent reports whether two providers differ at most
// in which of the public registries (registry.terraform.io or
// registry.opentofu.org) they live on. Terraform-written state names
// providers on registry.terraform.io; the same configuration loaded by
// Terrane names them on registry.opentofu.org.
func IsDefaultRegistryEquivalent(a, b Provider) bool {
	if a == b {
		return true
	}
	isPublic := func(h svchost.Hostname) bool {
		return h == DefaultProviderRegistryHost || h == tfaddr.DefaultProviderRegistryHost
	}
	return isPublic(a.Hostname) && isPublic(b.Hostname) && a.Namespace == b.Namespace && a.Type == b.Type
}
