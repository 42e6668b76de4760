package moduletest

import (
	"context"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
)

// processPool lets the runs of a suite share provider processes. Every
// plan and apply asks for a process per provider configuration, and
// starting one (exec, the plugin handshake, TLS keys) takes far longer
// than a test's plan; a run's plan, its apply and the next runs usually
// configure the same provider with the same values. So a walk's process
// goes back to the pool when the walk ends, and a later walk that
// configures it with exactly the same known values takes it again instead
// of starting another. A process is still configured once, with one
// configuration, and used by one walk at a time; one configured with
// values not known yet, or that failed or was stopped, is not reused.
type processPool struct {
	factories map[addrs.Provider]providers.Factory

	mu     sync.Mutex
	idle   map[addrs.Provider][]*pooledProcess
	closed bool
}

// pooledProcess is one started provider process.
type pooledProcess struct {
	p providers.Interface
	// configured is set once ConfigureProvider succeeded with config.
	configured bool
	config     cty.Value
	resp       providers.ConfigureProviderResponse
	// spent marks a process that must not be used again.
	spent bool
}

func newProcessPool(factories map[addrs.Provider]providers.Factory) *processPool {
	return &processPool{factories: factories, idle: map[addrs.Provider][]*pooledProcess{}}
}

// Factories are factories that hand out the pool's processes.
func (pool *processPool) Factories() map[addrs.Provider]providers.Factory {
	out := make(map[addrs.Provider]providers.Factory, len(pool.factories))
	for provider := range pool.factories {
		out[provider] = func(ctx context.Context) (providers.Interface, error) {
			proc, err := pool.acquire(ctx, provider)
			if err != nil {
				return nil, err
			}
			return &pooledProvider{pool: pool, provider: provider, proc: proc}, nil
		}
	}
	return out
}

// acquire takes an idle process of provider that is not configured yet,
// or starts a new one.
func (pool *processPool) acquire(ctx context.Context, provider addrs.Provider) (*pooledProcess, error) {
	if proc := pool.takeIdle(provider, func(proc *pooledProcess) bool { return !proc.configured }); proc != nil {
		return proc, nil
	}
	p, err := pool.factories[provider](ctx)
	if err != nil {
		return nil, err
	}
	return &pooledProcess{p: p}, nil
}

// takeIdle takes the first idle process of provider that match accepts.
func (pool *processPool) takeIdle(provider addrs.Provider, match func(*pooledProcess) bool) *pooledProcess {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	for i, proc := range pool.idle[provider] {
		if match(proc) {
			pool.idle[provider] = append(pool.idle[provider][:i:i], pool.idle[provider][i+1:]...)
			return proc
		}
	}
	return nil
}

// release gives a process back once a walk is done with it.
func (pool *processPool) release(provider addrs.Provider, proc *pooledProcess) {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if proc.spent || pool.closed {
		proc.spent = true
		_ = proc.p.Close()
		return
	}
	pool.idle[provider] = append(pool.idle[provider], proc)
}

// close stops every process the pool started that no walk holds.
func (pool *processPool) close() {
	pool.mu.Lock()
	pool.closed = true
	idle := pool.idle
	pool.idle = map[addrs.Provider][]*pooledProcess{}
	pool.mu.Unlock()
	for _, procs := range idle {
		for _, proc := range procs {
			_ = proc.p.Close()
		}
	}
}

// pooledProvider is a walk's provider process: the pool's process it is
// bound to, exchanged for a matching one when the walk configures it.
// Every method of providers.Interface is written out, so one added to the
// interface has to be decided on here.
type pooledProvider struct {
	pool     *processPool
	provider addrs.Provider

	mu     sync.RWMutex
	proc   *pooledProcess
	closed bool
}

func (pp *pooledProvider) current() providers.Interface {
	pp.mu.RLock()
	defer pp.mu.RUnlock()
	return pp.proc.p
}

