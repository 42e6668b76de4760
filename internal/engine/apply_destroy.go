package engine

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// runDestroy deletes the objects of one resource that the plan deletes:
// current objects of Delete changes, deposed objects named by the plan,
// and the objects create_before_destroy replacements deposed in this run.
//
// Instances are deleted concurrently, so their intents and results share
// group commits; the objects of one instance (current and deposed) are
// deleted one after another, since they share its record.
func (w *walker) runDestroy(v *destroyVertex) diags.Diagnostics {
	var ds diags.Diagnostics
	var order []string
	perInstance := map[string][]func() diags.Diagnostics{}
	later := func(addr addrs.AbsResourceInstance, fn func() diags.Diagnostics) {
		key := addr.String()
		if _, seen := perInstance[key]; !seen {
			order = append(order, key)
		}
		perInstance[key] = append(perInstance[key], fn)
	}
	typesByProvider := map[string]plans.ObjectTypes{}
	for _, c := range w.applier.deletes[v.addr.String()] {
		if c.Action == plans.DeleteThenCreate {
			continue // destroyed by the replacement itself
		}
		p := w.providers.forResource(v.addr, w.providers.getInstance(c.ProviderAddr))
		if p == nil {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Provider configuration not available",
				Detail: fmt.Sprintf("%s could not be configured, so %s cannot be destroyed.", c.ProviderAddr, c.ObjectName()), Address: c.Addr.String()})
			continue
		}
		ds = ds.Append(w.recoverResource(p, v.addr.String()))
		if rds, refused := w.refuseOpenIntent(c.Addr); refused {
			ds = ds.Append(rds)
			continue
		}
		types, ok := typesByProvider[c.ProviderAddr.Config.Provider.String()]
		if !ok {
			if types, ok = w.destroyTypes(c); !ok {
				continue
			}
			typesByProvider[c.ProviderAddr.Config.Provider.String()] = types
		}
		// The change is decoded, and the object looked up, when its delete
		// starts, not here: a resource's deletes are queued all at once,
		// and holding every decoded prior value until the last delete
		// starts would make a destroy's memory grow with the state.
		before := func() (cty.Value, diags.Diagnostics) {
			change, err := c.Decode(types)
			if err != nil {
				return cty.NilVal, diags.Diagnostics{diags.Errorf("Cannot read the saved plan", "The change to %s could not be decoded: %s. Make a new plan.", c.ObjectName(), err)}
			}
			return change.Before, nil
		}
		if c.Action == plans.CreateThenDelete {
			inst := w.prior.ResourceInstance(c.Addr)
			if inst == nil {
				continue
			}
			for _, key := range inst.SortedDeposedKeys() {
				later(c.Addr, func() diags.Diagnostics { return w.destroyOne(p, types, c.Addr, key, before) })
			}
			continue
		}
		later(c.Addr, func() diags.Diagnostics { return w.destroyOne(p, types, c.Addr, c.DeposedKey, before) })
	}
	group := w.newInstanceGroup()
	for _, key := range order {
		fns := perInstance[key]
		group.start(func() diags.Diagnostics {
			var ds diags.Diagnostics
			for _, fn := range fns {
				ds = ds.Append(fn())
			}
			return ds
		})
	}
	return ds.Append(group.wait())
}

// destroyTypes are the types a delete change to c's resource type is
// encoded with; false when the provider has no schema for it.
func (w *walker) destroyTypes(c *plans.ResourceInstanceChangeSrc) (plans.ObjectTypes, bool) {
	provider, typeName := c.ProviderAddr.Config.Provider, c.Addr.Resource.Resource.Type
	s, ok := w.providers.schemas.ResourceType(provider, false, typeName)
	if !ok {
		return plans.ObjectTypes{}, false
	}
	types := plans.ObjectTypes{Value: s.Block.ImpliedType(), Identity: cty.NilType}
	if id, ok := w.providers.schemas.Identity(provider, typeName); ok {
		types.Identity = id.ImpliedType()
	}
	return types, true
}

// destroyOne looks up the object, decodes its planned prior value, records
// a delete intent, deletes the object and records the outcome. An object
// already gone is left alone.
func (w *walker) destroyOne(p *configuredProvider, types plans.ObjectTypes, addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, planned func() (cty.Value, diags.Diagnostics)) diags.Diagnostics {
	src := w.priorObject(addr, deposed)
	if src == nil {
		return nil
	}
	before, ds := planned()
	if ds.HasErrors() {
		return ds
	}
	ds = w.openIntentFor(p.addr, addr, deposed, states.IntentDelete, types.Value, cty.NullVal(types.Value))
	if ds.HasErrors() {
		return ds
	}
	dds := w.deleteObject(p, types, addr, deposed, before, src)
	return ds.Append(dds).Append(w.closeIntent(addr, p.addr, dds))
}

// priorObject is the working state's object of addr with the given deposed
// key (the current one for addrs.NotDeposed), or nil.
func (w *walker) priorObject(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey) *states.ResourceInstanceObjectSrc {
	inst := w.prior.ResourceInstance(addr)
	switch {
	case inst == nil:
		return nil
	case deposed == addrs.NotDeposed:
		return inst.Current
	default:
		return inst.Deposed[deposed]
	}
}
