package workdir

import (
	"context"
	"os"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/plugin/pulumi"
	"github.com/terrane/terrane/internal/providers"
)

// ProviderFactories returns a factory for every provider a run in dir may
// start: each locked provider from its package installed under
// .terrane/providers, checked against the lock's hashes; each provider the
// CLI configuration's dev_overrides names, from its override directory and
// without any check, with the warning Terraform gives; and each provider
// TF_REATTACH_PROVIDERS names, attached to rather than started. A package
// whose executable is pulumi-resource-TYPE is a Pulumi provider, launched
// with pulumi.Launch (which attaches instead when PULUMI_DEBUG_PROVIDERS
// names it). A locked Pulumi
// sub-package runs its base package's executable, made into the
// sub-package by replaying the parameterization the lock records. A locked
// provider that is not installed, or whose package does not match the lock,
// gets no factory but an error diagnostic that says to run terrane init.
// cli may be nil (no CLI configuration) and schemas nil (no schema cache).
func ProviderFactories(ctx context.Context, dir string, locks *depsfile.Locks, cli *cliconfig.Config, schemas *plugin.SchemaStore) (map[addrs.Provider]providers.Factory, diags.Diagnostics) {
	var ds diags.Diagnostics
	factories := map[addrs.Provider]providers.Factory{}
	overrides := devOverrides(cli)
	if warning := overrides.Warning(); warning != nil {
		ds = append(ds, *warning)
	}
	reattached, more := plugin.ParseReattachProviders(os.Getenv(plugin.EnvReattachProviders))
	ds = ds.Append(more)

	verifier := newVerifier(DataDir(dir))
	for _, provider := range locks.SortedProviders() {
		if _, overridden := overrides[provider]; overridden {
			continue
		}
		if _, attached := reattached[provider]; attached {
			continue
		}
		if err := ctx.Err(); err != nil {
			return factories, ds.Append(err)
		}
		executable, diag := installedExecutable(dir, locks.Provider(provider), verifier)
		if diag != nil {
			ds = append(ds, *diag)
			continue
		}
		factories[provider] = lockedLauncher(locks.Provider(provider), executable, schemas)
	}
	verifier.save()
	for provider, overrideDir := range overrides {
		executable, err := discovery.FindExecutable(overrideDir, provider.Type)
		if err != nil {
			diag := diags.Errorf("Invalid provider development override",
				"The CLI configuration's dev_overrides points %s at %s, but %s. Build the provider into that directory or fix the path.",
				addrs.ProviderForDisplay(provider), overrideDir, err)
			diag.Address = provider.String()
			ds = append(ds, diag)
			continue
		}
		factories[provider] = launcher(provider, executable, schemas)
	}
	for provider := range reattached {
		// plugin.Launch attaches instead of starting when the variable
		// names the provider, so no executable is needed.
		factories[provider] = launcher(provider, "", schemas)
	}
	return factories, ds
}

func devOverrides(cli *cliconfig.Config) discovery.DevOverrides {
	if cli == nil || cli.ProviderInstallation == nil {
		return nil
	}
	return discovery.DevOverrides(cli.ProviderInstallation.DevOverrides)
}

// launcher returns the factory of one provider.
func launcher(provider addrs.Provider, executable string, schemas *plugin.SchemaStore) providers.Factory {
	return func(ctx context.Context) (providers.Interface, error) {
		return LaunchProvider(ctx, provider, executable, schemas)
	}
}

// lockedLauncher returns the factory of a locked provider: a sub-package
// is its base package made into the sub-package by replaying the recorded
// parameterization, so a run never resolves it again.
func lockedLauncher(lock *depsfile.ProviderLock, executable string, schemas *plugin.SchemaStore) providers.Factory {
	recorded := lock.Parameterization()
	if recorded == nil {
		return launcher(lock.Provider(), executable, schemas)
	}
	params := &pulumi.Parameters{Value: &pulumi.ParameterValue{Name: recorded.Name, Version: recorded.Version, Value: recorded.Value}}
	return func(ctx context.Context) (providers.Interface, error) {
		p, err := LaunchSubpackage(ctx, lock.Provider(), recorded.Base, executable, params)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
}

// LaunchProvider starts the provider executable (or attaches to it when
// TF_REATTACH_PROVIDERS or PULUMI_DEBUG_PROVIDERS names it): a Pulumi
// resource provider (an executable named pulumi-resource-TYPE) with
// Pulumi's handshake, any other through go-plugin. Commands that launch
// resolved packages themselves use it so both kinds work everywhere.
func LaunchProvider(ctx context.Context, provider addrs.Provider, executable string, schemas *plugin.SchemaStore) (providers.Interface, error) {
	if executable != "" && discovery.IsPulumiExecutable(executable) {
		p, err := pulumi.Launch(ctx, pulumi.Config{Name: provider.Type, Path: executable})
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	p, err := plugin.Launch(ctx, plugin.Config{Provider: provider, Path: executable, Schemas: schemas})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// VerifyInstalled finds the locked version's package under
// .terrane/providers of dir and checks it against the lock, returning the
// provider's executable. A package that matched before and whose files have
// not changed since is not hashed again.
func VerifyInstalled(dir string, lock *depsfile.ProviderLock) (string, *diags.Diagnostic) {
	verifier := newVerifier(DataDir(dir))
	defer verifier.save()
	return installedExecutable(dir, lock, verifier)
}

// installedExecutable finds the locked version's package under
// .terrane/providers and checks it against the lock.
func installedExecutable(dir string, lock *depsfile.ProviderLock, verifier *verifier) (string, *diags.Diagnostic) {
	provider := lock.Package() // a sub-package runs its base package
	platform := discovery.CurrentPlatform()
	packageDir := discovery.UnpackedDir(ProvidersDir(dir), provider, lock.Version(), platform)
	executable, err := discovery.FindExecutable(packageDir, provider.Type)
	if err != nil {
		diag := diags.Errorf("Required provider is not installed",
			"The dependency lock file selects %s v%s, but no package of it for %s is installed in %s: %s.\n\n"+
				"Run terrane init to install the providers the configuration needs.",
			addrs.ProviderForDisplay(provider), lock.Version(), platform, ProvidersDir(dir), err)
		diag.Address = lock.Provider().String()
		return "", &diag
	}
	if diag := verifier.verify(lock, packageDir); diag != nil {
		return "", diag
	}
	return executable, nil
}
