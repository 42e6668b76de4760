package engine

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// TestFailedInstanceStopsOnlyWhatReadsIt: a[0] fails; b[1], which reads
// a[1], and everything independent are applied; b[0] (reads a[0]), the
// resource reading all of a, and the one with depends_on on a are not.
func TestFailedInstanceStopsOnlyWhatReadsIt(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "a" {
  count = 2
  name  = "a${count.index}"
  fail  = count.index == 0 ? "apply_error" : null
}
resource "tpf_thing" "b" {
  count       = 2
  name        = "b${count.index}"
  description = tpf_thing.a[count.index].id
}
resource "tpf_thing" "all" {
  name        = "all"
  description = join(",", tpf_thing.a[*].id)
}
resource "tpf_thing" "after" {
  name       = "after"
  depends_on = [tpf_thing.a]
}
resource "tpf_thing" "c" {
  name        = "c"
  description = tpf_thing.b[1].id
}
resource "tpf_thing" "independent" {
  name = "independent"
}
output "b1" {
  value = tpf_thing.b[1].id
}
output "b0" {
  value = tpf_thing.b[0].id
}`)
	ds := h.engine(nil).Apply(t.Context(), h.plan(PlanOpts{}))
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "tpf_thing.a[0]") {
		t.Fatalf("apply with a failing instance: %v, want an error naming tpf_thing.a[0]", ds.Err())
	}
	want := []string{"tpf_thing.a[1]", "tpf_thing.b[1]", "tpf_thing.c", "tpf_thing.independent"}
	if got := h.instances(); !slices.Equal(got, want) {
		t.Fatalf("after a partial apply the state has %v, want %v", got, want)
	}
	snap, _ := h.store.Load(t.Context())
	if snap.State.Outputs["b1"] == nil {
		t.Error("the output of a successful instance was not recorded")
	}
	if snap.State.Outputs["b0"] != nil {
		t.Errorf("an output reading a skipped instance was recorded: %#v", snap.State.Outputs["b0"])
	}
	// The next plan picks up exactly what is missing.
	got := actions(h.plan(PlanOpts{}))
	for _, addr := range []string{"tpf_thing.a[0]", "tpf_thing.b[0]", "tpf_thing.all", "tpf_thing.after"} {
		if got[addr] != plans.Create {
			t.Errorf("next plan: %s is %s, want create", addr, got[addr])
		}
	}
}

// TestProviderCrashMidApply: the provider process dies inside
// ApplyResourceChange. The diagnostic names the provider, the call and the
// resource; what succeeded before is recorded; the crashed call's intent
// stays open, so the next plan reads an interrupted update back and
// reports an interrupted create by address.
func TestProviderCrashMidApply(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "ok" {
  name = "ok"
}
resource "tpf_thing" "upd" {
  name        = "upd"
  description = "one"
}`)
	h.apply(h.plan(PlanOpts{}))
	h.config(`
resource "tpf_thing" "ok" {
  name = "ok"
}
resource "tpf_thing" "more" {
  name = "more"
}
resource "tpf_thing" "upd" {
  name        = "upd"
  description = "two"
  fail        = "crash"
  depends_on  = [tpf_thing.more]
}
resource "tpf_thing" "boom" {
  name       = "boom"
  fail       = "crash"
  depends_on = [tpf_thing.upd]
}`)
	ds := h.engine(nil).Apply(t.Context(), h.plan(PlanOpts{}))
	if !ds.HasErrors() {
		t.Fatal("apply through a crashing provider reported no error")
	}
	msg := ds.Err().Error()
	for _, want := range []string{"Provider crashed", "registry.terraform.io/terrane/tpf", "ApplyResourceChange", "tpf_thing.upd"} {
		if !strings.Contains(msg, want) {
			t.Errorf("crash diagnostic lacks %q:\n%s", want, msg)
		}
	}
	snap, err := h.store.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	more := snap.State.ResourceInstance(mustInstance(t, "tpf_thing.more"))
	if more == nil || more.Current == nil || more.Intent != nil {
		t.Fatalf("the create that succeeded before the crash is not recorded cleanly: %#v", more)
	}
	upd := snap.State.ResourceInstance(mustInstance(t, "tpf_thing.upd"))
	if upd == nil || upd.Intent == nil || upd.Intent.Operation != states.IntentUpdate {
		t.Fatalf("the crashed update's intent was not left open for recovery: %#v", upd)
	}
	if snap.State.ResourceInstance(mustInstance(t, "tpf_thing.boom")) != nil {
		t.Fatal("an instance after the crash was changed")
	}

	// Next run, same process: the crashed run is over, so its intent is
	// read back and the update planned again.
	h.config(`
resource "tpf_thing" "ok" {
  name = "ok"
}
resource "tpf_thing" "more" {
  name = "more"
}
resource "tpf_thing" "upd" {
  name        = "upd"
  description = "two"
}`)
	plan := h.plan(PlanOpts{})
	if got := actions(plan)["tpf_thing.upd"]; got != plans.Update {
		t.Fatalf("after recovery tpf_thing.upd is planned as %s, want update", got)
	}
	snap, _ = h.store.Load(t.Context())
	if inst := snap.State.ResourceInstance(mustInstance(t, "tpf_thing.upd")); inst == nil || inst.Intent != nil {
		t.Fatalf("recovery left the intent open: %#v", inst)
	}
	h.apply(plan)
}

