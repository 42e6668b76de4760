package reconcile

import (
	"context"
	"sync"

	"golang.org/x/time/rate"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
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

func (l *limiters) bucket(provider addrs.Provider) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buckets[provider]
}

// WrapConfiguration implements engine.ProviderWrapper: a limited
// provider's ReadResource calls wait for the provider's bucket.
func (l *limiters) WrapConfiguration(addr addrs.AbsProviderConfig, _ providers.GetProviderSchemaResponse, p providers.Interface) providers.Interface {
	bucket := l.bucket(addr.Provider)
	if bucket == nil {
		return p
	}
	return &limitedProvider{Interface: p, bucket: bucket, provider: addr.Provider}
}

// WrapResource implements engine.ProviderWrapper; resources share their
// configuration's limit.
func (l *limiters) WrapResource(_ addrs.ConfigResource, _ addrs.AbsProviderConfig, _ providers.GetProviderSchemaResponse, p providers.Interface) providers.Interface {
	return p
}

type limitedProvider struct {
	providers.Interface
	bucket   *rate.Limiter
	provider addrs.Provider
}

func (p *limitedProvider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	if err := p.bucket.Wait(ctx); err != nil {
		return providers.ReadResourceResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Refresh not started",
			"Waiting for the read rate limit of %s: %s.", p.provider.ForDisplay(), err)}}
	}
	return p.Interface.ReadResource(ctx, req)
}
