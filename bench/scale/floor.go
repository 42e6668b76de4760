package scale

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// floorParallelism is Terrane's default -parallelism, which the floor
// matches so that both keep the same number of calls in flight.
const floorParallelism = 8

const widgetType = "tpsdk_widget"

// floorInstance is one instance as the floor sees it: its configuration
// inputs and, once applied, the object the provider returned.
type floorInstance struct {
	name string
	size int64
	// base is the index of the instance whose id this one's labels hold,
	// or -1.
	base    int
	state   cty.Value
	private []byte
}

// floor replays, per case, the provider calls Terrane makes for it —
// same RPCs, same kinds of values, the same parallelism, one provider
// process per walk as Terrane launches them — with nothing around them.
type floor struct {
	executable string
	source     addrs.Provider
	cloud      string
	instances  []*floorInstance
}

func newFloor(executable, source, cloud string, s shape, n int) (*floor, error) {
	provider, err := addrs.ParseProviderSource(source)
	if err != nil {
		return nil, err
	}
	f := &floor{executable: executable, source: provider, cloud: cloud}
	count := s.instanceCount(n)
	for i := range count {
		inst := &floorInstance{name: fmt.Sprintf("w-%d", i), size: 1, base: -1}
		if s.dependentHalf && i >= count/2 {
			inst.base = i - count/2
		}
		f.instances = append(f.instances, inst)
	}
	return f, nil
}

// walk is one configured provider process.
type walk struct {
	p     *plugin.Provider
	block *schema.Block
	ty    cty.Type
	// version is the resource type's schema version.
	version int64
}

func (f *floor) startWalk(ctx context.Context) (*walk, error) {
	p, err := plugin.Launch(ctx, plugin.Config{Provider: f.source, Path: f.executable, Logger: hclog.NewNullLogger()})
	if err != nil {
		return nil, err
	}
	schemas := p.GetProviderSchema(ctx)
	if err := schemas.Diagnostics.Err(); err != nil {
		p.Close()
		return nil, err
	}
	providerConfig := objectWith(schemas.Provider.Block, map[string]cty.Value{"root_dir": cty.StringVal(f.cloud)})
	if err := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: providerConfig}).Diagnostics.Err(); err != nil {
		p.Close()
		return nil, err
	}
	rs := schemas.ResourceTypes[widgetType]
	return &walk{p: p, block: rs.Block, ty: rs.Block.ImpliedType(), version: rs.Version}, nil
}

// config is inst's configuration value; a label from an instance not yet
// applied is unknown, as during a plan.
func (f *floor) config(w *walk, inst *floorInstance) cty.Value {
	attrs := map[string]cty.Value{"name": cty.StringVal(inst.name), "size": cty.NumberIntVal(inst.size)}
	if inst.base >= 0 {
		id := cty.UnknownVal(cty.String)
		if base := f.instances[inst.base].state; base != cty.NilVal && !base.IsNull() && base.GetAttr("id").IsKnown() {
			id = base.GetAttr("id")
		}
		attrs["labels"] = cty.MapVal(map[string]cty.Value{"base": id})
	}
	return objectWith(w.block, attrs)
}

// step is the calls made for one instance in one walk.
type step func(ctx context.Context, w *walk, index int, inst *floorInstance) error

// run runs step over every instance (or only those listed) with
// floorParallelism calls in flight, on a fresh provider process. With
// waitForBase, an instance's step starts only after its base's finished.
func (f *floor) run(ctx context.Context, only []int, waitForBase bool, st step) error {
	w, err := f.startWalk(ctx)
	if err != nil {
		return err
	}
	defer w.p.Close()
	if only == nil {
		only = make([]int, len(f.instances))
		for i := range only {
			only[i] = i
		}
	}
	finished := make([]chan struct{}, len(f.instances))
	for _, i := range only {
		finished[i] = make(chan struct{})
	}
	queue := make(chan int)
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	for range floorParallelism {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range queue {
				inst := f.instances[i]
				if waitForBase && inst.base >= 0 && finished[inst.base] != nil {
					<-finished[inst.base]
				}
				if err := st(ctx, w, i, inst); err != nil {
					once.Do(func() { firstErr = fmt.Errorf("%s: %w", inst.name, err) })
				}
				close(finished[i])
			}
		}()
	}
	for _, i := range only {
		queue <- i
	}
	close(queue)
	wg.Wait()
	return firstErr
}

