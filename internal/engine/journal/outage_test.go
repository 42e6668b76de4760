package journal

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/etcd"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
)

// openEtcdStore opens workspace "default" of project "test" on a real etcd
// server, with a short request timeout so an outage is noticed quickly.
func openEtcdStore(t *testing.T, server *etcdtest.Server) *recordstore.Store {
	t.Helper()
	backend, err := etcd.Dial(etcd.Connection{Endpoints: []string{server.Endpoint}}, etcd.Options{RequestTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return storeOn(t, backend)
}

// beginCalls opens create intents on n instances and returns their
// addresses and versions.
func beginCalls(t *testing.T, j *Journal, n int) ([]string, []*recordstore.RecordVersion) {
	t.Helper()
	names := make([]string, n)
	versions := make([]*recordstore.RecordVersion, n)
	for i := range n {
		names[i] = fmt.Sprintf("tpf_thing.t[%d]", i)
		v, err := j.BeginCall(t.Context(), mustAddr(t, names[i]), testProviderConfig,
			&states.ResourceInstance{Intent: plannedIntent(t, states.IntentCreate, names[i])}, nil)
		if err != nil {
			t.Fatal(err)
		}
		versions[i] = v
	}
	return names, versions
}

// finishAll records a result for every instance at once and returns each
// call's error.
func finishAll(t *testing.T, j *Journal, names []string, versions []*recordstore.RecordVersion) []error {
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			_, errs[i] = j.FinishCall(t.Context(), mustAddr(t, name), testProviderConfig, withObject(fmt.Sprintf(`{"id":"%d"}`, i)), versions[i])
		})
	}
	wg.Wait()
	return errs
}

// restartAfter starts the stopped server again after a pause; the channel
// closes once it answers (or failed to start, which fails the test).
func restartAfter(t *testing.T, server *etcdtest.Server, pause time.Duration) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(pause)
		server.Restart(t)
	}()
	return done
}

// TestResultsWaitForTheStoreToComeBack answers calls while the etcd server
// is down: the results are neither lost nor failed, but recorded once the
// server is back, and the wait is counted.
func TestResultsWaitForTheStoreToComeBack(t *testing.T) {
	server := etcdtest.Start(t)
	st := openEtcdStore(t, server)
	j := New(st, Options{RunID: "01RUN", RetryFor: time.Minute})
	defer j.Close()
	names, versions := beginCalls(t, j, 20)

	server.Stop()
	restarted := restartAfter(t, server, 2*time.Second)
	errs := finishAll(t, j, names, versions)
	<-restarted
	for i, err := range errs {
		if err != nil {
			t.Errorf("%s: %v", names[i], err)
		}
	}
	snap, err := st.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, entry := range snap.State.AllResourceInstances() {
		if entry.Instance.Intent != nil || entry.Instance.Current == nil {
			t.Errorf("%s was not recorded: %+v", entry.Addr, entry.Instance)
		}
	}
	if stats := j.Stats(); stats.Waited < time.Second || stats.Records != 40 || stats.Failed != 0 {
		t.Errorf("stats %+v: want a wait of about 2s, 40 writes and no failure", stats)
	}
}

