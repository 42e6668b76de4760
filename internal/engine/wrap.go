package engine

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/providers"
)

// ProviderWrapper puts other implementations in front of provider
// processes. `terrane test` answers a mock_provider configuration without
// calling the provider, and one resource's calls with override_resource
// values, through it. Implementations must be safe for concurrent use.
type ProviderWrapper interface {
	// WrapConfiguration is given the process of a provider configuration,
	// and the provider's schemas, before the configuration is validated
	// and configured; what it returns is used in its place.
	WrapConfiguration(addr addrs.AbsProviderConfig, schemas providers.GetProviderSchemaResponse, p providers.Interface) providers.Interface
	// WrapResource is given the provider (after WrapConfiguration) that a
	// resource's instances call, to plan, read, apply or destroy them.
	WrapResource(resource addrs.ConfigResource, provider addrs.AbsProviderConfig, schemas providers.GetProviderSchemaResponse, p providers.Interface) providers.Interface
}

// wrapConfiguration applies Options.ProviderWrapper to a configuration's
// process.
func (s *providerSet) wrapConfiguration(addr addrs.AbsProviderConfig, p providers.Interface) providers.Interface {
	if s.e.opts.ProviderWrapper == nil {
		return p
	}
	return s.e.opts.ProviderWrapper.WrapConfiguration(addr, s.schemas.Providers[addr.Provider], p)
}

// forResource is the provider a resource's instances call: p itself, or
// what Options.ProviderWrapper puts in front of it for that resource, made
// once per walk.
func (s *providerSet) forResource(resource addrs.ConfigResource, p *configuredProvider) *configuredProvider {
	if s.e.opts.ProviderWrapper == nil || p == nil {
		return p
	}
	key := resource.String() + "\x00" + p.instanceAddr().String()
	s.mu.Lock()
	defer s.mu.Unlock()
	if wrapped, ok := s.byResource[key]; ok {
		return wrapped
	}
	iface := s.e.opts.ProviderWrapper.WrapResource(resource, p.addr, s.schemas.Providers[p.addr.Provider], p.iface)
	wrapped := &configuredProvider{addr: p.addr, key: p.key, iface: iface}
	if s.byResource == nil {
		s.byResource = map[string]*configuredProvider{}
	}
	s.byResource[key] = wrapped
	return wrapped
}

// Evaluation is what the last plan or apply walk worked out in the root
// module, kept when Options.KeepValues is set so that expressions can be
// evaluated against it afterwards, as `terrane test` evaluates a run's
// assertions: against the planned values after a plan, the new ones after
// an apply.
type Evaluation struct {
	w *walker
}

// LastEvaluation returns the root module values of the last Plan or Apply,
// or nil when Options.KeepValues is not set or neither ran. Its scope may
// call providers (provider functions, values loaded on demand), so use it
// before Close.
func (e *Engine) LastEvaluation() *Evaluation {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.last
}

// keepEvaluation remembers w's values when the engine is asked to.
func (e *Engine) keepEvaluation(w *walker) {
	if !e.opts.KeepValues {
		return
	}
	e.mu.Lock()
	e.last = &Evaluation{w: w}
	e.mu.Unlock()
}

// Scope evaluates expressions in the root module: references to
// variables, locals, resources, data sources and module calls resolve to
// the walk's values.
func (ev *Evaluation) Scope() *lang.Scope {
	return ev.w.scopeIn(ev.w.cfg, addrs.RootModuleInstance, repetition{}, nil)
}

// Output returns the value the walk gave a root module output; false when
// the walk did not evaluate it.
func (ev *Evaluation) Output(name string) (cty.Value, bool) {
	return ev.w.values.get(ev.w.values.outputs, namedKey(addrs.RootModuleInstance, name))
}
