package engine

import (
	"context"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// applyRefactoring carries out the record changes a plan makes without
// any provider call: moved objects change address, forgotten ones are
// dropped, imported ones are recorded. All of them go into the store in one
// commit (compare-and-swap on the records the plan read, create-only at new
// addresses) before the walk, which then sees the records where the plan
// put them. It returns the reloaded snapshot and the plan without its
// forgets, which need nothing more.
func (e *Engine) applyRefactoring(ctx context.Context, plan *plans.Plan, snap *recordstore.Snapshot, set *providerSet) (*recordstore.Snapshot, *plans.Plan, diags.Diagnostics) {
	var ds diags.Diagnostics
	var changes []recordstore.InstanceChange
	movedFrom := map[string]bool{}
	rest := make([]*plans.ResourceInstanceChangeSrc, 0, len(plan.Changes.Resources))
	if plan.UIMode == plans.RefreshOnlyMode {
		// A refresh-only plan carries its moves in its drift.
		for _, c := range plan.DriftedResources {
			if c.Moved() && c.DeposedKey == addrs.NotDeposed && !movedFrom[c.PrevRunAddr.String()] {
				movedFrom[c.PrevRunAddr.String()] = true
				ch, cds := movedRecord(snap, c, set)
				ds = ds.Append(cds)
				changes = append(changes, dropRecord(snap, c.PrevRunAddr), ch)
			}
		}
	}
	for _, c := range plan.Changes.Resources {
		switch {
		case c.Action == plans.Forget:
			changes = append(changes, dropRecord(snap, c.PrevRunAddr))
			continue
		case c.Moved() && !movedFrom[c.PrevRunAddr.String()]:
			movedFrom[c.PrevRunAddr.String()] = true
			ch, cds := movedRecord(snap, c, set)
			ds = ds.Append(cds)
			changes = append(changes, dropRecord(snap, c.PrevRunAddr), ch)
		case c.Importing != nil && c.DeposedKey == addrs.NotDeposed:
			obj, cds := objectFromChange(c, set)
			ds = ds.Append(cds)
			changes = append(changes, recordstore.InstanceChange{Addr: c.Addr, ProviderConfig: c.ProviderAddr.Config,
				Instance: &states.ResourceInstance{Current: obj}})
		}
		rest = append(rest, c)
	}
	if ds.HasErrors() || len(changes) == 0 {
		return snap, plan, ds
	}
	if _, err := e.opts.State.Commit(ctx, changes); err != nil {
		return snap, plan, ds.Append(writeFailure(ctx, changes[0].Addr, recordResult, err))
	}
	fresh, err := e.opts.State.Load(ctx)
	if err != nil {
		return snap, plan, ds.Append(diags.Errorf("Cannot read the state", "Reading workspace %q failed: %s", e.opts.Workspace, err))
	}
	trimmed := *plan
	trimmed.Changes.Resources = rest
	return fresh, &trimmed, ds
}

func dropRecord(snap *recordstore.Snapshot, addr addrs.AbsResourceInstance) recordstore.InstanceChange {
	change := recordstore.InstanceChange{Addr: addr}
	if v, ok := snap.InstanceVersions[addr.String()]; ok {
		change.Prior = &v
	}
	for _, entry := range snap.State.AllResourceInstances() {
		if entry.Addr.String() == addr.String() {
			change.ProviderConfig = entry.ProviderConfig
		}
	}
	return change
}

// movedRecord is the record of a moved instance at its new address: the
// same objects, or, when the type changed, the object as the provider
// converted it during planning (the change's prior value).
func movedRecord(snap *recordstore.Snapshot, c *plans.ResourceInstanceChangeSrc, set *providerSet) (recordstore.InstanceChange, diags.Diagnostics) {
	out := recordstore.InstanceChange{Addr: c.Addr, ProviderConfig: c.ProviderAddr.Config}
	inst := snap.State.ResourceInstance(c.PrevRunAddr)
	if inst == nil {
		return out, diags.Diagnostics{diags.Errorf("Moved object is gone", "The plan moves %s to %s, but the state no longer has %s. Make a new plan.", c.PrevRunAddr, c.Addr, c.PrevRunAddr)}
	}
	copied := &states.ResourceInstance{Current: inst.Current, Deposed: inst.Deposed}
	if c.PrevRunAddr.Resource.Resource.Type != c.Addr.Resource.Resource.Type && inst.Current != nil {
		obj, ds := objectFromChange(c, set)
		if ds.HasErrors() {
			return out, ds
		}
		obj.Dependencies, obj.CreateBeforeDestroy = inst.Current.Dependencies, inst.Current.CreateBeforeDestroy
		copied.Current = obj
	}
	out.Instance = copied
	return out, nil
}

// objectFromChange rebuilds the object a plan adopted (imported or
// converted) from the change's prior value, at the resource type's current
// schema version.
func objectFromChange(c *plans.ResourceInstanceChangeSrc, set *providerSet) (*states.ResourceInstanceObjectSrc, diags.Diagnostics) {
	provider := c.ProviderAddr.Config.Provider
	typeName := c.Addr.Resource.Resource.Type
	s, ok := set.schemas.ResourceType(provider, false, typeName)
	if !ok || s.Block == nil {
		return nil, diags.Diagnostics{diags.Errorf("Unsupported resource type", "Provider %s has no resource type %q, needed to record %s.", addrs.ProviderForDisplay(provider), typeName, c.Addr)}
	}
	types := plans.ObjectTypes{Value: s.Block.ImpliedType()}
	if id, ok := set.schemas.Identity(provider, typeName); ok {
		types.Identity = id.ImpliedType()
	}
	change, err := c.Decode(types)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Cannot read the saved plan", "The change to %s could not be decoded: %s. Make a new plan.", c.Addr, err)}
	}
	obj := &states.ResourceInstanceObject{Value: change.Before, Private: c.Private, Identity: change.BeforeIdentity, Status: states.ObjectReady}
	src, err := obj.Encode(types.Value, uint64(s.Version))
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Cannot record an adopted object", "%s: %s", c.Addr, err)}
	}
	return src, nil
}
