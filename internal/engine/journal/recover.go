package journal

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// ObjectReader reads remote objects back through their providers for
// Recover. Implementations must be safe for concurrent use.
type ObjectReader interface {
	// ReadObject asks the provider of addr for the object obj records and
	// returns it as the provider now reports it, or nil when the object no
	// longer exists.
	ReadObject(ctx context.Context, addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig, obj *states.ResourceInstanceObjectSrc) (*states.ResourceInstanceObjectSrc, diags.Diagnostics)
	// ResourceSchema returns a resource type's schema, or nil when it is not
	// known. Recover uses it to keep sensitive attributes out of reports.
	ResourceSchema(provider addrs.Provider, typeName string) *schema.Block
}

// RecoverOptions configure Recover.
type RecoverOptions struct {
	Reader ObjectReader
	// Claims decides which intents belong to runs still alive.
	Claims ClaimRule
	// Parallelism bounds concurrent reads; 0 means 10.
	Parallelism int
}

// Recovery is what Recover did, by address.
type Recovery struct {
	// Resolved are instances whose intents were cleared, their objects
	// recorded as the provider reported them.
	Resolved []addrs.AbsResourceInstance
	// MayExist are instances whose create was interrupted: the object may
	// exist without Terrane knowing its ID. Each is reported until the user
	// imports or forgets it.
	MayExist []addrs.AbsResourceInstance
	// Claimed are instances with an intent of another run still alive.
	Claimed []addrs.AbsResourceInstance
	// Unresolved are instances whose intents could not be resolved this
	// time (the provider could not read the object, or the record changed
	// meanwhile); the diagnostics say why.
	Unresolved []addrs.AbsResourceInstance
}

// LeaveAlone is the set of instances the run must not plan or change:
// everything with an intent still open. Keys are UniqueKeys of addresses.
func (r *Recovery) LeaveAlone() map[addrs.UniqueKey]addrs.AbsResourceInstance {
	set := map[addrs.UniqueKey]addrs.AbsResourceInstance{}
	for _, list := range [][]addrs.AbsResourceInstance{r.MayExist, r.Claimed, r.Unresolved} {
		for _, addr := range list {
			set[addr.UniqueKey()] = addr
		}
	}
	return set
}

// outcomeKind sorts one instance into a Recovery list.
type outcomeKind int

const (
	resolved outcomeKind = iota
	mayExist
	claimed
	unresolved
)

type resolution struct {
	addr  addrs.AbsResourceInstance
	kind  outcomeKind
	diags diags.Diagnostics
	// written is the instance as recorded and its new version; inst is nil
	// when nothing was written.
	inst    *states.ResourceInstance
	version *recordstore.RecordVersion
}

// Recover resolves the open intents in snap, writing through the journal,
// and updates snap (its state and record versions) to match what it wrote,
// so the run can go on planning from it. See the package documentation for
// what each kind of intent resolves to.
//
// Interrupted creates are reported with warnings; failures to read an
// object back are errors naming the address. Either way the address is in
// the Recovery's LeaveAlone set and the rest of the run may proceed.
func (j *Journal) Recover(ctx context.Context, snap *recordstore.Snapshot, opts RecoverOptions) (*Recovery, diags.Diagnostics) {
	var open []states.ResourceInstanceEntry
	for _, entry := range snap.State.AllResourceInstances() {
		if entry.Instance.Intent != nil {
			open = append(open, entry)
		}
	}
	parallelism := opts.Parallelism
	if parallelism <= 0 {
		parallelism = 10
	}
	results := make([]resolution, len(open))
	sem := make(chan struct{}, parallelism)
	var wg sync.WaitGroup
	for i, entry := range open {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			var prior *recordstore.RecordVersion
			if v, ok := snap.InstanceVersions[entry.Addr.String()]; ok {
				prior = &v
			}
			r := &resolver{journal: j, opts: opts, entry: entry, prior: prior}
			results[i] = r.resolve(ctx)
		})
	}
	wg.Wait()
	recovery, diagnostics := collect(snap, open, results)
	for _, list := range []*[]addrs.AbsResourceInstance{&recovery.Resolved, &recovery.MayExist, &recovery.Claimed, &recovery.Unresolved} {
		sortAddrs(*list)
	}
	return recovery, diagnostics
}

