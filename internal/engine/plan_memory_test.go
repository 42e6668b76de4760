package engine

import (
	"runtime"
	"testing"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// planBytesBeyondRecords applies n null- and random-like instances, plans
// again with refresh and no changes, and returns what the plan holds per
// instance beyond the state records it was made from (which the plan keeps
// for its prior records).
func planBytesBeyondRecords(t testing.TB, n int) (perInstance float64) {
	h := newHarness(t)
	h.writeConfig(map[string]string{"main.tf": providertest.NullRandomConfig(h.cloud, n)})
	h.apply(h.plan(PlanOpts{}))

	plan := h.plan(PlanOpts{})
	if !plan.Changes.IsEmpty() {
		t.Fatalf("the second plan proposes changes: %v", actions(plan))
	}
	withPlan := liveHeap()
	runtime.KeepAlive(plan)
	plan = nil
	without := liveHeap()
	snap, err := h.store.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	withRecords := liveHeap()
	runtime.KeepAlive(snap)
	planBytes, recordBytes := float64(withPlan)-float64(without), float64(withRecords)-float64(without)
	return (planBytes - recordBytes) / float64(n)
}

// BenchmarkNoChangePlanMemory reports what a no-change plan of 1,000
// null- and random-like instances holds per instance beyond the records it
// was made from.
//
//	go test -run '^$' -bench NoChangePlanMemory -benchtime 1x ./internal/engine
func BenchmarkNoChangePlanMemory(b *testing.B) {
	for range b.N {
		b.ReportMetric(planBytesBeyondRecords(b, 1000), "B/instance-beyond-records")
	}
}
