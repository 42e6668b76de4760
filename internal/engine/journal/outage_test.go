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
