package engine

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/builtin/remotestate"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/validate"
	"github.com/terrane/terrane/internal/version"
)

// providerSet is the provider processes of one walk: one per provider
// configuration, started through the provider's factory, plus the schemas
// of every provider, fetched once per provider and shared.
type providerSet struct {
	e       *Engine
	schemas *providers.Schemas

	mu sync.Mutex
	// spare holds the process each provider's schema was fetched from,
	// handed to that provider's first configuration so no process is
	// started for nothing.
	spare      map[addrs.Provider]providers.Interface
	configured map[string]*configuredProvider // by AbsProviderConfigInstance.String()
	// instanceKeys are the keys of configurations with for_each.
	instanceKeys map[string][]string
	// byResource are the providers Options.ProviderWrapper put in front
	// of single resources (forResource).
	byResource map[string]*configuredProvider
}

// configuredProvider is one provider configuration's process.
type configuredProvider struct {
	addr addrs.AbsProviderConfig
	// key is the instance of a configuration with for_each; NoKey for
	// one without.
	key   addrs.InstanceKey
	iface providers.Interface
	// stopped is set once a call found the provider's process gone; no
	// later change is started on it (see walker.operation).
	stopped atomic.Bool
}

// instanceAddr is the provider configuration instance changes record.
func (p *configuredProvider) instanceAddr() addrs.AbsProviderConfigInstance {
	return addrs.AbsProviderConfigInstance{Config: p.addr, Key: p.key}
}

// BuiltinProviders are the providers the engine runs in-process, by
// provider address: today terraform.io/builtin/terraform (terraform_data,
// terraform_remote_state). Commands use it to read their schemas, as they
// do an installed provider's; the engine runs its own, reading remote
// state through Options.RemoteState.
func BuiltinProviders() map[addrs.Provider]providers.Factory {
	return builtinProviders(nil)
}

func builtinProviders(remoteState *remotestate.DataSource) map[addrs.Provider]providers.Factory {
	return map[addrs.Provider]providers.Factory{
		addrs.TerraformProvider: func(context.Context) (providers.Interface, error) { return newBuiltinTerraform(remoteState), nil },
	}
}

func (e *Engine) factory(provider addrs.Provider) (providers.Factory, bool) {
	if f, ok := builtinProviders(e.opts.RemoteState)[provider]; ok {
		return f, true
	}
	f, ok := e.opts.Providers[provider]
	return f, ok
}

// start launches a process of provider and remembers it for Close.
func (e *Engine) start(ctx context.Context, provider addrs.Provider) (providers.Interface, diags.Diagnostics) {
	f, ok := e.factory(provider)
	if !ok {
		return nil, diags.Diagnostics{diags.Errorf("Missing required provider",
			"This configuration requires provider %s, but that provider isn't available. You may be able to install it automatically by running:\n  terrane init", provider)}
	}
	p, err := f(ctx)
	if err != nil {
		return nil, diags.Diagnostics{}.Append(fmt.Errorf("starting provider %s: %w", addrs.ProviderForDisplay(provider), err))
	}
	e.mu.Lock()
	e.running = append(e.running, p)
	e.mu.Unlock()
	return p, nil
}

// loadSchemas starts one process of each provider, in parallel, and
// fetches its schemas.
func (e *Engine) loadSchemas(ctx context.Context, needed []addrs.Provider) (*providerSet, diags.Diagnostics) {
	set := &providerSet{
		e:          e,
		schemas:    &providers.Schemas{Providers: map[addrs.Provider]providers.GetProviderSchemaResponse{}, Identities: map[addrs.Provider]providers.GetResourceIdentitySchemasResponse{}},
		spare:      map[addrs.Provider]providers.Interface{},
		configured: map[string]*configuredProvider{},
	}
	return set, set.loadSchemas(ctx, needed)
}

