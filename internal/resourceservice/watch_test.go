package resourceservice_test

import (
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/terrane/terrane/proto/pbresource"
)

func TestWatchListSnapshotThenOrderedDeltasUnderConcurrentWriters(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.write(t, newResource(t, newID(trackType, "before"), "0"))
	stream, err := f.client.WatchList(ctxFor(t), &pbresource.WatchListRequest{Type: trackType, Tenancy: projectTenancy})
	if err != nil {
		t.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil || first.GetUpsert().GetResource().GetId().GetName() != "before" {
		t.Fatalf("first event %v, %v; want the snapshot upsert of \"before\"", first, err)
	}
	if end, err := stream.Recv(); err != nil || end.GetEndOfSnapshot() == nil {
		t.Fatalf("second event %v, %v; want EndOfSnapshot", end, err)
	}

	const writers, writesEach = 4, 25
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := 1; i <= writesEach; i++ {
				f.write(t, newResource(t, newID(trackType, fmt.Sprintf("writer-%d", w)), strconv.Itoa(i)))
			}
			if err := f.delete(t, newID(trackType, fmt.Sprintf("writer-%d", w)), ""); err != nil {
				t.Error(err)
			}
		})
	}
	lastSeen := map[string]int{}
	lastVersion := map[string]string{}
	deleted := 0
	for deleted < writers {
		event, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if del := event.GetDelete(); del != nil {
			name := del.GetResource().GetId().GetName()
			if lastSeen[name] != writesEach {
				t.Fatalf("%s deleted after its write %d, want after %d", name, lastSeen[name], writesEach)
			}
			deleted++
			continue
		}
		res := event.GetUpsert().GetResource()
		name := res.GetId().GetName()
		n, _ := strconv.Atoi(titleOf(t, res))
		if n != lastSeen[name]+1 {
			t.Fatalf("%s: event for write %d after write %d; events must arrive in order", name, n, lastSeen[name])
		}
		if res.GetVersion() == lastVersion[name] {
			t.Fatalf("%s: two events with version %s", name, res.GetVersion())
		}
		lastSeen[name], lastVersion[name] = n, res.GetVersion()
	}
	wg.Wait()
}
