package discovery

import (
	"fmt"
	"sort"
	"strings"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
)

// DevOverrides maps providers to directories holding development builds,
// from the dev_overrides block. An overridden provider is used from its
// directory whatever version the configuration asks for, and is never
// installed or recorded in the lock file.
type DevOverrides map[tfaddr.Provider]string

// Warning returns the warning to show on every run while overrides are in
// effect, because the providers used may not match any released version.
// It returns nil when there are none.
func (o DevOverrides) Warning() *diags.Diagnostic {
	if len(o) == 0 {
		return nil
	}
	providers := make([]tfaddr.Provider, 0, len(o))
	for provider := range o {
		providers = append(providers, provider)
	}
	sort.Slice(providers, func(i, j int) bool { return providers[i].LessThan(providers[j]) })
	var lines strings.Builder
	for _, provider := range providers {
		fmt.Fprintf(&lines, "\n - %s in %s", addrs.ProviderForDisplay(provider), o[provider])
	}
	diag := diags.Warnf("Provider development overrides are in effect",
		"The CLI configuration overrides these providers with local builds:%s\n\n"+
			"They are used whatever version the configuration requires, so behaviour may differ from any released version, "+
			"and state they write may not be readable by a release. Remove the dev_overrides entries to use released providers again.",
		lines.String())
	return &diag
}
