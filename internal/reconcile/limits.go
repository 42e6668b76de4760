package reconcile

import (
	"context"
	"sync"

	"golang.org/x/time/rate"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/providers"
)

// ProviderLimit bounds how fast the reconciler reads objects through one
// provider, across every workspace it reconciles: a cloud API's rate limit
// is per account, not per workspace.
type ProviderLimit struct {
	// Provider is a provider source address (hashicorp/aws or
	// registry.terraform.io/hashicorp/aws).
	Provider       string
	ReadsPerSecond float64
	Burst          int
}

func parseProvider(source string) (addrs.Provider, error) {
	return addrs.ParseProviderSource(source)
}

// limiters holds one token bucket per limited provider, shared by every
// run of the reconciler.
type limiters struct {
	mu      sync.Mutex
	buckets map[addrs.Provider]*rate.Limiter
}

func newLimiters(limits []ProviderLimit) (*limiters, error) {
	l := &limiters{buckets: map[addrs.Provider]*rate.Limiter{}}
	for _, limit := range limits {
		provider, err := parseProvider(limit.Provider)
		if err != nil {
			return nil, err
		}
		burst := max(limit.Burst, 1)
		l.buckets[provider] = rate.NewLimiter(rate.Limit(limit.ReadsPerSecond), burst)
	}
	return l, nil
}

// bucket is provider's bucket. A limit on hashicorp/aws (which means
// registry.opentofu.org/hashicorp/aws) also holds for a configuration
// that names registry.terraform.io/hashicorp/aws: both are the same
// provider, as they are when state moves between the two.
func (l *limiters) bucket(provider addrs.Provider) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	if bucket, ok := l.buckets[provider]; ok {
		return bucket
	}
	for limited, bucket := range l.buckets {
		if addrs.IsDefaultRegistryEquivalent(limited, provider) {
			return bucket
		}
	}
	return nil
}

// forRun is the engine.ProviderWrapper of one run, whose waits for a
// bucket end with ctx: the engine calls providers with a context that is
// never cancelled (a call in flight runs to its end), so a wait bounded
// only by that context could outlast the run's timeout and serve's stop.
func (l *limiters) forRun(ctx context.Context) engine.ProviderWrapper {
	return runLimits{limiters: l, ctx: ctx}
}

type runLimits struct {
	*limiters
	ctx context.Context
}

// WrapConfiguration implements engine.ProviderWrapper: a limited
// provider's ReadResource calls wait for the provider's bucket.
func (l runLimits) WrapConfiguration(addr addrs.AbsProviderConfig, _ providers.GetProviderSchemaResponse, p providers.Interface) providers.Interface {
	bucket := l.bucket(addr.Provider)
	if bucket == nil {
		return p
	}
	return &limitedProvider{Interface: p, bucket: bucket, provider: addr.Provider, run: l.ctx}
}

// WrapResource implements engine.ProviderWrapper; resources share their
// configuration's limit.
func (runLimits) WrapResource(_ addrs.ConfigResource, _ addrs.AbsProviderConfig, _ providers.GetProviderSchemaResponse, p providers.Interface) providers.Interface {
	return p
}

type limitedProvider struct {
	providers.Interface
	bucket   *rate.Limiter
	provider addrs.Provider
	run      context.Context
}

func (p *limitedProvider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	wait, stop := context.WithCancel(ctx)
	defer stop()
	defer context.AfterFunc(p.run, stop)()
	if deadline, ok := p.run.Deadline(); ok {
		var cancel context.CancelFunc
		wait, cancel = context.WithDeadline(wait, deadline)
		defer cancel()
	}
	if err := p.bucket.Wait(wait); err != nil {
		return providers.ReadResourceResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Refresh not started",
			"Waiting for the read rate limit of %s (provider_limit): %s.", addrs.ProviderForDisplay(p.provider), err)}}
	}
	return p.Interface.ReadResource(ctx, req)
}
