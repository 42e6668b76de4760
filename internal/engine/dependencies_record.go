package engine

import (
	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// recordCurrentDependencies brings the dependencies recorded with the
// object of an instance the plan leaves unchanged up to date with the
// configuration, as OpenTofu does. What an object depended on when last
// recorded orders its delete once the configuration drops it (see
// addDestroyVertices), so a list that is stale, or incomplete because an
// earlier version recorded less, would misorder that delete. Only an
// instance the plan has a no-op change for and whose list differs is
// written.
func (w *walker) recordCurrentDependencies(work *resourceWork, addr addrs.AbsResourceInstance) diags.Diagnostics {
	if w.applier == nil || w.applier.resourceDeps == nil || work.v.resource.Mode != addrs.ManagedResourceMode {
		return nil
	}
	// Only instances the plan covers: one a -target plan left out is not
	// this run's to write, and another run may be changing it.
	if c := w.applier.changes[addr.String()]; c == nil || c.Action != plans.NoOp {
		return nil
	}
	// The snapshot is read in place: copying every unchanged object to
	// compare a short list would make an apply's memory grow with state.
	// Recovery changes the snapshot during the walk, so then the working
	// state's copy is read.
	var recorded *states.ResourceInstance
	if w.recovery == nil {
		recorded = w.snapshot.State.ResourceInstance(addr)
	} else {
		recorded = w.prior.ResourceInstance(addr)
	}
	skip := skipDestroyOf(work)
	if recorded == nil || recorded.Current == nil || recorded.Intent != nil ||
		(w.sameDependencies(work, recorded.Current.Dependencies) && recorded.Current.SkipDestroy == skip) {
		return nil
	}
	inst := w.prior.ResourceInstance(addr)
	if inst == nil || inst.Current == nil {
		return nil
	}
	next := *inst.Current
	next.Dependencies = w.dependenciesOf(work)
	// lifecycle destroy = false is recorded with the object, as OpenTofu
	// records it, even when nothing else about it changes.
	next.SkipDestroy = skip
	w.prior.SetResourceInstanceCurrent(addr, &next, work.provider.addr)
	return w.writeInstance(addr, work.provider.addr, recordRefresh)
}

// sameDependencies reports whether recorded lists exactly the resources
// dependenciesOf gives work, in any order.
func (w *walker) sameDependencies(work *resourceWork, recorded []addrs.ConfigResource) bool {
	want := 0
	deps := w.applier.resourceDeps[work.v.key()]
	for k := range deps {
		if _, ok := w.applier.graph.vertices[k].(*resourceVertex); ok {
			want++
		}
	}
	if len(recorded) != want {
		return false
	}
	for _, dep := range recorded {
		if !deps[dep.String()] {
			return false
		}
	}
	return true
}
