package engine

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
)

// callOrderHook records the provider calls of an apply as "start ACTION
// ADDR" and "end ADDR" in the order they happen. It holds every delete back
// a moment before it starts, so that a change not ordered after a delete
// starts first.
type callOrderHook struct {
	NilHook
	mu     sync.Mutex
	events []string
}

func (h *callOrderHook) PreApply(addr addrs.AbsResourceInstance, _ addrs.DeposedKey, action plans.Action, _, _ cty.Value) {
	if action == plans.Delete {
		time.Sleep(300 * time.Millisecond)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, fmt.Sprintf("start %s %s", action, addr))
}

func (h *callOrderHook) PostApply(addr addrs.AbsResourceInstance, _ addrs.DeposedKey, _ cty.Value, _ error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, "end "+addr.String())
}

// finishedBefore reports whether the call on first ended before the call
// on second started.
func (h *callOrderHook) finishedBefore(t *testing.T, first, second string) bool {
	t.Helper()
	end := slices.Index(h.events, "end "+first)
	start := slices.IndexFunc(h.events, func(e string) bool {
		return len(e) > len(second) && e[:6] == "start " && e[len(e)-len(second)-1:] == " "+second
	})
	if end < 0 || start < 0 {
		t.Fatalf("calls on %s and %s not both made: %v", first, second, h.events)
	}
	return end < start
}

// applyObserved applies plan and returns the order of its provider calls.
func (h *harness) applyObserved(plan *plans.Plan) *callOrderHook {
	h.t.Helper()
	hook := &callOrderHook{}
	e := h.engine(nil)
	e.opts.Hooks = []Hook{hook}
	if ds := e.Apply(h.t.Context(), plan); ds.HasErrors() {
		h.t.Fatalf("apply: %s", ds.Err())
	}
	return hook
}

// recordedDependencies are the dependencies the state records for addr.
func (h *harness) recordedDependencies(addr string) []string {
	h.t.Helper()
	snap, err := h.store.Load(h.t.Context())
	if err != nil {
		h.t.Fatal(err)
	}
	inst := snap.State.ResourceInstance(mustInstance(h.t, addr))
	if inst == nil || inst.Current == nil {
		h.t.Fatalf("%s is not in state", addr)
	}
	var out []string
	for _, dep := range inst.Current.Dependencies {
		out = append(out, dep.String())
	}
	slices.Sort(out)
	return out
}

// TestDependenciesThroughDataSources: a resource that depends on a data
// source depends on what the data source reads, in the dependencies its
// state records and in the order a destroy deletes.
func TestDependenciesThroughDataSources(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "c" {
  name = "c"
}
data "tpf_thing" "b" {
  id = tpf_thing.c.id
}
resource "tpf_thing" "a" {
  name       = "a"
  depends_on = [data.tpf_thing.b]
}
resource "tpf_thing" "n" {
  name        = "n"
  description = tpf_thing.a.id
}`)
	h.apply(h.plan(PlanOpts{}))
	for addr, want := range map[string][]string{
		"tpf_thing.a": {"data.tpf_thing.b", "tpf_thing.c"},
		"tpf_thing.n": {"data.tpf_thing.b", "tpf_thing.a", "tpf_thing.c"},
	} {
		if got := h.recordedDependencies(addr); !slices.Equal(got, want) {
			t.Errorf("%s records dependencies %v, want %v", addr, got, want)
		}
	}
	calls := h.applyObserved(h.plan(PlanOpts{Mode: plans.DestroyMode}))
	if !calls.finishedBefore(t, "tpf_thing.a", "tpf_thing.c") {
		t.Errorf("tpf_thing.c was deleted while tpf_thing.a, which depends on it through data.tpf_thing.b, still existed: %v", calls.events)
	}
	if !calls.finishedBefore(t, "tpf_thing.n", "tpf_thing.a") {
		t.Errorf("tpf_thing.a was deleted before its dependent tpf_thing.n: %v", calls.events)
	}
}

// TestOrphanOrderedByRecordedDependencies: an object the configuration no
// longer has is deleted in the order the dependencies recorded in state
// give, as OpenTofu orders it: a former dependent's update waits for the
// delete, and so does the update of what the orphan depended on.
func TestOrphanOrderedByRecordedDependencies(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "c" {
  name        = "c"
  description = "one"
}
resource "tpf_thing" "x" {
  name        = "x"
  description = tpf_thing.c.id
}
resource "tpf_thing" "y" {
  name        = "y"
  description = tpf_thing.x.id
}
resource "tpf_thing" "z" {
  name        = "z"
  description = tpf_thing.c.id
}`)
	h.apply(h.plan(PlanOpts{}))
	h.config(`
resource "tpf_thing" "c" {
  name        = "c"
  description = "two"
}
resource "tpf_thing" "y" {
  name        = "y"
  description = "fixed"
}
resource "tpf_thing" "z" {
  name        = "z"
  description = "fixed"
}`)
	plan := h.plan(PlanOpts{})
	if got := actions(plan); got["tpf_thing.x"] != plans.Delete || got["tpf_thing.y"] != plans.Update || got["tpf_thing.c"] != plans.Update {
		t.Fatalf("planned %v, want tpf_thing.x deleted and the others updated", got)
	}
	calls := h.applyObserved(plan)
	if !calls.finishedBefore(t, "tpf_thing.x", "tpf_thing.y") {
		t.Errorf("tpf_thing.y, which depended on tpf_thing.x, was updated before tpf_thing.x was deleted: %v", calls.events)
	}
	if !calls.finishedBefore(t, "tpf_thing.x", "tpf_thing.c") {
		t.Errorf("tpf_thing.c, which tpf_thing.x depended on, was updated before tpf_thing.x was deleted: %v", calls.events)
	}
	for _, addr := range []string{"tpf_thing.y", "tpf_thing.z"} {
		if got := h.recordedDependencies(addr); len(got) != 0 {
			t.Errorf("%s still records dependencies %v after its references were removed", addr, got)
		}
	}
}

