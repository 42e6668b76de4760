package engine

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// crashUpdate leaves an update intent open on tpf_thing.upd, as a run
// whose provider died mid-call does, and returns that run's ID.
func crashUpdate(t *testing.T, h *harness, extra string) string {
	t.Helper()
	h.config(`
resource "tpf_thing" "upd" {
  name        = "upd"
  description = "one"
}` + extra)
	h.apply(h.plan(PlanOpts{}))
	h.config(`
resource "tpf_thing" "upd" {
  name        = "upd"
  description = "two"
  fail        = "crash"
}` + extra)
	plan := h.plan(PlanOpts{})
	e := h.engine(nil)
	if ds := e.Apply(t.Context(), plan); !ds.HasErrors() {
		t.Fatal("apply through a crashing provider reported no error")
	}
	return e.opts.RunID
}

// TestApplyRecoversIntentsLeftByRunsThatEnded: a plan made while another
// run held an intent leaves that address alone; by the time the plan is
// applied the run has ended, and the apply reads the object back before
// changing anything else.
func TestApplyRecoversIntentsLeftByRunsThatEnded(t *testing.T) {
	h := newHarness(t)
	crashedRun := crashUpdate(t, h, "")
	if inst := h.instance("tpf_thing.upd"); inst == nil || inst.Intent == nil {
		t.Fatalf("the crash left no intent open: %#v", inst)
	}
	h.config(`
resource "tpf_thing" "upd" {
  name        = "upd"
  description = "two"
}
resource "tpf_thing" "other" {
  name = "other"
}`)
	// While the crashed run still counts as alive, its intent is a claim.
	stillRunning := enterRun(crashedRun)
	plan, ds := h.planWith(nil)
	stillRunning()
	if ds.HasErrors() || findDiag(ds, "Another run is changing tpf_thing.upd") == nil {
		t.Fatalf("plan during another run's claim: %v; want a warning naming tpf_thing.upd", ds)
	}
	if _, planned := actions(plan)["tpf_thing.upd"]; planned {
		t.Fatalf("a claimed address was planned: %v", actions(plan))
	}

	if ads := h.engine(nil).Apply(t.Context(), plan); ads.HasErrors() {
		t.Fatalf("apply: %s", ads.Err())
	}
	inst := h.instance("tpf_thing.upd")
	if inst == nil || inst.Intent != nil || inst.Current == nil {
		t.Fatalf("apply did not resolve the intent the ended run left: %#v", inst)
	}
	if h.instance("tpf_thing.other") == nil {
		t.Fatal("the planned create did not happen")
	}
}

// TestSavedPlanRefusesAnAddressWithAnUnfinishedCreate: a plan saved before
// another run's create crashed at the same address must not create a
// second object there. The plan found the address absent, so it is stale
// as a whole and nothing is applied.
func TestSavedPlanRefusesAnAddressWithAnUnfinishedCreate(t *testing.T) {
	h := newHarness(t)
	safe := `
resource "tpf_thing" "boom" {
  name = "boom"
}
resource "tpf_thing" "other" {
  name = "other"
}
resource "tpf_thing" "after" {
  name = "after-${tpf_thing.boom.id}"
}`
	h.config(safe)
	saved := h.plan(PlanOpts{})

	h.config(`
resource "tpf_thing" "boom" {
  name = "boom"
  fail = "crash"
}`)
	if ds := h.engine(nil).Apply(t.Context(), h.plan(PlanOpts{})); !ds.HasErrors() {
		t.Fatal("apply through a crashing provider reported no error")
	}

	h.config(safe)
	ds := h.engine(nil).Apply(t.Context(), saved)
	d := findDiag(ds, changedUnderRunSummary)
	if d == nil || d.Address != "tpf_thing.boom" || !strings.Contains(d.Detail, "did not exist when the plan was made") {
		t.Fatalf("applying the saved plan: %v; want it refused as stale at tpf_thing.boom", ds)
	}
	inst := h.instance("tpf_thing.boom")
	if inst == nil || inst.Intent == nil || inst.Current != nil {
		t.Fatalf("the unfinished create's record was changed: %#v", inst)
	}
	if h.instance("tpf_thing.other") != nil {
		t.Error("a stale plan was applied in part")
	}
	if h.instance("tpf_thing.after") != nil {
		t.Error("an instance reading the refused one was created")
	}
	if got := actions(saved)["tpf_thing.boom"]; got != plans.Create {
		t.Fatalf("saved plan has %s for tpf_thing.boom, want create", got)
	}
}

// instance is the recorded instance at addr, or nil.
func (h *harness) instance(addr string) *states.ResourceInstance {
	h.t.Helper()
	snap, err := h.store.Load(h.t.Context())
	if err != nil {
		h.t.Fatal(err)
	}
	return snap.State.ResourceInstance(mustInstance(h.t, addr))
}