// TestInterruptedCreateIsReportedByAddress: a create whose provider
// crashed may have happened, so later plans name it and leave it alone.
func TestInterruptedCreateIsReportedByAddress(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "boom" {
  name = "boom"
  fail = "crash"
}`)
	if ds := h.engine(nil).Apply(t.Context(), h.plan(PlanOpts{})); !ds.HasErrors() {
		t.Fatal("apply through a crashing provider reported no error")
	}
	h.config(`
resource "tpf_thing" "boom" {
  name = "boom"
}
resource "tpf_thing" "other" {
  name = "other"
}`)
	plan, ds := h.engine(nil).Plan(t.Context(), PlanOpts{})
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "tpf_thing.boom") || !strings.Contains(ds.Err().Error(), "import") {
		t.Fatalf("plan after an interrupted create: %v, want an error naming tpf_thing.boom and how to import it", ds.Err())
	}
	if _, planned := actions(plan)["tpf_thing.boom"]; planned {
		t.Error("the interrupted create's address was planned")
	}
	if actions(plan)["tpf_thing.other"] != plans.Create {
		t.Error("the rest of the configuration was not planned")
	}
}

// cancelOnApplyHook cancels the run once the instance named starts applying.
type cancelOnApplyHook struct {
	NilHook
	addr   string
	cancel context.CancelFunc
	mu     sync.Mutex
	starts []string
}

func (h *cancelOnApplyHook) PreApply(addr addrs.AbsResourceInstance, _ addrs.DeposedKey, _ plans.Action, _, _ cty.Value) {
	h.mu.Lock()
	h.starts = append(h.starts, addr.String())
	h.mu.Unlock()
	if addr.String() == h.addr {
		time.AfterFunc(300*time.Millisecond, h.cancel)
	}
}

// TestCancelStopsNewCallsAndRecordsInFlight: cancelling while a call hangs
// ends the run; the hanging call is stopped and its outcome recorded, the
// instances waiting for it are never started, and the diagnostics say the
// run was interrupted.
func TestCancelStopsNewCallsAndRecordsInFlight(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "fast" {
  count = 4
  name  = "fast${count.index}"
}
resource "tpf_thing" "hang" {
  name = "hang"
  fail = "hang"
}
resource "tpf_thing" "later" {
  count      = 5
  name       = "later${count.index}"
  depends_on = [tpf_thing.hang]
}`)
	plan := h.plan(PlanOpts{})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	hook := &cancelOnApplyHook{addr: "tpf_thing.hang", cancel: cancel}
	e := h.engine(nil)
	e.opts.Hooks = []Hook{hook}
	done := make(chan struct{})
	var ds interface{ Error() string }
	go func() {
		defer close(done)
		if d := e.Apply(ctx, plan); d.HasErrors() {
			ds = d.Err()
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("apply did not return after it was cancelled")
	}
	if ds == nil || !strings.Contains(ds.Error(), "interrupted") {
		t.Fatalf("cancelled apply: %v, want a diagnostic saying the run was interrupted", ds)
	}
	for _, started := range hook.starts {
		if strings.HasPrefix(started, "tpf_thing.later") {
			t.Errorf("%s was started after the run was cancelled", started)
		}
	}
	snap, _ := h.store.Load(t.Context())
	for _, entry := range snap.State.AllResourceInstances() {
		addr := entry.Addr.String()
		if strings.HasPrefix(addr, "tpf_thing.later") {
			t.Errorf("%s is in state after a cancelled run", addr)
		}
		if strings.HasPrefix(addr, "tpf_thing.fast") && (entry.Instance.Current == nil || entry.Instance.Intent != nil) {
			t.Errorf("%s finished before the cancel but is not recorded cleanly", addr)
		}
	}
	files, _ := filepath.Glob(filepath.Join(h.cloud, "tpf_thing", "*.json"))
	recorded := 0
	for _, entry := range snap.State.AllResourceInstances() {
		if entry.Instance.Current != nil {
			recorded++
		}
	}
	if len(files) != recorded {
		t.Errorf("the cloud has %d objects but the state records %d: a finished call was not recorded", len(files), recorded)
	}
}

func mustInstance(t testing.TB, s string) addrs.AbsResourceInstance {
	t.Helper()
	addr, ds := addrs.ParseAbsResourceInstanceStr(s)
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	return addr
}
