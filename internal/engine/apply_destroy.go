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
func (w *walker) runDestroy(v *destroyVertex) diags.Diagnostics {
	var ds diags.Diagnostics
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
				ds = ds.Append(w.destroyOne(p, types, c.Addr, key, change.Before, inst.Deposed[key]))
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
		ds = ds.Append(w.destroyOne(p, types, c.Addr, c.DeposedKey, change.Before, src))
	}
	return ds
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
