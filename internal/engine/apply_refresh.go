package engine

import (
	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// persistDrift records the object the plan's refresh read for an instance
// the plan does not otherwise change, as Terraform does: a refresh-only
// apply exists for this, and a normal apply keeps state in step with what
// the provider reported. The write goes through the journal beside the
// other results, so it costs no commit of its own.
func (w *walker) persistDrift(work *resourceWork, addr addrs.AbsResourceInstance) diags.Diagnostics {
	src := w.applier.drift[addr.String()]
	if src == nil {
		return nil
	}
	drift, err := src.Decode(work.types)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot read the saved plan", "The refreshed value of %s could not be decoded: %s. Make a new plan.", addr, err)}
	}
	inst := w.prior.ResourceInstance(addr)
	if inst == nil || inst.Current == nil {
		return nil
	}
	if drift.Action == plans.Delete || drift.After.IsNull() {
		w.prior.SetResourceInstanceCurrent(addr, nil, work.provider.addr)
		return w.writeInstance(addr, work.provider.addr, recordRefresh)
	}
	prior := inst.Current
	obj := &states.ResourceInstanceObject{Value: drift.After, Private: drift.Private, Identity: drift.AfterIdentity,
		Status: prior.Status, Dependencies: prior.Dependencies, CreateBeforeDestroy: prior.CreateBeforeDestroy}
	next, err := work.encode(obj)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot record the refreshed object", "The refreshed value of %s could not be encoded: %s.", addr, err)}
	}
	w.prior.SetResourceInstanceCurrent(addr, next, work.provider.addr)
	return w.writeInstance(addr, work.provider.addr, recordRefresh)
}