// TestResultAppliedBeforeTheOutageIsReadBack stands for a commit the store
// applied but whose answer was lost: when the store is back, the journal
// finds the result already recorded and reports success, instead of
// failing its compare-and-swap against its own write.
func TestResultAppliedBeforeTheOutageIsReadBack(t *testing.T) {
	server := etcdtest.Start(t)
	st := openEtcdStore(t, server)
	j := New(st, Options{RunID: "01RUN", RetryFor: time.Minute})
	defer j.Close()
	// One call, so the journal's first commit — the one the outage cuts
	// off — carries it.
	names, versions := beginCalls(t, j, 1)
	// The "lost" commit: the first result is in the store already when
	// the journal's commit meets the outage.
	if _, err := openEtcdStore(t, server).Commit(t.Context(), []recordstore.InstanceChange{{
		Addr: mustAddr(t, names[0]), ProviderConfig: testProviderConfig, Instance: withObject(`{"id":"0"}`), Prior: versions[0],
	}}); err != nil {
		t.Fatal(err)
	}
	server.Stop()
	restarted := restartAfter(t, server, time.Second)
	errs := finishAll(t, j, names, versions)
	<-restarted
	for i, err := range errs {
		if err != nil {
			t.Errorf("%s: %v", names[i], err)
		}
	}
	// The record holds the result, once, with no intent left open.
	rec, err := openEtcdStore(t, server).ReadInstance(t.Context(), mustAddr(t, names[0]))
	if err != nil || rec == nil {
		t.Fatalf("reading %s back: %v", names[0], err)
	}
	if rec.Instance.Intent != nil || rec.Instance.Current == nil || string(rec.Instance.Current.AttrsJSON) != `{"id":"0"}` {
		t.Errorf("%s after the outage: intent %+v, object %+v; want the result and no intent", names[0], rec.Instance.Intent, rec.Instance.Current)
	}
}

// TestResultsFailWhenTheStoreStaysAway gives up after RetryFor with an
// error that says the store was unavailable.
func TestResultsFailWhenTheStoreStaysAway(t *testing.T) {
	server := etcdtest.Start(t)
	j := New(openEtcdStore(t, server), Options{RunID: "01RUN", RetryFor: 1500 * time.Millisecond})
	defer j.Close()
	names, versions := beginCalls(t, j, 2)
	server.Stop()
	for i, err := range finishAll(t, j, names, versions) {
		if !errors.Is(err, store.ErrUnavailable) {
			t.Errorf("%s: %v, want an error wrapping store.ErrUnavailable", names[i], err)
		}
	}
}

// TestOneRetryWindowPerOutage finishes calls in two rounds while the store
// stays away: the first waits RetryFor and fails; the second, still within
// the same outage, is tried once and fails without a window of its own, so
// a run whose results arrive one after another gives up after RetryFor,
// not after RetryFor for each result. Once the store is back, writes
// succeed again and a later outage gets a window of its own.
func TestOneRetryWindowPerOutage(t *testing.T) {
	server := etcdtest.Start(t)
	retryFor := 1500 * time.Millisecond
	j := New(openEtcdStore(t, server), Options{RunID: "01RUN", RetryFor: retryFor})
	defer j.Close()
	names, versions := beginCalls(t, j, 3)
	server.Stop()
	for i, err := range finishAll(t, j, names[:1], versions[:1]) {
		if !errors.Is(err, store.ErrUnavailable) {
			t.Fatalf("%s: %v, want an error wrapping store.ErrUnavailable", names[i], err)
		}
	}
	if waited := j.Stats().Waited; waited < retryFor {
		t.Fatalf("the first result waited %s for the store, want at least %s", waited, retryFor)
	}
	before := j.Stats().Waited
	for i, err := range finishAll(t, j, names[1:2], versions[1:2]) {
		if !errors.Is(err, store.ErrUnavailable) {
			t.Fatalf("%s: %v, want an error wrapping store.ErrUnavailable", names[1+i], err)
		}
	}
	if again := j.Stats().Waited - before; again >= retryFor/2 {
		t.Errorf("a result later in the same outage waited %s more, want no second window", again)
	}

	server.Restart(t)
	for i, err := range finishAll(t, j, names[2:], versions[2:]) {
		if err != nil {
			t.Fatalf("%s after the store came back: %v", names[2+i], err)
		}
	}
	server.Stop()
	before = j.Stats().Waited
	_, err := j.BeginCall(t.Context(), mustAddr(t, "tpf_thing.t[9]"), testProviderConfig,
		&states.ResourceInstance{Intent: plannedIntent(t, states.IntentCreate, "tpf_thing.t[9]")}, nil)
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("an intent in a second outage: %v, want an error wrapping store.ErrUnavailable", err)
	}
	if waited := j.Stats().Waited - before; waited < retryFor {
		t.Errorf("a second outage was waited for %s, want a window of its own (%s)", waited, retryFor)
	}
}