// ConfigureProvider configures the bound process, or binds to a process
// already configured with the same values and configures nothing.
func (pp *pooledProvider) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	reusable := req.Config.IsWhollyKnown()
	sameConfig := func(proc *pooledProcess) bool { return proc.configured && proc.config.RawEquals(req.Config) }
	if reusable && sameConfig(pp.proc) {
		return pp.proc.resp
	}
	if reusable {
		if match := pp.pool.takeIdle(pp.provider, sameConfig); match != nil {
			pp.pool.release(pp.provider, pp.proc)
			pp.proc = match
			return match.resp
		}
	}
	if pp.proc.configured {
		// Configured differently: this walk needs a process of its own.
		fresh, err := pp.pool.acquire(ctx, pp.provider)
		if err != nil {
			return providers.ConfigureProviderResponse{Diagnostics: diags.Diagnostics{}.Append(err)}
		}
		pp.pool.release(pp.provider, pp.proc)
		pp.proc = fresh
	}
	resp := pp.proc.p.ConfigureProvider(ctx, req)
	pp.proc.configured, pp.proc.config, pp.proc.resp = true, req.Config, resp
	pp.proc.spent = resp.Diagnostics.HasErrors() || !reusable
	return resp
}

// Close gives the process back to the pool.
func (pp *pooledProvider) Close() error {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	if !pp.closed {
		pp.closed = true
		pp.pool.release(pp.provider, pp.proc)
	}
	return nil
}

// StopProvider stops the process's operations; it is not used again.
func (pp *pooledProvider) StopProvider(ctx context.Context) error {
	pp.mu.Lock()
	pp.proc.spent = true
	p := pp.proc.p
	pp.mu.Unlock()
	return p.StopProvider(ctx)
}

// The other calls go to the bound process.

func (pp *pooledProvider) GetMetadata(ctx context.Context) providers.GetMetadataResponse {
	return pp.current().GetMetadata(ctx)
}

func (pp *pooledProvider) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	return pp.current().GetProviderSchema(ctx)
}

func (pp *pooledProvider) GetResourceIdentitySchemas(ctx context.Context) providers.GetResourceIdentitySchemasResponse {
	return pp.current().GetResourceIdentitySchemas(ctx)
}

func (pp *pooledProvider) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return pp.current().ValidateProviderConfig(ctx, req)
}

func (pp *pooledProvider) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	return pp.current().ValidateResourceConfig(ctx, req)
}

func (pp *pooledProvider) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	return pp.current().ValidateDataResourceConfig(ctx, req)
}

func (pp *pooledProvider) ValidateEphemeralResourceConfig(ctx context.Context, req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	return pp.current().ValidateEphemeralResourceConfig(ctx, req)
}

func (pp *pooledProvider) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	return pp.current().UpgradeResourceState(ctx, req)
}

func (pp *pooledProvider) UpgradeResourceIdentity(ctx context.Context, req providers.UpgradeResourceIdentityRequest) providers.UpgradeResourceIdentityResponse {
	return pp.current().UpgradeResourceIdentity(ctx, req)
}

func (pp *pooledProvider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	return pp.current().ReadResource(ctx, req)
}

func (pp *pooledProvider) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	return pp.current().PlanResourceChange(ctx, req)
}

func (pp *pooledProvider) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	return pp.current().ApplyResourceChange(ctx, req)
}

func (pp *pooledProvider) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	return pp.current().ImportResourceState(ctx, req)
}

func (pp *pooledProvider) MoveResourceState(ctx context.Context, req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	return pp.current().MoveResourceState(ctx, req)
}

func (pp *pooledProvider) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	return pp.current().ReadDataSource(ctx, req)
}

func (pp *pooledProvider) OpenEphemeralResource(ctx context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	return pp.current().OpenEphemeralResource(ctx, req)
}

func (pp *pooledProvider) RenewEphemeralResource(ctx context.Context, req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	return pp.current().RenewEphemeralResource(ctx, req)
}

func (pp *pooledProvider) CloseEphemeralResource(ctx context.Context, req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	return pp.current().CloseEphemeralResource(ctx, req)
}

func (pp *pooledProvider) GetFunctions(ctx context.Context) providers.GetFunctionsResponse {
	return pp.current().GetFunctions(ctx)
}

func (pp *pooledProvider) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	return pp.current().CallFunction(ctx, req)
}

var _ providers.Interface = (*pooledProvider)(nil)
