package workdir

import (
	"fmt"
	"sort"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

// EachProviderUse calls use for every place a module names a provider:
// each required_providers entry with its version constraint, each provider
// block with the legacy version argument it may have, and each resource's
// provider, with no constraint.
func EachProviderUse(mod *config.Module, use func(addrs.Provider, config.VersionConstraint)) {
	for _, req := range mod.RequiredProviders {
		use(req.Type, req.Requirement)
	}
	for key, block := range mod.ProviderConfigs {
		use(mod.ProviderForLocalName(key.LocalName), block.Version)
	}
	for _, r := range mod.Resources {
		use(r.Provider, config.VersionConstraint{})
	}
}

// ProviderRequirements collects the version constraints on every provider
// the configuration tree uses: declared in required_providers, in the
// legacy version argument of provider blocks, or implied by provider
// blocks and resource types. Built-in providers need no package and are
// left out.
func ProviderRequirements(cfg *config.Config) (map[addrs.Provider]discovery.Constraints, diags.Diagnostics) {
	all, ds := AllProviderRequirements(cfg)
	for provider := range all {
		if provider.IsBuiltIn() {
			delete(all, provider)
		}
	}
	return all, ds
}

// AllProviderRequirements is ProviderRequirements with the built-in
// providers the configuration uses, which init reports and checks.
func AllProviderRequirements(cfg *config.Config) (map[addrs.Provider]discovery.Constraints, diags.Diagnostics) {
	var ds diags.Diagnostics
	type written struct {
		raw string
		rng hcl.Range
	}
	sources := map[addrs.Provider][]written{}
	use := func(provider addrs.Provider, constraint config.VersionConstraint) {
		list := sources[provider]
		if constraint.Source != "" {
			list = append(list, written{constraint.Source, constraint.DeclRange})
		}
		sources[provider] = list
	}
	cfg.DeepEach(func(c *config.Config) { EachProviderUse(c.Module, use) })
	result := make(map[addrs.Provider]discovery.Constraints, len(sources))
	for provider, list := range sources {
		if provider.IsZero() {
			continue
		}
		var all discovery.Constraints
		for _, w := range list {
			c, err := discovery.ParseConstraints(w.raw)
			if err != nil {
				diag := diags.Errorf("Invalid provider version constraint",
					"The version constraint %q for provider %s is not valid: %s. Write constraints such as \">= 1.2.0, < 2.0.0\" or \"~> 1.2\".", w.raw, provider, err)
				if w.rng.Filename != "" {
					diag.Subject = w.rng.Ptr()
				}
				ds = append(ds, diag)
				continue
			}
			all = append(all, c...)
		}
		result[provider] = all
	}
	return result, ds
}

// CheckLocks reports, as errors that say to run terrane init, every
// required provider the lock file does not select a version of, or selects
// a version the configuration no longer allows. Providers under
// development overrides need no lock.
func CheckLocks(requirements map[addrs.Provider]discovery.Constraints, locks *depsfile.Locks, overrides discovery.DevOverrides) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, provider := range SortedProviders(requirements) {
		if _, overridden := overrides[provider]; overridden {
			continue
		}
		lock := locks.Provider(provider)
		var problem string
		switch {
		case lock == nil:
			problem = fmt.Sprintf("the configuration requires %s, but %s selects no version of it", provider.ForDisplay(), depsfile.FileName)
		case !versions.MeetingConstraints(requirements[provider]).Has(lock.Version()):
			problem = fmt.Sprintf("%s selects %s v%s, which does not meet the configuration's constraint %q",
				depsfile.FileName, provider.ForDisplay(), lock.Version(), depsfile.ConstraintsString(requirements[provider]))
		default:
			continue
		}
		diag := diags.Errorf("Inconsistent dependency lock file",
			"The working directory's dependency lock file does not match the configuration: %s.\n\n"+
				"Run terrane init to install the providers the configuration needs and update the lock file (terrane init -upgrade to move to newer versions).", problem)
		diag.Address = provider.String()
		ds = append(ds, diag)
	}
	return ds
}

// SortedProviders returns a map's providers in address order, for
// deterministic output.
func SortedProviders[V any](m map[addrs.Provider]V) []addrs.Provider {
	out := make([]addrs.Provider, 0, len(m))
	for provider := range m {
		out = append(out, provider)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LessThan(out[j]) })
	return out
}