// collect applies the resolutions to snap and sorts them into a Recovery.
func collect(snap *recordstore.Snapshot, open []states.ResourceInstanceEntry, results []resolution) (*Recovery, diags.Diagnostics) {
	recovery := &Recovery{}
	var diagnostics diags.Diagnostics
	for i, res := range results {
		diagnostics = diagnostics.Append(res.diags)
		if res.inst != nil {
			key := res.addr.String()
			snap.State.SetResourceInstance(res.addr, res.inst, open[i].ProviderConfig)
			if res.version != nil {
				snap.InstanceVersions[key] = *res.version
			} else {
				delete(snap.InstanceVersions, key)
			}
		}
		switch res.kind {
		case resolved:
			recovery.Resolved = append(recovery.Resolved, res.addr)
		case mayExist:
			recovery.MayExist = append(recovery.MayExist, res.addr)
		case claimed:
			recovery.Claimed = append(recovery.Claimed, res.addr)
		default:
			recovery.Unresolved = append(recovery.Unresolved, res.addr)
		}
	}
	return recovery, diagnostics
}

// resolver resolves one instance's open intent.
type resolver struct {
	journal *Journal
	opts    RecoverOptions
	entry   states.ResourceInstanceEntry
	prior   *recordstore.RecordVersion
}

func (r *resolver) resolve(ctx context.Context) resolution {
	inst, intent := r.entry.Instance, r.entry.Instance.Intent
	if r.opts.Claims.HeldByLiveRun(intent) {
		return resolution{addr: r.entry.Addr, kind: claimed, diags: diags.Diagnostics{claimDiagnostic(r.entry.Addr, intent)}}
	}
	key := targetKey(intent)
	target := objectAt(inst, key)
	switch intent.Operation {
	case states.IntentImport, states.IntentForget:
		// Neither changes a remote object: an import only reads one and a
		// forget only drops it from state, so the intent is simply closed
		// and the next plan proposes the same again.
		return r.write(ctx, withoutIntent(inst), resolved, nil)
	case states.IntentDelete:
		if target == nil {
			return r.write(ctx, withoutIntent(inst), resolved, nil) // nothing left to delete
		}
		return r.readBack(ctx, inst, key, false)
	case states.IntentUpdate, states.IntentReplaceDestroyBeforeCreate:
		if target == nil {
			return r.reportCreate(ctx, inst) // no object to read: only a create can have happened
		}
		return r.readBack(ctx, inst, key, false)
	case states.IntentReplaceCreateBeforeDestroy:
		if target == nil {
			return r.reportCreate(ctx, inst)
		}
		return r.readBack(ctx, inst, key, true)
	default: // IntentCreate, and operations this version does not know
		return r.reportCreate(ctx, inst)
	}
}

// readBack reads the object at key through the provider and records the
// answer in its place. createFollows says the interrupted operation also creates a
// replacement, whose fate reading the prior object cannot tell.
func (r *resolver) readBack(ctx context.Context, inst *states.ResourceInstance, key addrs.DeposedKey, createFollows bool) resolution {
	addr, intent := r.entry.Addr, inst.Intent
	if r.opts.Reader == nil {
		return resolution{addr: addr, kind: unresolved, diags: diags.Diagnostics{unreadDiagnostic(addr, intent, diags.Diagnostics{diags.Errorf("No provider to read with", "The run has no provider for %s.", r.entry.ProviderConfig)})}}
	}
	current, readDiags := r.opts.Reader.ReadObject(ctx, addr, r.entry.ProviderConfig, objectAt(inst, key))
	if readDiags.HasErrors() {
		return resolution{addr: addr, kind: unresolved, diags: diags.Diagnostics{unreadDiagnostic(addr, intent, readDiags)}}
	}
	next := inst.DeepCopy()
	setObjectAt(next, key, current)
	// A destroy-before-create whose prior object is gone got as far as the
	// create, and a create-before-destroy always starts with it.
	if createFollows || (intent.Operation == states.IntentReplaceDestroyBeforeCreate && current == nil) {
		next.Intent.Operation = states.IntentCreate
		res := r.write(ctx, next, mayExist, readDiags)
		if res.kind == mayExist {
			res.diags = res.diags.Append(r.createDiagnostic(next.Intent))
		}
		return res
	}
	next.Intent = nil
	return r.write(ctx, next, resolved, readDiags)
}

