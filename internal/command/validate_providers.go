package command

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/workdir"
)

// This file finds and starts the providers a configuration uses, so that
// validate can check blocks against their schemas.

// validationProviders are the configuration's providers that could be
// started, with their schemas, and the ones that could not be found.
type validationProviders struct {
	running map[addrs.Provider]*runningProvider
	missing []addrs.Provider
}

type runningProvider struct {
	provider providers.Interface
	schema   providers.GetProviderSchemaResponse
}

// schemas are the running providers' schemas.
func (p *validationProviders) schemas() *providers.Schemas {
	out := &providers.Schemas{Providers: map[addrs.Provider]providers.GetProviderSchemaResponse{}}
	for addr, rp := range p.running {
		out.Providers[addr] = rp.schema
	}
	return out
}

func (p *validationProviders) close() {
	for _, rp := range p.running {
		_ = rp.provider.Close()
	}
}

// startValidationProviders finds and starts every provider the
// configuration uses. A provider that is not installed is not an error
// for validate: its blocks are checked without a schema and one warning
// names them all.
func startValidationProviders(ctx context.Context, cfg *config.Config) (*validationProviders, diags.Diagnostics) {
	result := &validationProviders{running: map[addrs.Provider]*runningProvider{}}
	builtin := engine.BuiltinTerraform()
	result.running[addrs.TerraformProvider] = &runningProvider{provider: builtin, schema: builtin.GetProviderSchema(ctx)}
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
	for provider := range requirements {
		if _, found := packages[provider]; !found {
			result.missing = append(result.missing, provider)
		}
	}
	if len(result.missing) > 0 {
		ds = ds.Append(missingProvidersWarning(result.missing))
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

func missingProvidersWarning(missing []addrs.Provider) diags.Diagnostic {
	names := make([]string, len(missing))
	for i, p := range missing {
		names[i] = p.String()
	}
	sort.Strings(names)
	return diags.Warnf("Providers not checked",
		"Terrane could not find these providers: %s. The blocks that use them were checked against the language's rules only, not against the providers' schemas. Run \"terrane init\" to install the providers, then run \"terrane validate\" again.",
		strings.Join(names, ", "))
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
				p.running[addr] = rp
			}
		}()
	}
	wg.Wait()
	return ds
}

func launchForValidation(ctx context.Context, addr addrs.Provider, pkg workdir.ResolvedProvider, store *plugin.SchemaStore) (*runningProvider, diags.Diagnostics) {
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
	return &runningProvider{provider: started, schema: schemas}, schemas.Diagnostics.WithAddress(where)
}
