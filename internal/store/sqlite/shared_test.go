package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/sqlite"
	"github.com/terrane/terrane/proto/pbresource"
)

func openAt(t *testing.T, path string, opts sqlite.Options) *sqlite.Backend {
	t.Helper()
	b, err := sqlite.Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func named(name string) *pbresource.Resource {
	return &pbresource.Resource{Id: &pbresource.ID{Type: crashType, Tenancy: crashTenancy, Name: name, Uid: name}}
}

// Two Backends on one file share nothing but the file, like two processes:
// a watch in one must follow writes made through the other.
func TestWatchFollowsAnotherWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	watcher := openAt(t, path, sqlite.Options{PollInterval: 20 * time.Millisecond})
	writer := openAt(t, path, sqlite.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w, err := watcher.WatchList(ctx, crashType, crashTenancy, "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if ev, err := w.Next(ctx); err != nil || ev.Kind != store.EventEndOfSnapshot {
		t.Fatalf("first event %v, %v; want EndOfSnapshot", ev.Kind, err)
	}
	var want []string
	for i := range 50 {
		written, err := writer.WriteCAS(ctx, named(fmt.Sprintf("r%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, written.Version)
	}
	for _, version := range want {
		ev, err := w.Next(ctx)
		if err != nil || ev.Resource.GetVersion() != version {
			t.Fatalf("watch got %v@%s (%v), want Version %s", ev.Kind, ev.Resource.GetVersion(), err, version)
		}
	}
}

// A watcher that falls behind the pruned change log must be told, not fed a
// history with holes.
func TestWatchBehindPrunedLogExpires(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	// The watcher does not poll on its own during the test: the second
	// WatchList below is what makes it look at the log.
	watcher := openAt(t, path, sqlite.Options{PollInterval: time.Hour})
	writer := openAt(t, path, sqlite.Options{KeepChanges: 1, KeepChangesFor: time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w, err := watcher.WatchList(ctx, crashType, crashTenancy, "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for round := range 2 {
		ops := make([]store.Op, 1100)
		for i := range ops {
			ops[i] = store.Op{Kind: store.OpWrite, Resource: named(fmt.Sprintf("round%d-%d", round, i))}
		}
		if _, err := writer.Batch(ctx, ops); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A new watch starts from a fresh snapshot and works.
	fresh, err := watcher.WatchList(ctx, crashType, crashTenancy, "round1-")
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, err := w.Next(ctx); err != nil {
		t.Fatalf("EndOfSnapshot: %v", err)
	}
	_, err = w.Next(ctx)
	if !errors.Is(err, store.ErrWatchExpired) {
		t.Fatalf("watch behind a pruned log: %v, want ErrWatchExpired", err)
	}
	for i := range 1100 {
		if ev, err := fresh.Next(ctx); err != nil || ev.Kind != store.EventUpsert {
			t.Fatalf("snapshot event %d: %v, %v", i, ev.Kind, err)
		}
	}
	if ev, err := fresh.Next(ctx); err != nil || ev.Kind != store.EventEndOfSnapshot {
		t.Fatalf("after the snapshot: %v, %v; want EndOfSnapshot", ev.Kind, err)
	}
}

// Writers on two Backends of one file (separate connections, as separate
// processes would have) contend for the write lock; every write must wait
// its turn and succeed, none may fail with "database is locked".
func TestConcurrentWritersOnOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	backends := []*sqlite.Backend{openAt(t, path, sqlite.Options{}), openAt(t, path, sqlite.Options{})}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	errs := make(chan error, 8)
	for writer := range 8 {
		go func() {
			b := backends[writer%2]
			for i := range 25 {
				if _, err := b.WriteCAS(ctx, named(fmt.Sprintf("w%d-%d", writer, i))); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent writer: %v", err)
		}
	}
	listed, err := backends[0].List(ctx, store.StrongConsistency, crashType, crashTenancy, "w")
	if err != nil || len(listed) != 200 {
		t.Fatalf("listed %d records (%v), want 200", len(listed), err)
	}
}
