package command

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/validate"
	"github.com/terrane/terrane/internal/workdir"
)

// This file finds and starts the providers a configuration uses, so that
// validate can check blocks against their schemas.

// validationProviders are the configuration's providers, started, with
// their schemas.
type validationProviders struct {
	providers validate.Providers
}

func (p *validationProviders) close() {
	for _, rp := range p.providers {
		_ = rp.Interface.Close()
	}
}

// startValidationProviders finds and starts every provider the
// configuration uses, the built-in ones included. A provider that is not
// installed is an error, as in OpenTofu, whose validate needs `init` first.
func startValidationProviders(ctx context.Context, cfg *config.Config) (*validationProviders, diags.Diagnostics) {
	result := &validationProviders{providers: validate.Providers{}}
	for addr, factory := range engine.BuiltinProviders() {
		if p, err := factory(ctx); err == nil {
			result.providers[addr] = &validate.Provider{Interface: p, Schema: p.GetProviderSchema(ctx)}
		}
	}
	requirements, ds := workdir.ProviderRequirements(cfg)
	addConfiguredProviders(cfg, requirements)
	if ds.HasErrors() || len(requirements) == 0 {
		return result, ds
	}
	cli, more := cliconfig.Load(cliconfig.Environment{WorkingDir: "."})
	ds = ds.Append(more)
	if more.HasErrors() {
		return result, ds
	}
	subpackages, more := workdir.Subpackages(cfg)
	ds = ds.Append(more)
	locks, _ := depsfile.LoadFile(workdir.LockFilePath(".")) // unreadable: sub-packages are made from their parameters
	packages, resolveDiags := workdir.ResolveProviders(ctx, cli, requirements, subpackages, locks)
	for _, d := range resolveDiags {
		// Resolution errors are the providers not found; they become the
		// single warning below.
		if d.Severity != diags.Error {
			ds = append(ds, d)
		}
	}
	var missing []addrs.Provider
	for provider := range requirements {
		if _, found := packages[provider]; !found {
			missing = append(missing, provider)
		}
	}
	if len(missing) > 0 {
		return result, ds.Append(missingProviders(missing))
	}
	ds = ds.Append(result.launch(ctx, packages))
	return result, ds
}

// addConfiguredProviders adds the providers of provider blocks, which need
// no resource to be validated.
func addConfiguredProviders(cfg *config.Config, requirements map[addrs.Provider]discovery.Constraints) {
	cfg.DeepEach(func(c *config.Config) {
		for _, p := range c.Module.ProviderConfigs {
			provider := c.Module.ProviderForLocalName(p.Name)
			if _, ok := requirements[provider]; !ok && !provider.IsZero() && !provider.IsBuiltIn() {
				requirements[provider] = nil
			}
		}
	})
}

// missingProviders are OpenTofu's errors for providers that are not
// installed, one each, in the order of their addresses.
func missingProviders(missing []addrs.Provider) diags.Diagnostics {
	names := make([]string, len(missing))
	for i, p := range missing {
		names[i] = p.String()
	}
	sort.Strings(names)
	var ds diags.Diagnostics
	for _, name := range names {
		ds = ds.Append(diags.Errorf("Missing required provider",
			"This configuration requires provider %s, but that provider isn't available. You may be able to install it automatically by running:\n  terrane init", name))
	}
	return ds
}

// launch starts the resolved providers at once and fetches their schemas
// (from the schema cache when it has them).
func (p *validationProviders) launch(ctx context.Context, packages map[addrs.Provider]workdir.ResolvedProvider) diags.Diagnostics {
	store, err := plugin.DefaultSchemaStore()
	var ds diags.Diagnostics
	if err != nil {
		ds = ds.Append(diags.Warnf("Provider schema cache unavailable", "Schemas will be fetched from each provider: %s.", err))
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for addr, pkg := range packages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rp, more := launchForValidation(ctx, addr, pkg, store)
			mu.Lock()
			defer mu.Unlock()
			ds = ds.Append(more)
			if rp != nil {
				p.providers[addr] = rp
			}
		}()
	}
	wg.Wait()
	return ds
}

func launchForValidation(ctx context.Context, addr addrs.Provider, pkg workdir.ResolvedProvider, store *plugin.SchemaStore) (*validate.Provider, diags.Diagnostics) {
	where := fmt.Sprintf("provider[%q]", addr.String())
	started, err := pkg.Launch(ctx, store)
	if err != nil {
		return nil, diags.Diagnostics{}.Append(err).WithAddress(where)
	}
	schemas := started.GetProviderSchema(ctx)
	if schemas.Diagnostics.HasErrors() {
		_ = started.Close()
		return nil, schemas.Diagnostics.WithAddress(where)
	}
	return &validate.Provider{Interface: started, Schema: schemas}, schemas.Diagnostics.WithAddress(where)
}
