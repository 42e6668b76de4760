package workdir

import (
	"context"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/providers"
)

// ConfiguredProviderFactories returns a factory for every provider cfg
// needs, each an installed package that matches dir's dependency lock
// file (see ProviderFactories), after checking that the lock file covers
// cfg's requirements and Pulumi sub-packages. The loaded locks are returned
// too, for their sources and their raw form in plan files. cli may be nil.
func ConfiguredProviderFactories(ctx context.Context, dir string, cfg *config.Config, cli *cliconfig.Config) (map[addrs.Provider]providers.Factory, *depsfile.Locks, diags.Diagnostics) {
	locks, ds := depsfile.LoadFile(LockFilePath(dir))
	requirements, reqDiags := ProviderRequirements(cfg)
	ds = ds.Append(reqDiags)
	var overrides discovery.DevOverrides
	if cli != nil && cli.ProviderInstallation != nil {
		overrides = cli.ProviderInstallation.DevOverrides
	}
	ds = ds.Append(CheckLocks(requirements, locks, overrides))
	// A Pulumi sub-package's parameters are fixed by init; a configuration
	// whose parameters changed since must be initialized again.
	subpackages, subDiags := Subpackages(cfg)
	ds = ds.Append(subDiags, CheckSubpackageLocks(subpackages, locks))
	if ds.HasErrors() {
		return nil, locks, ds
	}
	// Without a schema cache every run asks each provider for its schema,
	// which is slower but correct, so a broken cache directory is no error.
	schemas, _ := plugin.DefaultSchemaStore()
	factories, factoryDiags := ProviderFactories(ctx, dir, locks, cli, schemas)
	return factories, locks, ds.Append(factoryDiags)
}
