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
	for _, c := range w.applier.deletes[v.addr.String()] {
		if c.Action == plans.DeleteThenCreate {
			continue // destroyed by the replacement itself
		}
		p := w.providers.getInstance(c.ProviderAddr)
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
		s, ok := w.providers.schemas.ResourceType(c.ProviderAddr.Config.Provider, false, c.Addr.Resource.Resource.Type)
		if !ok {
			continue
		}
		types := plans.ObjectTypes{Value: s.Block.ImpliedType(), Identity: cty.NilType}
		if id, ok := w.providers.schemas.Identity(c.ProviderAddr.Config.Provider, c.Addr.Resource.Resource.Type); ok {
			types.Identity = id.ImpliedType()
		}
		change, err := c.Decode(types)
		if err != nil {
			ds = ds.Append(diags.Errorf("Cannot read the saved plan", "The change to %s could not be decoded: %s. Make a new plan.", c.ObjectName(), err))
			continue
		}
		inst := w.prior.ResourceInstance(c.Addr)
		if inst == nil {
			continue
		}
		if c.Action == plans.CreateThenDelete {
			for _, key := range inst.SortedDeposedKeys() {
				addr, before, src := c.Addr, change.Before, inst.Deposed[key]
				later(addr, func() diags.Diagnostics { return w.destroyOne(p, types, addr, key, before, src) })
			}
			continue
		}
		src := inst.Current
		if c.DeposedKey != addrs.NotDeposed {
			src = inst.Deposed[c.DeposedKey]
		}
		if src == nil {
			continue // already gone
		}
		addr, deposed, before := c.Addr, c.DeposedKey, change.Before
		later(addr, func() diags.Diagnostics { return w.destroyOne(p, types, addr, deposed, before, src) })
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

// destroyOne records a delete intent, deletes the object and records the
// outcome.
func (w *walker) destroyOne(p *configuredProvider, types plans.ObjectTypes, addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, before cty.Value, src *states.ResourceInstanceObjectSrc) diags.Diagnostics {
	ds := w.openIntentFor(p.addr, addr, deposed, states.IntentDelete, types.Value, cty.NullVal(types.Value))
	if ds.HasErrors() {
		return ds
	}
	dds := w.deleteObject(p, types, addr, deposed, before, src)
	return ds.Append(dds).Append(w.closeIntent(addr, p.addr, dds))
}
