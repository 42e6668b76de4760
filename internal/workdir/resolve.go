package workdir

import (
	"context"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/plugin/pulumi"
	"github.com/terrane/terrane/internal/providers"
)

// ResolvedProvider is a required provider found without installing it
// (what validate and providers schema use): its package and, for a Pulumi
// sub-package, the parameters that make the sub-package.
type ResolvedProvider struct {
	Provider addrs.Provider
	// Package is the provider's package: the base package's for a
	// sub-package.
	Package discovery.ResolvedPackage
	// Base and Parameters are set for a sub-package.
	Base       addrs.Provider
	Parameters *pulumi.Parameters
}

// PackageRequirements maps requirements onto the packages that serve
// them: a sub-package's constraints become its base package's (what is
// found, installed, hashed and launched), intersected with the base's own
// when the configuration requires both.
func PackageRequirements(requirements map[addrs.Provider]discovery.Constraints, subpackages map[addrs.Provider]Subpackage) map[addrs.Provider]discovery.Constraints {
	out := make(map[addrs.Provider]discovery.Constraints, len(requirements))
	for _, provider := range SortedProviders(requirements) {
		pkg := provider
		if sub, ok := subpackages[provider]; ok {
			pkg = sub.Base
		}
		out[pkg] = append(out[pkg], requirements[provider]...)
	}
	return out
}

// ResolveProviders finds the package of every required provider, a
// sub-package's through its base package. A sub-package is made with the
// parameterization the lock file records for it when the record matches
// the configuration (so the schema is the one runs use), else with the
// configuration's parameters. Providers that cannot be found are missing
// from the result, with discovery's diagnostics.
func ResolveProviders(ctx context.Context, cli *cliconfig.Config, requirements map[addrs.Provider]discovery.Constraints, subpackages map[addrs.Provider]Subpackage, locks *depsfile.Locks) (map[addrs.Provider]ResolvedProvider, diags.Diagnostics) {
	packages, ds := discovery.Resolve(ctx, cli, PackageRequirements(requirements, subpackages))
	out := make(map[addrs.Provider]ResolvedProvider, len(requirements))
	for provider := range requirements {
		sub, isSub := subpackages[provider]
		if !isSub {
			if pkg, found := packages[provider]; found {
				out[provider] = ResolvedProvider{Provider: provider, Package: pkg}
			}
			continue
		}
		pkg, found := packages[sub.Base]
		if !found {
			continue
		}
		out[provider] = ResolvedProvider{Provider: provider, Package: pkg, Base: sub.Base, Parameters: subpackageParameters(sub, locks.Provider(provider))}
	}
	return out, ds
}

// subpackageParameters replays the lock's record when it records want,
// else asks with want's args.
func subpackageParameters(want Subpackage, lock *depsfile.ProviderLock) *pulumi.Parameters {
	if lock != nil && lock.Parameterization() != nil && SubpackageLockProblem(want, lock) == "" {
		recorded := lock.Parameterization()
		return &pulumi.Parameters{Value: &pulumi.ParameterValue{Name: recorded.Name, Version: recorded.Version, Value: recorded.Value}}
	}
	return &pulumi.Parameters{Args: want.Args}
}

// Launch starts the provider: a sub-package as its base package made into
// the sub-package.
func (r ResolvedProvider) Launch(ctx context.Context, schemas *plugin.SchemaStore) (providers.Interface, error) {
	if r.Parameters == nil {
		return LaunchProvider(ctx, r.Provider, r.Package.Executable, schemas)
	}
	p, err := LaunchSubpackage(ctx, r.Provider, r.Base, r.Package.Executable, r.Parameters)
	if err != nil {
		return nil, err
	}
	return p, nil
}
