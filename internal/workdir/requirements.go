package workdir

import (
	"fmt"
	"sort"
	"strings"

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
	// An import block needs its target's provider even while no resource
	// block is written for it, as when plan generates one.
	for _, provider := range mod.ImportProviders() {
		use(provider, config.VersionConstraint{})
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

// CheckLocks reports, in one error as OpenTofu does, every required
// provider the lock file does not select a version of, or selects a
// version the configuration no longer allows, and says to run init.
// Providers under development overrides need no lock.
func CheckLocks(requirements map[addrs.Provider]discovery.Constraints, locks *depsfile.Locks, overrides discovery.DevOverrides) diags.Diagnostics {
	problems := LockProblems(requirements, locks, overrides)
	if len(problems) == 0 {
		return nil
	}
	suggestion := "To update the locked dependency selections to match a changed configuration, run:\n  terrane init -upgrade"
	if locks.Empty() {
		suggestion = "To make the initial dependency selections that will initialize the dependency lock file, run:\n  terrane init"
	}
	return diags.Diagnostics{diags.Errorf("Inconsistent dependency lock file",
		"The following dependency selections recorded in the lock file are inconsistent with the current configuration:\n  - %s\n\n%s",
		strings.Join(problems, "\n  - "), suggestion)}
}

// LockProblems lists, sorted, how the lock file fails the requirements:
// a provider with no version selected, or a selected version the
// constraints no longer allow.
func LockProblems(requirements map[addrs.Provider]discovery.Constraints, locks *depsfile.Locks, overrides discovery.DevOverrides) []string {
	var problems []string
	for provider, constraints := range requirements {
		if _, overridden := overrides[provider]; overridden {
			continue
		}
		lock := locks.Provider(provider)
		switch {
		case lock == nil:
			problems = append(problems, fmt.Sprintf("provider %s: required by this configuration but no version is selected", provider))
		case !versions.MeetingConstraints(constraints).Has(lock.Version()):
			current := depsfile.ConstraintsString(constraints)
			if current != depsfile.ConstraintsString(lock.Constraints()) {
				problems = append(problems, fmt.Sprintf("provider %s: locked version selection %s doesn't match the updated version constraints %q", provider, lock.Version(), current))
			} else {
				problems = append(problems, fmt.Sprintf("provider %s: version constraints %q don't match the locked version selection %s", provider, current, lock.Version()))
			}
		}
	}
	sort.Strings(problems)
	return problems
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
