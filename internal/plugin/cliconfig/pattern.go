package cliconfig

import (
	"fmt"
	"strings"

	tfaddr "github.com/hashicorp/terraform-registry-address"
	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/terrane/terrane/internal/addrs"
)

// Wildcard is the pattern part that matches any host, namespace or type.
const Wildcard = "*"

// ProviderPattern is an include or exclude pattern of an installation
// method, such as "hashicorp/*" or "example.com/*/*". Any part may be the
// wildcard, but only trailing parts: a wildcard host needs a wildcard
// namespace and type, a wildcard namespace a wildcard type.
type ProviderPattern struct {
	Hostname  string // a normalised hostname, or Wildcard
	Namespace string // a normalised namespace, or Wildcard
	Type      string // a normalised type, or Wildcard
}

// ParseProviderPattern parses a pattern written as NAMESPACE/TYPE (on the
// default registry) or HOST/NAMESPACE/TYPE.
func ParseProviderPattern(raw string) (ProviderPattern, error) {
	parts := strings.Split(raw, "/")
	if len(parts) == 2 {
		parts = append([]string{string(addrs.DefaultProviderRegistryHost)}, parts...)
	}
	if len(parts) != 3 {
		return ProviderPattern{}, fmt.Errorf("%q is not a provider pattern: write NAMESPACE/TYPE or HOST/NAMESPACE/TYPE, with * for any trailing part", raw)
	}
	host, namespace, typeName := parts[0], parts[1], parts[2]
	if (host == Wildcard && namespace != Wildcard) || (namespace == Wildcard && typeName != Wildcard) {
		return ProviderPattern{}, fmt.Errorf("%q has a wildcard followed by a specific name: only trailing parts may be *, as in example.com/*/* or hashicorp/*", raw)
	}
	pattern := ProviderPattern{Hostname: Wildcard, Namespace: Wildcard, Type: Wildcard}
	if host != Wildcard {
		normalized, err := svchost.ForComparison(host)
		if err != nil {
			return ProviderPattern{}, fmt.Errorf("%q has an invalid hostname %q: %w", raw, host, err)
		}
		pattern.Hostname = string(normalized)
	}
	for _, part := range []struct {
		given  string
		target *string
	}{{namespace, &pattern.Namespace}, {typeName, &pattern.Type}} {
		if part.given == Wildcard {
			continue
		}
		normalized, err := tfaddr.ParseProviderPart(part.given)
		if err != nil {
			return ProviderPattern{}, fmt.Errorf("%q has an invalid part %q: %w", raw, part.given, err)
		}
		*part.target = normalized
	}
	return pattern, nil
}

// Matches reports whether provider is one of the providers the pattern
// selects.
func (p ProviderPattern) Matches(provider tfaddr.Provider) bool {
	return matchPart(p.Hostname, string(provider.Hostname)) &&
		matchPart(p.Namespace, provider.Namespace) &&
		matchPart(p.Type, provider.Type)
}

func matchPart(pattern, value string) bool {
	return pattern == Wildcard || pattern == value
}

// String returns the pattern in its HOST/NAMESPACE/TYPE form.
func (p ProviderPattern) String() string {
	return p.Hostname + "/" + p.Namespace + "/" + p.Type
}