// loadSchemas starts a process of each provider in needed, in parallel,
// and keeps its schemas and the process, as a spare for the first
// configuration of that provider.
func (s *providerSet) loadSchemas(ctx context.Context, needed []addrs.Provider) diags.Diagnostics {
	var (
		mu sync.Mutex
		wg sync.WaitGroup
		ds diags.Diagnostics
	)
	for _, provider := range needed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, startDiags := s.e.start(ctx, provider)
			var resp providers.GetProviderSchemaResponse
			var ids providers.GetResourceIdentitySchemasResponse
			if p != nil {
				resp = p.GetProviderSchema(ctx)
				ids = p.GetResourceIdentitySchemas(ctx)
			}
			mu.Lock()
			defer mu.Unlock()
			ds = ds.Append(startDiags).Append(resp.Diagnostics.WithAddress(addrs.ProviderForDisplay(provider)))
			if p == nil || resp.Diagnostics.HasErrors() {
				return
			}
			s.mu.Lock()
			s.schemas.Providers[provider] = resp
			s.schemas.Identities[provider] = ids
			s.spare[provider] = p
			s.mu.Unlock()
		}()
	}
	wg.Wait()
	s.e.mu.Lock()
	s.e.schemas = s.schemas
	s.e.mu.Unlock()
	return ds
}

// validationProviders are the set's spare processes, unconfigured, with
// their schemas, for validation before the walk configures them.
func (s *providerSet) validationProviders() validate.Providers {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(validate.Providers, len(s.spare))
	for addr, p := range s.spare {
		out[addr] = &validate.Provider{Interface: p, Schema: s.schemas.Providers[addr]}
	}
	return out
}

// configure starts the process of one provider configuration (taking the
// spare one when there is one), validates its configuration and
// configures it. An unknown configuration still configures the provider.
// The provider's diagnostics are placed in body, the configuration's block
// (nil for a provider with none), as OpenTofu places them.
func (s *providerSet) configure(ctx context.Context, inst addrs.AbsProviderConfigInstance, cfgVal cty.Value, body hcl.Body) diags.Diagnostics {
	addr := inst.Config
	p, ds := s.process(ctx, addr.Provider)
	if ds.HasErrors() {
		return ds.WithAddress(inst.String())
	}
	p = s.wrapConfiguration(addr, p)
	unmarked, _ := cfgVal.UnmarkDeep()
	validate := p.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: unmarked})
	ds = ds.Append(validate.Diagnostics.WithAddress(inst.String()).InConfigBody(body))
	if ds.HasErrors() {
		return ds.WithAddress(inst.String())
	}
	resp := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{
		TerraformVersion: version.OpenTofuVersion, Config: unmarked,
		ClientCapabilities: providers.ClientCapabilities{WriteOnlyAttributesAllowed: true},
	})
	ds = ds.Append(resp.Diagnostics.WithAddress(inst.String()).InConfigBody(body))
	s.mu.Lock()
	s.configured[inst.String()] = &configuredProvider{addr: addr, key: inst.Key, iface: p}
	s.mu.Unlock()
	return ds.WithAddress(inst.String())
}

// process takes the spare process of provider, or starts one and tells it
// its schema.
func (s *providerSet) process(ctx context.Context, provider addrs.Provider) (providers.Interface, diags.Diagnostics) {
	s.mu.Lock()
	p := s.spare[provider]
	delete(s.spare, provider)
	s.mu.Unlock()
	if p != nil {
		return p, nil
	}
	p, ds := s.e.start(ctx, provider)
	if ds.HasErrors() {
		return nil, ds
	}
	if resp, ok := s.schemas.Providers[provider]; !ok || !resp.ServerCapabilities.GetProviderSchemaOptional {
		// Each process must be told its schema before use unless it
		// announced it need not be.
		ds = ds.Append(p.GetProviderSchema(ctx).Diagnostics)
	}
	return p, ds
}

// startUnconfigured makes a process of provider available as the
// configuration inst without configuring it: enough for its schema, state
// upgrades and functions, which is all an eval walk asks of it.
func (s *providerSet) startUnconfigured(ctx context.Context, inst addrs.AbsProviderConfigInstance) diags.Diagnostics {
	p, ds := s.process(ctx, inst.Config.Provider)
	if ds.HasErrors() {
		return ds.WithAddress(inst.String())
	}
	p = s.wrapConfiguration(inst.Config, p)
	s.mu.Lock()
	s.configured[inst.String()] = &configuredProvider{addr: inst.Config, key: inst.Key, iface: p}
	s.mu.Unlock()
	return ds.WithAddress(inst.String())
}

// get is the process of a provider configuration without for_each.
func (s *providerSet) get(addr addrs.AbsProviderConfig) *configuredProvider {
	return s.getInstance(addrs.AbsProviderConfigInstance{Config: addr, Key: addrs.NoKey})
}

func (s *providerSet) getInstance(inst addrs.AbsProviderConfigInstance) *configuredProvider {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.configured[inst.String()]
}

