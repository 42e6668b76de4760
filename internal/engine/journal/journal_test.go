package journal

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

func TestIntentAndResultAreDurableWhenTheCallReturns(t *testing.T) {
	path := newStorePath(t)
	j := New(openStore(t, path), Options{RunID: "01RUN"})
	defer j.Close()
	ctx := t.Context()
	addr := mustAddr(t, "tpf_thing.a")

	began, err := j.BeginCall(ctx, addr, testProviderConfig, &states.ResourceInstance{Intent: plannedIntent(t, states.IntentCreate, "a")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A second connection to the file sees the intent: it is on disk, not
	// in a buffer of the journal.
	rec, err := openStore(t, path).ReadInstance(ctx, addr)
	if err != nil || rec == nil {
		t.Fatalf("intent not readable from the file: %v", err)
	}
	intent := rec.Instance.Intent
	if intent == nil || intent.Operation != states.IntentCreate || intent.RunID != "01RUN" || intent.Holder != Holder() || intent.StartedAt.IsZero() {
		t.Fatalf("stored intent %+v lacks the operation, run id, holder or start time", intent)
	}
	if rec.Record != *began {
		t.Fatalf("BeginCall returned version %+v, store has %+v", *began, rec.Record)
	}

	finished, err := j.FinishCall(ctx, addr, testProviderConfig, withObject(`{"id":"x1","name":"a"}`), began)
	if err != nil {
		t.Fatal(err)
	}
	rec, err = openStore(t, path).ReadInstance(ctx, addr)
	if err != nil || rec == nil {
		t.Fatalf("result not readable from the file: %v", err)
	}
	if rec.Instance.Intent != nil || string(rec.Instance.Current.AttrsJSON) != `{"id":"x1","name":"a"}` {
		t.Fatalf("stored instance after the result: intent %+v, attributes %s", rec.Instance.Intent, rec.Instance.Current.AttrsJSON)
	}
	if rec.Record != *finished {
		t.Fatalf("FinishCall returned version %+v, store has %+v", *finished, rec.Record)
	}
}

func TestDeleteResultRemovesTheRecord(t *testing.T) {
	st := openStore(t, newStorePath(t))
	j := New(st, Options{RunID: "01RUN"})
	defer j.Close()
	ctx := t.Context()
	addr := mustAddr(t, `tpf_thing.a["k"]`)
	created, err := j.Write(ctx, recordstore.InstanceChange{Addr: addr, ProviderConfig: testProviderConfig, Instance: withObject(`{"id":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	deleting := withObject(`{"id":"x"}`)
	deleting.Intent = plannedIntent(t, states.IntentDelete, "a")
	began, err := j.BeginCall(ctx, addr, testProviderConfig, deleting, created)
	if err != nil {
		t.Fatal(err)
	}
	version, err := j.FinishCall(ctx, addr, testProviderConfig, nil, began)
	if err != nil || version != nil {
		t.Fatalf("FinishCall of a delete = %v, %v; want no version, no error", version, err)
	}
	if rec, err := st.ReadInstance(ctx, addr); err != nil || rec != nil {
		t.Fatalf("record still there after the delete's result: %+v, %v", rec, err)
	}
}

func TestCallsRefuseMisuse(t *testing.T) {
	j := New(openStore(t, newStorePath(t)), Options{})
	ctx := t.Context()
	addr := mustAddr(t, "tpf_thing.a")
	if _, err := j.BeginCall(ctx, addr, testProviderConfig, withObject(`{}`), nil); err == nil {
		t.Error("BeginCall without an intent succeeded")
	}
	open := &states.ResourceInstance{Intent: plannedIntent(t, states.IntentCreate, "a")}
	if _, err := j.FinishCall(ctx, addr, testProviderConfig, open, nil); err == nil {
		t.Error("FinishCall leaving the intent open succeeded")
	}
	j.Close()
	if _, err := j.BeginCall(ctx, addr, testProviderConfig, open, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("BeginCall after Close = %v, want ErrClosed", err)
	}
}

func TestConcurrentCallersShareCommits(t *testing.T) {
	const callers = 64
	st := openStore(t, newStorePath(t))
	j := New(st, Options{RunID: "01RUN"})
	defer j.Close()
	ctx := t.Context()

	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for i := range callers {
		wg.Go(func() {
			addr := mustAddr(t, fmt.Sprintf("tpf_thing.n[%d]", i))
			began, err := j.BeginCall(ctx, addr, testProviderConfig, &states.ResourceInstance{Intent: plannedIntent(t, states.IntentCreate, "n")}, nil)
			if err != nil {
				errs <- err
				return
			}
			_, err = j.FinishCall(ctx, addr, testProviderConfig, withObject(fmt.Sprintf(`{"id":"%d"}`, i)), began)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	snap, err := st.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	entries := snap.State.AllResourceInstances()
	if len(entries) != callers {
		t.Fatalf("%d instances stored, want %d", len(entries), callers)
	}
	for _, entry := range entries {
		if entry.Instance.Intent != nil || entry.Instance.Current == nil {
			t.Errorf("%s: intent left open or result missing", entry.Addr)
		}
	}
	stats := j.Stats()
	if stats.Records != 2*callers || stats.Failed != 0 {
		t.Fatalf("stats %+v, want %d records and no failures", stats, 2*callers)
	}
	if stats.Commits >= stats.Records {
		t.Errorf("%d commits for %d records: concurrent writes were not grouped", stats.Commits, stats.Records)
	}
}

// TestOneConflictFailsOnlyItsOwnWrite commits one batch in which one write
// compares against a version another run has replaced and one creates an
// address that exists; the other writes of the batch must succeed.
func TestOneConflictFailsOnlyItsOwnWrite(t *testing.T) {
	st := openStore(t, newStorePath(t))
	j := newJournal(st, Options{RunID: "01RUN"})
	ctx := t.Context()
	versions := map[string]*recordstore.RecordVersion{}
	for _, name := range []string{"a", "b", "c", "d"} {
		addr := mustAddr(t, "tpf_thing."+name)
		v, err := st.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, ProviderConfig: testProviderConfig, Instance: withObject(`{"id":"old"}`)}})
		if err != nil {
			t.Fatal(err)
		}
		rv := v[addr.String()]
		versions[name] = &rv
	}
	// Another run updates b behind the journal's back.
	if _, err := st.Commit(ctx, []recordstore.InstanceChange{{Addr: mustAddr(t, "tpf_thing.b"), ProviderConfig: testProviderConfig, Instance: withObject(`{"id":"theirs"}`), Prior: versions["b"]}}); err != nil {
		t.Fatal(err)
	}

	batch := []*request{
		newRequest(t, "tpf_thing.a", versions["a"]),
		newRequest(t, "tpf_thing.b", versions["b"]), // stale
		newRequest(t, "tpf_thing.c", nil),           // create of an existing address
		newRequest(t, "tpf_thing.d", versions["d"]),
		newRequest(t, "tpf_thing.e", nil),
	}
	j.commit(batch)

	for i, req := range batch {
		out := <-req.result
		wantFail := i == 1 || i == 2
		var conflict *recordstore.ConflictError
		switch {
		case wantFail && !errors.As(out.err, &conflict):
			t.Errorf("%s: error %v, want a conflict", req.change.Addr, out.err)
		case wantFail && conflict.Addr.String() != req.change.Addr.String():
			t.Errorf("%s: conflict names %s", req.change.Addr, conflict.Addr)
		case !wantFail && (out.err != nil || out.version == nil):
			t.Errorf("%s: failed with %v although it did not conflict", req.change.Addr, out.err)
		}
	}
	rec, err := st.ReadInstance(ctx, mustAddr(t, "tpf_thing.b"))
	if err != nil || string(rec.Instance.Current.AttrsJSON) != `{"id":"theirs"}` {
		t.Fatalf("the other run's write to b was overwritten: %v", err)
	}
	if got := j.Stats(); got.Records != 3 || got.Failed != 2 || got.Commits != 3 {
		t.Errorf("stats %+v, want 3 records, 2 failures in 3 commits (two failed attempts, one retry)", got)
	}
}

// TestUnattributedFailureIsIsolated commits a batch with a write the store
// cannot even encode, so its error names no batch index; halving the batch
// must still confine the failure to that write.
func TestUnattributedFailureIsIsolated(t *testing.T) {
	st := openStore(t, newStorePath(t))
	j := newJournal(st, Options{})
	var batch []*request
	for i := range 8 {
		batch = append(batch, newRequest(t, fmt.Sprintf("tpf_thing.n[%d]", i), nil))
	}
	// A capsule type has no JSON form, so this intent cannot be recorded.
	batch[5].change.Instance.Intent.PlannedType = cty.Capsule("opaque", reflect.TypeFor[int]())
	j.commit(batch)
	for i, req := range batch {
		out := <-req.result
		if (out.err != nil) != (i == 5) {
			t.Errorf("%s: error %v", req.change.Addr, out.err)
		}
	}
}

func newRequest(t *testing.T, addr string, prior *recordstore.RecordVersion) *request {
	inst := withObject(`{"id":"new"}`)
	inst.Intent = plannedIntent(t, states.IntentUpdate, "n")
	inst.Intent.RunID = "01RUN"
	return &request{
		change: recordstore.InstanceChange{Addr: mustAddr(t, addr), ProviderConfig: testProviderConfig, Instance: inst, Prior: prior},
		result: make(chan outcome, 1),
	}
}

func TestTakeGroupsOneWritePerAddress(t *testing.T) {
	j := newJournal(nil, Options{MaxBatch: 3})
	j.pending = []*request{
		newRequest(t, "tpf_thing.a", nil), newRequest(t, "tpf_thing.a", nil),
		newRequest(t, "tpf_thing.b", nil), newRequest(t, "tpf_thing.c", nil),
		newRequest(t, "tpf_thing.d", nil),
	}
	var rounds [][]string
	for {
		batch, _ := j.take()
		if len(batch) == 0 {
			break
		}
		var names []string
		for _, req := range batch {
			names = append(names, req.change.Addr.String())
		}
		rounds = append(rounds, names)
	}
	want := [][]string{{"tpf_thing.a", "tpf_thing.b", "tpf_thing.c"}, {"tpf_thing.a", "tpf_thing.d"}}
	if !reflect.DeepEqual(rounds, want) {
		t.Fatalf("batches %v, want %v", rounds, want)
	}
}

func TestCancelledBeginIsWithdrawnButResultsAreKept(t *testing.T) {
	st := openStore(t, newStorePath(t))
	j := newJournal(st, Options{}) // committer not started: nothing is taken yet
	addr := mustAddr(t, "tpf_thing.a")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()

	_, err := j.BeginCall(ctx, addr, testProviderConfig, &states.ResourceInstance{Intent: plannedIntent(t, states.IntentCreate, "a")}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled BeginCall = %v, want context.Canceled", err)
	}
	if len(j.pending) != 0 {
		t.Fatalf("a withdrawn intent is still queued")
	}

	finished := make(chan error, 1)
	go func() {
		_, err := j.FinishCall(ctx, addr, testProviderConfig, withObject(`{"id":"a"}`), nil)
		finished <- err
	}()
	select {
	case err := <-finished:
		t.Fatalf("FinishCall returned %v before its result was written", err)
	case <-time.After(50 * time.Millisecond):
	}
	go j.run()
	defer j.Close()
	if err := <-finished; err != nil {
		t.Fatalf("FinishCall under a cancelled context: %v", err)
	}
	if rec, err := st.ReadInstance(t.Context(), addr); err != nil || rec == nil {
		t.Fatalf("the result was not recorded: %v", err)
	}
}

func TestCommitStandsInForTheStore(t *testing.T) {
	st := openStore(t, newStorePath(t))
	j := New(st, Options{RunID: "01RUN"})
	defer j.Close()
	ctx := t.Context()
	a, b := mustAddr(t, "tpf_thing.a"), mustAddr(t, "tpf_thing.b")
	versions, err := j.Commit(ctx, []recordstore.InstanceChange{
		{Addr: a, ProviderConfig: testProviderConfig, Instance: withObject(`{"id":"a"}`)},
		{Addr: b, ProviderConfig: testProviderConfig, Instance: withObject(`{"id":"b"}`)},
	})
	if err != nil || len(versions) != 2 {
		t.Fatalf("Commit = %v, %v; want two versions", versions, err)
	}
	stale := versions[a.String()]
	fresh := versions[b.String()]
	if _, err := st.Commit(ctx, []recordstore.InstanceChange{{Addr: a, ProviderConfig: testProviderConfig, Instance: withObject(`{"id":"theirs"}`), Prior: &stale}}); err != nil {
		t.Fatal(err)
	}
	versions, err = j.Commit(ctx, []recordstore.InstanceChange{
		{Addr: a, ProviderConfig: testProviderConfig, Instance: nil, Prior: &stale},
		{Addr: b, ProviderConfig: testProviderConfig, Instance: nil, Prior: &fresh},
	})
	var conflict *recordstore.ConflictError
	if !errors.As(err, &conflict) || conflict.Addr.String() != a.String() {
		t.Fatalf("Commit error %v; want a conflict on %s", err, a)
	}
	if len(versions) != 0 {
		t.Errorf("deleted instances have versions: %v", versions)
	}
	if rec, err := st.ReadInstance(ctx, b); err != nil || rec != nil {
		t.Errorf("b was not deleted beside a's conflict: %+v, %v", rec, err)
	}
}
