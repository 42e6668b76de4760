package moduletest

import (
	"context"
	"sort"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// cleanup destroys what the file's runs created, one state at a time, the
// state changed last first, each with the configuration and variables of
// the run that changed it last, as OpenTofu cleans up. Each destroy is
// reported, with whatever stopped it and what it left behind, as it ends.
func (fr *fileRunner) cleanup(ctx context.Context) {
	fr.mu.Lock()
	var pending []*testState
	for _, st := range fr.states {
		if len(st.updates) > 0 {
			pending = append(pending, st)
		}
	}
	fr.mu.Unlock()
	last := func(st *testState) *Run { return st.updates[len(st.updates)-1].run }
	sort.Slice(pending, func(i, j int) bool { return last(pending[i]).Index > last(pending[j]).Index })
	for _, st := range pending {
		if !fr.s.acquire(ctx) {
			return
		}
		ds, left := fr.destroy(ctx, st, last(st))
		fr.s.release()
		if ctx.Err() != nil {
			return // cancelled: see Suite.Unfinished
		}
		fr.s.View.DestroySummary(ds, last(st), fr.file, left)
	}
}

// destroy plans and applies the destruction of everything in st, and
// returns the state that is left.
func (fr *fileRunner) destroy(ctx context.Context, st *testState, run *Run) (diags.Diagnostics, *states.State) {
	snap, err := st.store.Load(context.WithoutCancel(ctx))
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot read the test state", "Reading the state to destroy failed: %s.", err)}, states.NewState()
	}
	if !hasManagedObjects(snap.State) {
		return nil, snap.State
	}
	// The variables are worked out as they were for run itself, which
	// created what is destroyed. (OpenTofu evaluates them with the runs
	// visible at the end of the file, where an earlier run on the same
	// state no longer is; the clean-up then stops without a word and
	// leaves everything behind.)
	setup, ds := fr.prepare(run, run.Index)
	if ds.HasErrors() {
		return ds, snap.State
	}
	eng, eds := fr.newEngine(setup, st)
	if ds = ds.Append(eds); ds.HasErrors() {
		return ds, snap.State
	}
	defer eng.Close()
	plan, pds := eng.Plan(ctx, engine.PlanOpts{Mode: plans.DestroyMode})
	if ds = ds.Append(pds); ds.HasErrors() {
		return ds, snap.State
	}
	if plan.CanApply() {
		ds = ds.Append(eng.Apply(ctx, plan))
	}
	after, err := st.store.Load(context.WithoutCancel(ctx))
	if err != nil {
		return ds.Append(diags.Errorf("Cannot read the test state", "Reading the state after destroying it failed: %s.", err)), snap.State
	}
	return ds, after.State
}

// hasManagedObjects reports whether state holds any object of a managed
// resource, current or deposed.
func hasManagedObjects(state *states.State) bool {
	for _, entry := range state.AllResourceInstances() {
		if entry.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		if entry.Instance.Current != nil || len(entry.Instance.Deposed) > 0 {
			return true
		}
	}
	return false
}
