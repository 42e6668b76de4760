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
// configure the same provider with the same values. So a plan or apply
// that configures a provider with exactly the values a running process
// was configured with uses that process instead of starting another, as
// the calls of one walk share a process; walks running at the same time
// share it too, since a configured provider answers concurrent calls. A
// process is still configured once, with one configuration; one
// configured with values not known yet, or that failed or was stopped,
// is used by nobody else and stopped when its walk is done.
type processPool struct {
	factories map[addrs.Provider]providers.Factory

	mu     sync.Mutex
	procs  map[addrs.Provider][]*pooledProcess
	closed bool
}

// pooledProcess is one started provider process.
type pooledProcess struct {
	p providers.Interface
	// users counts the walks using the process.
	users int
	// claimed is set once a walk is configuring the process.
	claimed bool
	// configured is set once ConfigureProvider succeeded with config.
	configured bool
	config     cty.Value
	resp       providers.ConfigureProviderResponse
	// spent marks a process that must not be used by another walk.
	spent bool
}

func newProcessPool(factories map[addrs.Provider]providers.Factory) *processPool {
	return &processPool{factories: factories, procs: map[addrs.Provider][]*pooledProcess{}}
}

// Factories are factories that hand out the pool's processes.
func (pool *processPool) Factories() map[addrs.Provider]providers.Factory {
	out := make(map[addrs.Provider]providers.Factory, len(pool.factories))
	for provider := range pool.factories {
		out[provider] = func(ctx context.Context) (providers.Interface, error) {
			// Until the walk configures it, any process answers its
			// calls (schemas, validation); ConfigureProvider finds it
			// the right one.
			proc := pool.take(provider, func(*pooledProcess) bool { return true })
			if proc != nil {
				return &pooledProvider{pool: pool, provider: provider, proc: proc}, nil
			}
			proc, err := pool.acquire(ctx, provider)
			if err != nil {
				return nil, err
			}
			return &pooledProvider{pool: pool, provider: provider, proc: proc}, nil
		}
	}
	return out
}

// acquire takes a process of provider that nobody configures or uses, or
// starts a new one.
func (pool *processPool) acquire(ctx context.Context, provider addrs.Provider) (*pooledProcess, error) {
	if proc := pool.take(provider, func(proc *pooledProcess) bool { return !proc.claimed && proc.users == 0 }); proc != nil {
		return proc, nil
	}
	p, err := pool.factories[provider](ctx)
	if err != nil {
		return nil, err
	}
	proc := &pooledProcess{p: p, users: 1}
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if pool.closed {
		proc.spent = true
	}
	pool.procs[provider] = append(pool.procs[provider], proc)
	return proc, nil
}

// take adds a user to the first live process of provider match accepts.
func (pool *processPool) take(provider addrs.Provider, match func(*pooledProcess) bool) *pooledProcess {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	for _, proc := range pool.procs[provider] {
		if !proc.spent && match(proc) {
			proc.users++
			return proc
		}
	}
	return nil
}

// claim makes proc the process its one user configures; false when it is
// configured, being configured, or used by another walk too.
func (pool *processPool) claim(proc *pooledProcess) bool {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if proc.claimed || proc.users != 1 || proc.spent {
		return false
	}
	proc.claimed = true
	return true
}

// configured records what a process was configured with.
func (pool *processPool) configured(proc *pooledProcess, config cty.Value, resp providers.ConfigureProviderResponse, reusable bool) {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	proc.configured, proc.config, proc.resp = true, config, resp
	proc.spent = proc.spent || !reusable
}

// release ends one walk's use of a process, stopping it when it is spent
// and nobody uses it any more.
func (pool *processPool) release(provider addrs.Provider, proc *pooledProcess) {
	pool.mu.Lock()
	proc.users--
	stop := (proc.spent || pool.closed) && proc.users == 0
	if stop {
		procs := pool.procs[provider]
		for i, other := range procs {
			if other == proc {
				pool.procs[provider] = append(procs[:i:i], procs[i+1:]...)
				break
			}
		}
	}
	pool.mu.Unlock()
	if stop {
		_ = proc.p.Close()
	}
}

// spend keeps a process from being used by another walk.
func (pool *processPool) spend(proc *pooledProcess) {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	proc.spent = true
}

// close stops every process nobody uses; the others stop when their
// walks are done.
func (pool *processPool) close() {
	pool.mu.Lock()
	pool.closed = true
	var idle []*pooledProcess
	for provider, procs := range pool.procs {
		var kept []*pooledProcess
		for _, proc := range procs {
			if proc.users == 0 {
				idle = append(idle, proc)
			} else {
				kept = append(kept, proc)
			}
		}
		pool.procs[provider] = kept
	}
	pool.mu.Unlock()
	for _, proc := range idle {
		_ = proc.p.Close()
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
	if reusable {
		sameConfig := func(proc *pooledProcess) bool { return proc.configured && proc.config.RawEquals(req.Config) }
		if shared := pp.pool.take(pp.provider, sameConfig); shared != nil {
			pp.pool.release(pp.provider, pp.proc)
			pp.proc = shared
			return shared.resp
		}
	}
	if !pp.pool.claim(pp.proc) {
		// Configured or shared: this walk needs a process of its own.
		fresh, err := pp.pool.acquire(ctx, pp.provider)
		if err == nil && !pp.pool.claim(fresh) {
			pp.pool.release(pp.provider, fresh)
			err = context.Canceled // the pool is closing
		}
		if err != nil {
			return providers.ConfigureProviderResponse{Diagnostics: diags.Diagnostics{}.Append(err)}
		}
		pp.pool.release(pp.provider, pp.proc)
		pp.proc = fresh
	}
	resp := pp.proc.p.ConfigureProvider(ctx, req)
	pp.pool.configured(pp.proc, req.Config, resp, reusable && !resp.Diagnostics.HasErrors())
	return resp
}

// Close ends this walk's use of the process.
func (pp *pooledProvider) Close() error {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	if !pp.closed {
		pp.closed = true
		pp.pool.release(pp.provider, pp.proc)
	}
	return nil
}

// StopProvider stops the process's operations; no other walk uses it
// afterwards.
func (pp *pooledProvider) StopProvider(ctx context.Context) error {
	pp.mu.RLock()
	proc := pp.proc
	pp.mu.RUnlock()
	pp.pool.spend(proc)
	return proc.p.StopProvider(ctx)
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