func (r *resolver) reportCreate(ctx context.Context, inst *states.ResourceInstance) resolution {
	intent := inst.Intent
	if intent.Operation == states.IntentCreate {
		return resolution{addr: r.entry.Addr, kind: mayExist, diags: diags.Diagnostics{r.createDiagnostic(intent)}}
	}
	next := inst.DeepCopy()
	next.Intent.Operation = states.IntentCreate
	res := r.write(ctx, next, mayExist, nil)
	if res.kind == mayExist {
		res.diags = res.diags.Append(r.createDiagnostic(next.Intent))
	}
	return res
}

// write records next for the instance, compare-and-swap on the version the
// snapshot read, and returns a resolution of kind on success.
func (r *resolver) write(ctx context.Context, next *states.ResourceInstance, kind outcomeKind, extra diags.Diagnostics) resolution {
	addr := r.entry.Addr
	change := recordstore.InstanceChange{Addr: addr, ProviderConfig: r.entry.ProviderConfig, Instance: next, Prior: r.prior}
	version, err := r.journal.Write(ctx, change)
	if err != nil {
		d := diags.Errorf("Could not record the recovery of "+addr.String(),
			"Resolving the interrupted %s of %s could not be recorded: %s. It is left alone in this run; run again to retry.",
			operationNoun(r.entry.Instance.Intent.Operation), addr, err)
		d.Address = addr.String()
		return resolution{addr: addr, kind: unresolved, diags: extra.Append(d)}
	}
	if next.IsEmpty() {
		next = &states.ResourceInstance{}
	}
	return resolution{addr: addr, kind: kind, diags: extra, inst: next, version: version}
}

// targetKey is the key of the object an intent's operation acts on: the
// deposed object it names, or the current one.
func targetKey(intent *states.Intent) addrs.DeposedKey {
	if intent.Operation == states.IntentReplaceDestroyBeforeCreate {
		return addrs.NotDeposed // it always replaces the current object
	}
	return intent.DeposedKey
}

func objectAt(inst *states.ResourceInstance, key addrs.DeposedKey) *states.ResourceInstanceObjectSrc {
	if key == addrs.NotDeposed {
		return inst.Current
	}
	return inst.Deposed[key]
}

// setObjectAt puts obj (nil: gone) at key in inst.
func setObjectAt(inst *states.ResourceInstance, key addrs.DeposedKey, obj *states.ResourceInstanceObjectSrc) {
	switch {
	case key == addrs.NotDeposed:
		inst.Current = obj
	case obj == nil:
		delete(inst.Deposed, key)
	default:
		inst.Deposed[key] = obj
	}
}

func withoutIntent(inst *states.ResourceInstance) *states.ResourceInstance {
	next := inst.DeepCopy()
	next.Intent = nil
	return next
}

// sortAddrs orders addresses as state files list them, for stable output.
func sortAddrs(list []addrs.AbsResourceInstance) {
	slices.SortFunc(list, func(a, b addrs.AbsResourceInstance) int {
		switch {
		case a.String() < b.String():
			return -1
		case a.String() > b.String():
			return 1
		}
		return 0
	})
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return "an unrecorded time"
	}
	return t.UTC().Format(time.RFC3339)
}

func describeRun(intent *states.Intent) string {
	run := "run " + intent.RunID
	if intent.RunID == "" {
		run = "an unnamed run"
	}
	switch intent.Holder {
	case "":
	case ReleasedHolder:
		run += " (" + ReleasedHolder + ")"
	default:
		run += fmt.Sprintf(" (process %s)", intent.Holder)
	}
	return run
}
