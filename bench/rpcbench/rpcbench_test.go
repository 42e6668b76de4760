package rpcbench

import (
	"github.com/terrane/terrane/internal/testing/procstat"

	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// target is a provider and a simple resource type of it.
type target struct {
	provider string
	resource string
}

var targets = []target{
	{provider: "tpf", resource: "tpf_thing"},
	{provider: "tpsdk", resource: "tpsdk_widget"},
}

var streamCounts = []int{1, 8}

func BenchmarkPlanResourceChange(b *testing.B) {
	forEachTarget(b, func(b *testing.B, r *resource) {
		r.run(b, func(ctx context.Context) error { return r.plan(ctx).Diagnostics.Err() })
	})
}

func BenchmarkApplyResourceChange(b *testing.B) {
	forEachTarget(b, func(b *testing.B, r *resource) {
		planned := r.plan(context.Background())
		if err := planned.Diagnostics.Err(); err != nil {
			b.Fatal(err)
		}
		r.run(b, func(ctx context.Context) error { return r.apply(ctx, planned).Diagnostics.Err() })
	})
}

// BenchmarkResourceSequence is what creating one instance costs in calls:
// validate, plan (plan walk), plan again (apply walk), apply.
func BenchmarkResourceSequence(b *testing.B) {
	forEachTarget(b, func(b *testing.B, r *resource) {
		r.run(b, func(ctx context.Context) error {
			if err := r.p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: r.typeName, Config: r.config}).Diagnostics.Err(); err != nil {
				return err
			}
			if err := r.plan(ctx).Diagnostics.Err(); err != nil {
				return err
			}
			planned := r.plan(ctx)
			if err := planned.Diagnostics.Err(); err != nil {
				return err
			}
			return r.apply(ctx, planned).Diagnostics.Err()
		})
	})
}

func forEachTarget(b *testing.B, body func(*testing.B, *resource)) {
	mirror := providertest.Build(b)
	for _, tg := range targets {
		for _, streams := range streamCounts {
			b.Run(fmt.Sprintf("%s/streams=%d", tg.provider, streams), func(b *testing.B) {
				r := launch(b, mirror, tg)
				r.streams = streams
				body(b, r)
				reportPeakMemory(b, r.p.PID())
			})
		}
	}
}

// resource is a configured provider process and one resource type's values.
type resource struct {
	p        *plugin.Provider
	typeName string
	block    *schema.Block
	config   cty.Value
	streams  int
}

func launch(b *testing.B, mirror *providertest.Mirror, tg target) *resource {
	ctx := context.Background()
	provider, err := addrs.ParseProviderSource(mirror.Source(tg.provider))
	if err != nil {
		b.Fatal(err)
	}
	p, err := plugin.Launch(ctx, plugin.Config{
		Provider: provider,
		Path:     mirror.Executable(tg.provider),
		Logger:   hclog.NewNullLogger(), // as a run with TERRANE_LOG unset
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	schemas := p.GetProviderSchema(ctx)
	if err := schemas.Diagnostics.Err(); err != nil {
		b.Fatal(err)
	}
	providerConfig := nullsExcept(schemas.Provider.Block, map[string]cty.Value{"root_dir": cty.StringVal(b.TempDir())})
	if err := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: providerConfig}).Diagnostics.Err(); err != nil {
		b.Fatal(err)
	}
	block := schemas.ResourceTypes[tg.resource].Block
	return &resource{
		p:        p,
		typeName: tg.resource,
		block:    block,
		config:   nullsExcept(block, map[string]cty.Value{"name": cty.StringVal("bench")}),
	}
}

func (r *resource) plan(ctx context.Context) providers.PlanResourceChangeResponse {
	return r.p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName:         r.typeName,
		PriorState:       cty.NullVal(r.block.ImpliedType()),
		ProposedNewState: proposedNew(r.block, r.config),
		Config:           r.config,
	})
}

func (r *resource) apply(ctx context.Context, planned providers.PlanResourceChangeResponse) providers.ApplyResourceChangeResponse {
	return r.p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName:       r.typeName,
		PriorState:     cty.NullVal(r.block.ImpliedType()),
		PlannedState:   planned.PlannedState,
		Config:         r.config,
		PlannedPrivate: planned.PlannedPrivate,
	})
}

// run calls op b.N times spread over r.streams goroutines and reports calls
// per second.
func (r *resource) run(b *testing.B, op func(context.Context) error) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	for s := 0; s < r.streams; s++ {
		n := b.N / r.streams
		if s < b.N%r.streams {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < n; i++ {
				if err := op(ctx); err != nil {
					once.Do(func() { firstErr = err })
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	if firstErr != nil {
		b.Fatal(firstErr)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
}

// reportPeakMemory reports the peak resident memory (VmHWM) of this process
// and of the provider's.
func reportPeakMemory(b *testing.B, providerPID int) {
	if kb, ok := procstat.PeakRSSKiB(os.Getpid()); ok {
		b.ReportMetric(float64(kb)/1024, "terrane-peak-MiB")
	}
	if kb, ok := procstat.PeakRSSKiB(providerPID); ok {
		b.ReportMetric(float64(kb)/1024, "provider-peak-MiB")
	}
}

// nullsExcept is an object of the block's type with the given attributes
// set and the rest null (empty for list, set and map blocks).
func nullsExcept(block *schema.Block, attrs map[string]cty.Value) cty.Value {
	ty := block.ImpliedType()
	vals := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, attrTy := range ty.AttributeTypes() {
		switch {
		case attrs[name] != cty.NilVal:
			vals[name] = attrs[name]
		case attrTy.IsListType():
			vals[name] = cty.ListValEmpty(attrTy.ElementType())
		case attrTy.IsSetType() && block.BlockTypes[name] != nil:
			vals[name] = cty.SetValEmpty(attrTy.ElementType())
		default:
			vals[name] = cty.NullVal(attrTy)
		}
	}
	return cty.ObjectVal(vals)
}

// proposedNew is a create's proposed new state: computed attributes the
// configuration leaves null become unknown.
func proposedNew(block *schema.Block, config cty.Value) cty.Value {
	vals := config.AsValueMap()
	for name, attr := range block.Attributes {
		if attr.Computed && vals[name].IsNull() {
			vals[name] = cty.UnknownVal(attr.ImpliedType())
		}
	}
	return cty.ObjectVal(vals)
}
