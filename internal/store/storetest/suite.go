package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"google.golang.org/protobuf/proto"
)

// NewBackend returns a fresh, empty backend for one subtest. The suite
// closes it; closing it again in a cleanup must be harmless.
type NewBackend func(t *testing.T) store.Backend

// Run runs the conformance suite against backends made by newBackend.
func Run(t *testing.T, newBackend NewBackend) {
	tests := []struct {
		name string
		run  func(*testing.T, store.Backend)
	}{
		{"CreateIfAbsent", testCreateIfAbsent},
		{"CASWrite", testCASWrite},
		{"WrongUid", testWrongUid},
		{"CASRace", testCASRace},
		{"DeleteCAS", testDeleteCAS},
		{"ReadConsistency", testReadConsistency},
		{"GroupVersionMismatch", testGroupVersionMismatch},
		{"ListTenancyAndPrefix", testListTenancyAndPrefix},
		{"ListEachStops", testListEachStops},
		{"ListByOwner", testListByOwner},
		{"BatchAllOrNothing", testBatchAllOrNothing},
		{"BatchResults", testBatchResults},
		{"BatchSeesEarlierOps", testBatchSeesEarlierOps},
		{"ReadMany", testReadMany},
		{"WatchSnapshotThenEvents", testWatchSnapshotThenEvents},
		{"WatchFilters", testWatchFilters},
		{"WatchConcurrentWriters", testWatchConcurrentWriters},
		{"WatchSeesBatches", testWatchSeesBatches},
		{"CloseEndsWatches", testCloseEndsWatches},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBackend(t)
			t.Cleanup(func() { _ = b.Close() })
			tc.run(t, b)
		})
	}
}

func testCreateIfAbsent(t *testing.T, b store.Backend) {
	res := resource(t, id(typeV1, defaultTenancy, "null_resource.a"), "one")
	stored := mustWrite(t, b, res)
	if stored.GetVersion() == "" {
		t.Fatal("WriteCAS returned no Version")
	}
	if payloadOf(t, stored) != "one" || stored.GetGeneration() != "gen-one" {
		t.Fatalf("WriteCAS returned %v, not the written resource", stored)
	}
	_, err := b.WriteCAS(ctxFor(t), resource(t, id(typeV1, defaultTenancy, "null_resource.a"), "two"))
	expectErr(t, "second create of the same name", err, store.ErrCASFailure)

	_, err = b.WriteCAS(ctxFor(t), withVersion(resource(t, id(typeV1, defaultTenancy, "null_resource.b"), "x"), "12345"))
	expectErr(t, "update of an absent resource", err, store.ErrCASFailure)
	_, err = b.Read(ctxFor(t), store.StrongConsistency, id(typeV1, defaultTenancy, "null_resource.b"))
	expectErr(t, "read after failed update", err, store.ErrNotFound)
}

func withVersion(res *pbresource.Resource, version string) *pbresource.Resource {
	res.Version = version
	return res
}

func testCASWrite(t *testing.T, b store.Backend) {
	resID := id(typeV1, defaultTenancy, "null_resource.a")
	first := mustWrite(t, b, resource(t, resID, "one"))
	second := mustWrite(t, b, withVersion(resource(t, resID, "two"), first.GetVersion()))
	if second.GetVersion() == first.GetVersion() {
		t.Fatalf("Version did not change on write: still %q", first.GetVersion())
	}
	_, err := b.WriteCAS(ctxFor(t), withVersion(resource(t, resID, "stale"), first.GetVersion()))
	expectErr(t, "write at a stale Version", err, store.ErrCASFailure)

	// A write that changes nothing still gets a new Version: status writes
	// and retries rely on that.
	third := mustWrite(t, b, withVersion(resource(t, resID, "two"), second.GetVersion()))
	if third.GetVersion() == second.GetVersion() {
		t.Fatal("Version did not change on an identical write")
	}
	read, err := b.Read(ctxFor(t), store.StrongConsistency, resID)
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(read, third) {
		t.Fatalf("Read returned %v, want the last write %v", read, third)
	}
}

func testWrongUid(t *testing.T, b store.Backend) {
	resID := id(typeV1, defaultTenancy, "null_resource.a")
	first := mustWrite(t, b, resource(t, resID, "one"))
	other := resource(t, id(typeV1, defaultTenancy, "null_resource.a"), "impostor")
	other.Id.Uid = "another-uid"
	_, err := b.WriteCAS(ctxFor(t), withVersion(other, first.GetVersion()))
	expectErr(t, "write with another Uid", err, store.ErrWrongUid)
}

