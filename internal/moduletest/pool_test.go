package moduletest

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/providers"
)

// countedProcess stands for a started provider process and counts what
// the pool does with it; only the calls the pool makes are answered.
type countedProcess struct {
	providers.Interface
	configures int
	closed     bool
	config     cty.Value
}

func (p *countedProcess) ConfigureProvider(_ context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	p.configures++
	p.config = req.Config
	return providers.ConfigureProviderResponse{}
}

func (p *countedProcess) StopProvider(context.Context) error { return nil }

func (p *countedProcess) Close() error {
	p.closed = true
	return nil
}

func TestProcessPoolReusesProcessesConfiguredAlike(t *testing.T) {
	provider := addrs.Provider{Hostname: "registry.terraform.io", Namespace: "terrane", Type: "tpf"}
	var started []*countedProcess
	pool := newProcessPool(map[addrs.Provider]providers.Factory{provider: func(context.Context) (providers.Interface, error) {
		p := &countedProcess{}
		started = append(started, p)
		return p, nil
	}})
	factory := pool.Factories()[provider]
	ctx := context.Background()
	walk := func(config cty.Value) *countedProcess {
		t.Helper()
		p, err := factory(ctx)
		if err != nil {
			t.Fatal(err)
		}
		p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: config})
		bound := p.(*pooledProvider).proc.p.(*countedProcess)
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		return bound
	}
	a := cty.ObjectVal(map[string]cty.Value{"root_dir": cty.StringVal("a")})
	b := cty.ObjectVal(map[string]cty.Value{"root_dir": cty.StringVal("b")})
	first := walk(a)
	if again := walk(a); again != first || first.configures != 1 {
		t.Errorf("a walk configuring the provider alike got another process or configured it again (%d configures)", first.configures)
	}
	other := walk(b)
	if other == first || !other.config.RawEquals(b) {
		t.Errorf("a walk configuring the provider differently got the process configured with %#v", other.config)
	}
	unknown := cty.ObjectVal(map[string]cty.Value{"root_dir": cty.UnknownVal(cty.String)})
	partial := walk(unknown)
	if !partial.closed {
		t.Errorf("a process configured with unknown values was kept for reuse")
	}
	if walk(a) != first || walk(b) != other {
		t.Errorf("processes were not found again by their configuration")
	}
	// Walks at the same time that configure the provider alike share the
	// configured process.
	one, _ := factory(ctx)
	two, _ := factory(ctx)
	one.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: a})
	two.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: a})
	if one.(*pooledProvider).proc != two.(*pooledProvider).proc || first.configures != 1 {
		t.Errorf("walks configuring alike at the same time did not share the configured process")
	}
	_ = one.Close()
	_ = two.Close()
	p, _ := factory(ctx)
	p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: a})
	stopped := p.(*pooledProvider).proc.p.(*countedProcess)
	_ = p.StopProvider(ctx)
	_ = p.Close()
	if !stopped.closed {
		t.Errorf("a stopped process was kept for reuse")
	}
	pool.close()
	for i, p := range started {
		if !p.closed {
			t.Errorf("process %d is still running after the pool closed", i)
		}
	}
}