// TestUnchangedInstanceRecordsCurrentDependencies: an apply brings the
// dependencies recorded with an object its plan leaves alone up to date
// with the configuration, so they order its delete correctly later.
func TestUnchangedInstanceRecordsCurrentDependencies(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "c" {
  name = "c"
}
resource "tpf_thing" "z" {
  name        = "z"
  description = tpf_thing.c.name
}
resource "tpf_thing" "k" {
  name = "k"
}`)
	h.apply(h.plan(PlanOpts{}))
	if got := h.recordedDependencies("tpf_thing.z"); !slices.Equal(got, []string{"tpf_thing.c"}) {
		t.Fatalf("tpf_thing.z records dependencies %v, want [tpf_thing.c]", got)
	}
	h.config(`
resource "tpf_thing" "c" {
  name = "c"
}
resource "tpf_thing" "z" {
  name        = "z"
  description = "c"
}
resource "tpf_thing" "k" {
  name        = "k"
  description = "changed"
}`)
	// A targeted apply leaves what its plan does not cover alone.
	h.apply(h.plan(PlanOpts{Targets: []addrs.Targetable{mustInstance(t, "tpf_thing.k").ContainingResource()}}))
	if got := h.recordedDependencies("tpf_thing.z"); !slices.Equal(got, []string{"tpf_thing.c"}) {
		t.Fatalf("an apply targeting tpf_thing.k rewrote tpf_thing.z's dependencies to %v", got)
	}
	h.config(`
resource "tpf_thing" "c" {
  name = "c"
}
resource "tpf_thing" "z" {
  name        = "z"
  description = "c"
}
resource "tpf_thing" "k" {
  name        = "k"
  description = "changed again"
}`)
	plan := h.plan(PlanOpts{})
	if got := actions(plan); got["tpf_thing.z"] != plans.NoOp || got["tpf_thing.k"] != plans.Update {
		t.Fatalf("planned %v, want tpf_thing.z unchanged and tpf_thing.k updated", got)
	}
	h.apply(plan)
	if got := h.recordedDependencies("tpf_thing.z"); len(got) != 0 {
		t.Errorf("unchanged tpf_thing.z still records dependencies %v after its reference was removed", got)
	}
	if got := actions(h.plan(PlanOpts{})); got["tpf_thing.z"] != plans.NoOp || got["tpf_thing.k"] != plans.NoOp {
		t.Errorf("after the apply the next plan is %v, want no changes", got)
	}
}
