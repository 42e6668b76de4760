package storetest

import (
	"context"
	"errors"
	"fmt"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

func mustWatch(t *testing.T, b store.Backend, resType *pbresource.Type, ten *pbresource.Tenancy, prefix string) store.Watch {
	t.Helper()
	w, err := b.WatchList(ctxFor(t), resType, ten, prefix)
	if err != nil {
		t.Fatalf("WatchList: %v", err)
	}
	t.Cleanup(w.Close)
	return w
}

func expectEvent(t *testing.T, w store.Watch, kind store.EventKind, name, version string) *pbresource.Resource {
	t.Helper()
	ev := nextEvent(t, w)
	if ev.Kind != kind || ev.Resource.GetId().GetName() != name || (version != "" && ev.Resource.GetVersion() != version) {
		t.Fatalf("watch event %v %s@%s, want %v %s@%s", ev.Kind, ev.Resource.GetId().GetName(), ev.Resource.GetVersion(), kind, name, version)
	}
	return ev.Resource
}

func testWatchSnapshotThenEvents(t *testing.T, b store.Backend) {
	first := mustWrite(t, b, resource(t, id(typeV1, defaultTenancy, "null_resource.a"), "a"))
	w := mustWatch(t, b, typeV1, defaultTenancy, "")
	snap := expectEvent(t, w, store.EventUpsert, "null_resource.a", first.GetVersion())
	if payloadOf(t, snap) != "a" {
		t.Fatalf("snapshot carries %q, want the stored data", payloadOf(t, snap))
	}
	if ev := nextEvent(t, w); ev.Kind != store.EventEndOfSnapshot {
		t.Fatalf("after the snapshot got event %v, want EndOfSnapshot", ev.Kind)
	}
	second := mustWrite(t, b, resource(t, id(typeV1, defaultTenancy, "null_resource.b"), "b"))
	updated := mustWrite(t, b, withVersion(resource(t, first.GetId(), "a2"), first.GetVersion()))
	if err := b.DeleteCAS(ctxFor(t), second.GetId(), second.GetVersion()); err != nil {
		t.Fatal(err)
	}
	expectEvent(t, w, store.EventUpsert, "null_resource.b", second.GetVersion())
	if res := expectEvent(t, w, store.EventUpsert, "null_resource.a", updated.GetVersion()); payloadOf(t, res) != "a2" {
		t.Fatalf("upsert carries %q, want a2", payloadOf(t, res))
	}
	if res := expectEvent(t, w, store.EventDelete, "null_resource.b", ""); payloadOf(t, res) != "b" {
		t.Fatalf("delete event carries %q, want the last stored value b", payloadOf(t, res))
	}
	// A failed CAS and a delete of an absent resource change nothing, so
	// they must not be reported.
	_, _ = b.WriteCAS(ctxFor(t), resource(t, first.GetId(), "conflict"))
	_ = b.DeleteCAS(ctxFor(t), second.GetId(), second.GetVersion())
	expectQuiet(t, w)
}

func testWatchFilters(t *testing.T, b store.Backend) {
	mustWrite(t, b, resource(t, id(typeV1, tenancy("p1", "ns1"), "null_resource.old"), "x"))
	mustWrite(t, b, resource(t, id(typeV1, tenancy("p1", "ns1"), "random_id.old"), "x"))
	byPrefix := mustWatch(t, b, typeV1, tenancy("p1", store.Wildcard), "null_resource.")
	expectEvent(t, byPrefix, store.EventUpsert, "null_resource.old", "")
	if ev := nextEvent(t, byPrefix); ev.Kind != store.EventEndOfSnapshot {
		t.Fatalf("got %v, want EndOfSnapshot", ev.Kind)
	}
	byType := mustWatch(t, b, otherType, tenancy(store.Wildcard, store.Wildcard), "")
	if ev := nextEvent(t, byType); ev.Kind != store.EventEndOfSnapshot {
		t.Fatalf("empty snapshot: got %v, want EndOfSnapshot", ev.Kind)
	}
	mustWrite(t, b, resource(t, id(typeV1, tenancy("p2", "ns1"), "null_resource.elsewhere"), "x"))
	mustWrite(t, b, resource(t, id(typeV1, tenancy("p1", "ns2"), "random_id.skip"), "x"))
	mustWrite(t, b, resource(t, id(otherType, tenancy("p1", "ns1"), "null_resource.output"), "x"))
	mustWrite(t, b, resource(t, id(typeV1, tenancy("p1", "ns2"), "null_resource.match"), "x"))
	expectEvent(t, byPrefix, store.EventUpsert, "null_resource.match", "")
	expectQuiet(t, byPrefix)
	expectEvent(t, byType, store.EventUpsert, "null_resource.output", "")
	expectQuiet(t, byType)
}

func testWatchSeesBatches(t *testing.T, b store.Backend) {
	w := mustWatch(t, b, typeV1, defaultTenancy, "")
	nextEvent(t, w) // EndOfSnapshot
	ops := make([]store.Op, 0, 300)
	for i := range 300 {
		ops = append(ops, store.Op{Kind: store.OpWrite, Resource: resource(t, id(typeV1, defaultTenancy, fmt.Sprintf("r%03d", i)), "x")})
	}
	out, err := b.Batch(ctxFor(t), ops)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for range ops {
		ev := nextEvent(t, w)
		if _, dup := seen[ev.Resource.GetId().GetName()]; dup || ev.Kind != store.EventUpsert {
			t.Fatalf("batch event %v for %s: duplicate or not an upsert", ev.Kind, ev.Resource.GetId().GetName())
		}
		seen[ev.Resource.GetId().GetName()] = ev.Resource.GetVersion()
	}
	for _, res := range out {
		if seen[res.GetId().GetName()] != res.GetVersion() {
			t.Fatalf("watch saw %s@%s, batch stored @%s", res.GetId().GetName(), seen[res.GetId().GetName()], res.GetVersion())
		}
	}
	expectQuiet(t, w)
}

// testWatchConcurrentWriters has several writers update their own resources
// while two watchers follow. Each watcher must see every write exactly once,
// each writer's writes in the order it made them, and both watchers the same
// sequence: the backend's one order of changes.
func testWatchConcurrentWriters(t *testing.T, b store.Backend) {
	const writers, writesEach = 4, 25
	watchers := []store.Watch{mustWatch(t, b, typeV1, defaultTenancy, ""), mustWatch(t, b, typeV1, defaultTenancy, "")}
	for _, w := range watchers {
		if ev := nextEvent(t, w); ev.Kind != store.EventEndOfSnapshot {
			t.Fatalf("got %v, want EndOfSnapshot", ev.Kind)
		}
	}
	acknowledged := make([][]string, writers) // per writer: name@version in write order
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for writer := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acks, err := writeSequence(b, writer, writesEach)
			acknowledged[writer] = acks
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var sequences [][]string
	for _, w := range watchers {
		sequences = append(sequences, collectEvents(t, w, writers*writesEach))
	}
	if !slices.Equal(sequences[0], sequences[1]) {
		t.Fatal("two watchers saw the writes in different orders")
	}
	for writer, acks := range acknowledged {
		var seen []string
		for _, ev := range sequences[0] {
			if slices.Contains(acks, ev) {
				seen = append(seen, ev)
			}
		}
		if !slices.Equal(seen, acks) {
			t.Fatalf("writer %d: watch saw %v, writes were acknowledged as %v", writer, seen, acks)
		}
	}
	for _, w := range watchers {
		expectQuiet(t, w)
	}
}

func writeSequence(b store.Backend, writer, count int) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	versions := map[string]string{}
	var acks []string
	for i := range count {
		name := fmt.Sprintf("w%d.r%d", writer, i%3)
		payload := fmt.Sprintf("writer %d write %d", writer, i)
		data, err := anypb.New(wrapperspb.String(payload))
		if err != nil {
			return nil, err
		}
		res := &pbresource.Resource{Id: id(typeV1, defaultTenancy, name), Version: versions[name], Data: data, Generation: generationOf(payload)}
		if i%5 == 4 && versions[name] != "" {
			if err := b.DeleteCAS(ctx, res.Id, versions[name]); err != nil {
				return nil, fmt.Errorf("writer %d delete %s: %w", writer, name, err)
			}
			acks = append(acks, "delete "+name+"@"+versions[name])
			delete(versions, name)
			continue
		}
		stored, err := b.WriteCAS(ctx, res)
		if err != nil {
			return nil, fmt.Errorf("writer %d write %s: %w", writer, name, err)
		}
		versions[name] = stored.Version
		acks = append(acks, "upsert "+name+"@"+stored.Version)
	}
	return acks, nil
}

func collectEvents(t *testing.T, w store.Watch, count int) []string {
	t.Helper()
	out := make([]string, 0, count)
	for range count {
		ev := nextEvent(t, w)
		kind := map[store.EventKind]string{store.EventUpsert: "upsert", store.EventDelete: "delete"}[ev.Kind]
		out = append(out, kind+" "+ev.Resource.GetId().GetName()+"@"+ev.Resource.GetVersion())
	}
	return out
}

func testCloseEndsWatches(t *testing.T, b store.Backend) {
	w := mustWatch(t, b, typeV1, defaultTenancy, "")
	nextEvent(t, w)
	ended := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := w.Next(ctx)
		ended <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := b.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	err := <-ended
	if err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("watch after Close: %v, want it to end with an error at once", err)
	}
	closedWatch := mustWatchOrNil(b)
	if closedWatch != nil {
		t.Fatal("WatchList on a closed backend succeeded")
	}
	if err := b.Close(); err != nil {
		t.Fatalf("second Close: %v, want no error", err)
	}
}

func mustWatchOrNil(b store.Backend) store.Watch {
	w, err := b.WatchList(context.Background(), typeV1, defaultTenancy, "")
	if err != nil {
		return nil
	}
	return w
}
