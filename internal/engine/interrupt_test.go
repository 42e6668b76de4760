package engine

import (
	"context"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// TestInterruptedUpdateIsNotTainted: an update stopped part-way by an
// interrupt leaves the existing object as it was, not tainted, so the next
// plan updates it again instead of replacing it. (Only a failed create is
// tainted.)
func TestInterruptedUpdateIsNotTainted(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "x" {
  name        = "x"
  description = "one"
}`)
	h.apply(h.plan(PlanOpts{}))
	h.config(`
resource "tpf_thing" "x" {
  name        = "x"
  description = "two"
  fail        = "hang"
}`)
	plan := h.plan(PlanOpts{})
	if got := actions(plan)["tpf_thing.x"]; got != plans.Update {
		t.Fatalf("changing description planned %s, want update", got)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	e := h.engine(nil)
	e.opts.Hooks = []Hook{&cancelOnApplyHook{addr: "tpf_thing.x", cancel: cancel}}
	done := make(chan bool)
	go func() { done <- e.Apply(ctx, plan).HasErrors() }()
	select {
	case failed := <-done:
		if !failed {
			t.Fatal("the interrupted apply reported success")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("apply did not return after it was cancelled")
	}
	if inst := h.instance("tpf_thing.x"); inst == nil || inst.Current == nil || inst.Current.Status == states.ObjectTainted {
		t.Fatalf("after the interrupted update tpf_thing.x is %+v, want its object kept and not tainted", inst)
	}
	h.config(`
resource "tpf_thing" "x" {
  name        = "x"
  description = "two"
}`)
	if got := actions(h.plan(PlanOpts{}))["tpf_thing.x"]; got != plans.Update {
		t.Errorf("after an interrupted update the next plan does %s to tpf_thing.x, want update", got)
	}
}