// resolveProviderConfig finds the provider configuration a block in module
// uses under the local name local: a provider block in the module, one
// passed in by the module call, one inherited from the parent (default
// configurations only), or an implied empty configuration in the root.
func resolveProviderConfig(module *config.Config, local addrs.LocalProviderConfig) addrs.AbsProviderConfig {
	provider := module.Module.ProviderForLocalName(local.LocalName)
	for c := module; ; {
		if c.HasOwnProviderConfig(local) {
			return addrs.AbsProviderConfig{Module: c.Path, Provider: provider, Alias: local.Alias}
		}
		if c.Parent == nil {
			return addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: provider, Alias: local.Alias}
		}
		call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
		passed := false
		if call != nil {
			for _, pp := range call.Providers {
				if pp.InChild.LocalName == local.LocalName && pp.InChild.Alias == local.Alias {
					local, passed = pp.InParent, true
					break
				}
			}
		}
		if !passed {
			if local.Alias != "" {
				return addrs.AbsProviderConfig{Module: c.Path, Provider: provider, Alias: local.Alias}
			}
			local = addrs.LocalProviderConfig{LocalName: localNameFor(c.Parent.Module, provider)}
		}
		c = c.Parent
		provider = c.Module.ProviderForLocalName(local.LocalName)
	}
}

// localNameFor is the name module uses for provider: its
// required_providers entry, else the provider's type.
func localNameFor(module *config.Module, provider addrs.Provider) string {
	names := make([]string, 0, len(module.RequiredProviders))
	for name, req := range module.RequiredProviders {
		if req.Type == provider {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return provider.Type
	}
	sort.Strings(names)
	return names[0]
}

// functionResolver routes provider::NAME::FUNCTION calls made in module to
// CallFunction of the provider configuration NAME resolves to there.
func (w *walker) functionResolver(module *config.Config) lang.ProviderFunctionResolver {
	return func(ref lang.ProviderFunctionRef) (function.Function, bool, hcl.Diagnostics) {
		addr := resolveProviderConfig(module, addrs.LocalProviderConfig{LocalName: ref.ProviderName, Alias: ref.Alias})
		resp, ok := w.providers.schemas.Providers[addr.Provider]
		if !ok {
			return function.Function{}, false, nil
		}
		decl, found := resp.Functions[ref.Function]
		if !found {
			return function.Function{}, false, nil
		}
		p := w.providers.get(addr)
		if p == nil {
			// Not started (a provider whose functions alone are used is
			// started with the walk): nothing can be known yet.
			return unknownFunction(decl), true, nil
		}
		return providers.CallableFunction(context.WithoutCancel(w.ctx), p.iface, ref.Function, decl), true, nil
	}
}

// unknownFunction takes the arguments decl declares and returns an unknown
// result.
func unknownFunction(decl providers.FunctionDecl) function.Function {
	spec := &function.Spec{Type: function.StaticReturnType(decl.ReturnType),
		Impl: func(_ []cty.Value, ret cty.Type) (cty.Value, error) { return cty.UnknownVal(ret), nil }}
	for _, p := range decl.Parameters {
		spec.Params = append(spec.Params, function.Parameter{Name: p.Name, Type: p.Type, AllowNull: true, AllowUnknown: true, AllowDynamicType: true})
	}
	if v := decl.VariadicParameter; v != nil {
		spec.VarParam = &function.Parameter{Name: v.Name, Type: v.Type, AllowNull: true, AllowUnknown: true, AllowDynamicType: true}
	}
	return function.New(spec)
}

// stopOnCancel asks every configured provider to stop its in-flight
// operations once ctx is cancelled, as Terraform does on the first
// interrupt: calls already started then end early with the provider's own
// answer, which is recorded, instead of running to completion. Call the
// returned function when the walk is over.
func (s *providerSet) stopOnCancel(ctx context.Context) func() bool {
	return context.AfterFunc(ctx, func() {
		s.mu.Lock()
		running := make([]*configuredProvider, 0, len(s.configured))
		for _, p := range s.configured {
			running = append(running, p)
		}
		s.mu.Unlock()
		for _, p := range running {
			if err := p.iface.StopProvider(context.Background()); err != nil {
				s.e.logger.Warn("provider did not accept the stop request", "provider", p.addr.String(), "error", err)
			}
		}
	})
}
