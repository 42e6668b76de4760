package engine

import (
	"sync"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine/journal"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// liveRuns are the runs of this process still going, by run ID. An intent
// this process holds belongs to a live run only if its run is listed: a run
// that ended leaving an intent open (its provider crashed mid-call) is over
// even though the process that held it is not, so a later run in the same
// process — a long-lived server, a test — must not take it for a claim.
var liveRuns = struct {
	sync.Mutex
	ids map[string]int
}{ids: map[string]int{}}

// enterRun lists runID as live until the returned function is called.
func enterRun(runID string) func() {
	liveRuns.Lock()
	liveRuns.ids[runID]++
	liveRuns.Unlock()
	return func() {
		liveRuns.Lock()
		defer liveRuns.Unlock()
		if liveRuns.ids[runID]--; liveRuns.ids[runID] <= 0 {
			delete(liveRuns.ids, runID)
		}
	}
}

func runIsLive(runID string) bool {
	liveRuns.Lock()
	defer liveRuns.Unlock()
	return liveRuns.ids[runID] > 0
}

// recoverer resolves the open intents a plan walk meets, resource by
// resource, once the resource's provider is configured: recovery reads
// objects back, which needs a configured provider.
type recoverer struct {
	mu      sync.Mutex
	journal *journal.Journal
	// mayExist are the instances whose create was interrupted.
	mayExist map[string]bool
	// done are the resources (configuration addresses) recovered already:
	// an apply walk reaches a resource's objects from its resource vertex,
	// its orphan vertex and its destroy vertex, whichever runs first.
	done map[string]*sync.Once
}

func newRecoverer(j *journal.Journal) *recoverer {
	return &recoverer{journal: j, mayExist: map[string]bool{}, done: map[string]*sync.Once{}}
}

// recoverResource resolves the open intents of the resource with
// configuration address key once per walk, before anything changes it.
func (w *walker) recoverResource(p *configuredProvider, key string) diags.Diagnostics {
	if w.recovery == nil || p == nil {
		// A resource that selects provider instances per instance has no
		// one process to read back with: its intents stay open, reported.
		return nil
	}
	w.recovery.mu.Lock()
	once := w.recovery.done[key]
	if once == nil {
		once = &sync.Once{}
		w.recovery.done[key] = once
	}
	w.recovery.mu.Unlock()
	var ds diags.Diagnostics
	once.Do(func() { ds = w.recoverIntents(p, w.stateByConfig[key]) })
	return ds
}

// recoverIntents resolves the open intents among resources' instances
// through the journal, and brings the walk's state and the snapshot (the
// plan's prior records) up to date with what it wrote. Instances whose
// intents stay open are left alone by the plan (checkOpenIntent).
func (w *walker) recoverIntents(p *configuredProvider, resources []*states.Resource) diags.Diagnostics {
	if w.recovery == nil {
		return nil
	}
	// One group per run the intents are recovered on behalf of: this run,
	// or a finished run of this same process (see liveRuns).
	groups := map[string]*recordstore.Snapshot{}
	w.recovery.mu.Lock()
	for _, res := range resources {
		for key, inst := range res.Instances {
			if inst.Intent == nil {
				continue
			}
			owner := w.e.opts.RunID
			if inst.Intent.Holder == journal.Holder() && !runIsLive(inst.Intent.RunID) {
				owner = inst.Intent.RunID
			}
			snap := groups[owner]
			if snap == nil {
				snap = &recordstore.Snapshot{State: states.NewState(), InstanceVersions: map[string]recordstore.RecordVersion{}}
				groups[owner] = snap
			}
			addr := res.Addr.Instance(key)
			snap.State.SetResourceInstance(addr, inst.DeepCopy(), res.ProviderConfig)
			if v, ok := w.snapshot.InstanceVersions[addr.String()]; ok {
				snap.InstanceVersions[addr.String()] = v
			}
		}
	}
	w.recovery.mu.Unlock()
	reader := &journal.ProviderReader{Providers: map[string]providers.Interface{p.addr.String(): p.iface}, Schemas: w.providers.schemas}
	var ds diags.Diagnostics
	for owner, snap := range groups {
		rec, rds := w.recovery.journal.Recover(w.ctx, snap, journal.RecoverOptions{Reader: reader,
			Claims: journal.ClaimRule{OwnRunID: owner}, Parallelism: w.e.opts.Parallelism})
		for _, d := range rds {
			if d.Summary == "Create may have happened" {
				continue // reported as an error by checkOpenIntent
			}
			ds = append(ds, d)
		}
		w.adoptRecovered(snap, rec)
	}
	return ds
}

// adoptRecovered copies what recovery recorded into the snapshot and the
// walk's working state.
func (w *walker) adoptRecovered(snap *recordstore.Snapshot, rec *journal.Recovery) {
	w.recovery.mu.Lock()
	defer w.recovery.mu.Unlock()
	for _, addr := range rec.MayExist {
		w.recovery.mayExist[addr.String()] = true
	}
	working := w.prior.Lock()
	defer w.prior.Unlock()
	for _, entry := range snap.State.AllResourceInstances() {
		key := entry.Addr.String()
		w.snapshot.State.SetResourceInstance(entry.Addr, entry.Instance, entry.ProviderConfig)
		working.SetResourceInstance(entry.Addr, entry.Instance.DeepCopy(), entry.ProviderConfig)
		if v, ok := snap.InstanceVersions[key]; ok {
			w.snapshot.InstanceVersions[key] = v
			w.adoptVersion(key, v)
		}
	}
	for _, addr := range rec.Resolved {
		if snap.State.ResourceInstance(addr) == nil {
			w.snapshot.State.RemoveResourceInstance(addr)
			working.RemoveResourceInstance(addr)
			delete(w.snapshot.InstanceVersions, addr.String())
		}
	}
}

// adoptVersion makes an apply walk's next write to a recovered record
// compare against the version recovery wrote.
func (w *walker) adoptVersion(key string, v recordstore.RecordVersion) {
	if w.applier == nil {
		return
	}
	w.applier.mu.Lock()
	w.applier.versions[key] = v
	w.applier.mu.Unlock()
}

// refuseOpenIntent says whether an apply must leave addr alone because an
// intent on it is still open after recovery: a create that may have
// happened gets the "Unfinished create" error; a live run's claim, or an
// intent recovery could not resolve, was reported by recovery already.
func (w *walker) refuseOpenIntent(addr addrs.AbsResourceInstance) (diags.Diagnostics, bool) {
	inst := w.prior.ResourceInstance(addr)
	if inst == nil || inst.Intent == nil {
		return nil, false
	}
	return w.checkOpenIntent(addr, inst)
}

// hasOpenIntents reports whether any instance in state has an intent open.
func hasOpenIntents(state *states.State) bool {
	for _, entry := range state.AllResourceInstances() {
		if entry.Instance.Intent != nil {
			return true
		}
	}
	return false
}

func (w *walker) leftAloneAsMayExist(addr addrs.AbsResourceInstance) bool {
	if w.recovery == nil {
		return false
	}
	w.recovery.mu.Lock()
	defer w.recovery.mu.Unlock()
	return w.recovery.mayExist[addr.String()]
}