func (f *floor) validate(ctx context.Context, w *walk, inst *floorInstance) error {
	return w.p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: widgetType, Config: f.config(w, inst),
		ClientCapabilities: providers.ClientCapabilities{WriteOnlyAttributesAllowed: true}}).Diagnostics.Err()
}

func (f *floor) plan(ctx context.Context, w *walk, inst *floorInstance, prior cty.Value) (providers.PlanResourceChangeResponse, error) {
	config := f.config(w, inst)
	if prior == cty.NilVal {
		prior = cty.NullVal(w.ty)
	}
	resp := w.p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: widgetType, PriorState: prior, ProposedNewState: proposedNew(w.block, prior, config), Config: config,
		PriorPrivate: inst.private, ClientCapabilities: providers.ClientCapabilities{WriteOnlyAttributesAllowed: true},
	})
	return resp, resp.Diagnostics.Err()
}

func (f *floor) apply(ctx context.Context, w *walk, inst *floorInstance, prior cty.Value, planned providers.PlanResourceChangeResponse, config cty.Value) error {
	if prior == cty.NilVal {
		prior = cty.NullVal(w.ty)
	}
	resp := w.p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: widgetType, PriorState: prior, PlannedState: planned.PlannedState, Config: config, PlannedPrivate: planned.PlannedPrivate,
	})
	if err := resp.Diagnostics.Err(); err != nil {
		return err
	}
	inst.state, inst.private = resp.NewState, resp.Private
	return nil
}

// upgrade is the UpgradeResourceState call made for every object read from
// state, from the object's stored JSON.
func (f *floor) upgrade(ctx context.Context, w *walk, inst *floorInstance) error {
	raw, err := ctyjson.Marshal(inst.state, w.ty)
	if err != nil {
		return err
	}
	return w.p.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{TypeName: widgetType, Version: w.version, RawStateJSON: raw}).Diagnostics.Err()
}

func (f *floor) read(ctx context.Context, w *walk, inst *floorInstance) error {
	resp := w.p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: widgetType, PriorState: inst.state, Private: inst.private})
	return resp.Diagnostics.Err()
}

// timed runs body and returns how long it took.
func timed(body func() error) (time.Duration, error) {
	start := time.Now()
	err := body()
	return time.Since(start), err
}

// joinErrs keeps the first error.
func joinErrs(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// objectWith is an object of block's type with attrs set and everything
// else null (empty for list and set blocks, as a configuration without
// them decodes).
func objectWith(block *schema.Block, attrs map[string]cty.Value) cty.Value {
	ty := block.ImpliedType()
	vals := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, attrTy := range ty.AttributeTypes() {
		switch {
		case attrs[name] != cty.NilVal:
			vals[name] = attrs[name]
		case attrTy.IsListType() && block.BlockTypes[name] != nil:
			vals[name] = cty.ListValEmpty(attrTy.ElementType())
		case attrTy.IsSetType() && block.BlockTypes[name] != nil:
			vals[name] = cty.SetValEmpty(attrTy.ElementType())
		default:
			vals[name] = cty.NullVal(attrTy)
		}
	}
	return cty.ObjectVal(vals)
}

// proposedNew is a simple proposed new state: the configuration, with
// computed attributes it leaves null taken from the prior object, or
// unknown on a create.
func proposedNew(block *schema.Block, prior, config cty.Value) cty.Value {
	vals := config.AsValueMap()
	for name, attr := range block.Attributes {
		if !attr.Computed || !vals[name].IsNull() {
			continue
		}
		if prior.IsNull() {
			vals[name] = cty.UnknownVal(attr.ImpliedType())
		} else {
			vals[name] = prior.GetAttr(name)
		}
	}
	return cty.ObjectVal(vals)
}