// testCASRace has several writers update one resource from the same
// Version at once: exactly one may win, the others must get ErrCASFailure.
func testCASRace(t *testing.T, b store.Backend) {
	resID := id(typeV1, defaultTenancy, "null_resource.contended")
	base := mustWrite(t, b, resource(t, resID, "base"))
	const racers = 6
	results := make(chan error, racers)
	ctx := ctxFor(t)
	for racer := range racers {
		update := withVersion(resource(t, resID, fmt.Sprintf("racer-%d", racer)), base.GetVersion())
		go func() {
			_, err := b.WriteCAS(ctx, update)
			results <- err
		}()
	}
	wins := 0
	for range racers {
		switch err := <-results; {
		case err == nil:
			wins++
		case !errors.Is(err, store.ErrCASFailure):
			t.Fatalf("losing racer got %v, want ErrCASFailure", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d writers won a race from the same Version, want exactly 1", wins)
	}
}

func testDeleteCAS(t *testing.T, b store.Backend) {
	resID := id(typeV1, defaultTenancy, "null_resource.a")
	if err := b.DeleteCAS(ctxFor(t), resID, "1"); err != nil {
		t.Fatalf("deleting an absent resource: %v, want success", err)
	}
	first := mustWrite(t, b, resource(t, resID, "one"))
	second := mustWrite(t, b, withVersion(resource(t, resID, "two"), first.GetVersion()))
	expectErr(t, "delete at a stale Version", b.DeleteCAS(ctxFor(t), resID, first.GetVersion()), store.ErrCASFailure)
	if _, err := b.Read(ctxFor(t), store.StrongConsistency, resID); err != nil {
		t.Fatalf("resource gone after a failed delete: %v", err)
	}
	if err := b.DeleteCAS(ctxFor(t), resID, second.GetVersion()); err != nil {
		t.Fatal(err)
	}
	_, err := b.Read(ctxFor(t), store.StrongConsistency, resID)
	expectErr(t, "read after delete", err, store.ErrNotFound)
	if err := b.DeleteCAS(ctxFor(t), resID, second.GetVersion()); err != nil {
		t.Fatalf("repeating a delete: %v, want success", err)
	}
	// The name is free again, and the new resource's Version is new.
	third := mustWrite(t, b, resource(t, resID, "three"))
	if third.GetVersion() == first.GetVersion() || third.GetVersion() == second.GetVersion() {
		t.Fatalf("re-created resource reused Version %q", third.GetVersion())
	}
}

func testReadConsistency(t *testing.T, b store.Backend) {
	resID := id(typeV1, defaultTenancy, "null_resource.a")
	_, err := b.Read(ctxFor(t), store.EventualConsistency, resID)
	expectErr(t, "read of an absent resource", err, store.ErrNotFound)
	written := mustWrite(t, b, resource(t, resID, "one"))
	strong, err := b.Read(ctxFor(t), store.StrongConsistency, resID)
	if err != nil || strong.GetVersion() != written.GetVersion() {
		t.Fatalf("strong read after write: %v, %v; want Version %s", strong, err, written.GetVersion())
	}
	// An eventually consistent read must catch up quickly.
	deadline := time.Now().Add(5 * time.Second)
	for {
		eventual, err := b.Read(ctxFor(t), store.EventualConsistency, resID)
		if err == nil && eventual.GetVersion() == written.GetVersion() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("eventual read never saw the write: %v, %v", eventual, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The Uid of the requested ID is not part of the lookup.
	otherUid := proto.Clone(resID).(*pbresource.ID)
	otherUid.Uid = "whatever"
	if _, err := b.Read(ctxFor(t), store.StrongConsistency, otherUid); err != nil {
		t.Fatalf("read with another Uid: %v, want the resource", err)
	}
}

func testGroupVersionMismatch(t *testing.T, b store.Backend) {
	mustWrite(t, b, resource(t, id(typeV1, defaultTenancy, "null_resource.a"), "one"))
	_, err := b.Read(ctxFor(t), store.StrongConsistency, id(typeV2, defaultTenancy, "null_resource.a"))
	var mismatch store.GroupVersionMismatchError
	if !errors.As(err, &mismatch) {
		t.Fatalf("read with another GroupVersion: %v, want GroupVersionMismatchError", err)
	}
	if mismatch.Stored.GetId().GetType().GetGroupVersion() != "v1" || payloadOf(t, mismatch.Stored) != "one" {
		t.Fatalf("mismatch error carries %v, want the stored v1 resource", mismatch.Stored)
	}
	// GroupVersion is not identity: listing with v2 finds the v1 record.
	listed, err := b.List(ctxFor(t), store.StrongConsistency, typeV2, defaultTenancy, "")
	if err != nil || len(listed) != 1 {
		t.Fatalf("List with another GroupVersion: %d resources, %v; want 1", len(listed), err)
	}
}
