package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/terrane/terrane/internal/plans"
)

// driftCloud changes attribute of every tpf_thing object named name in the
// provider's cloud, as a change made outside Terrane would.
func (h *harness) driftCloud(name, attribute, value string) {
	h.t.Helper()
	files, _ := filepath.Glob(filepath.Join(h.cloud, "tpf_thing", "*.json"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			h.t.Fatal(err)
		}
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil {
			h.t.Fatal(err)
		}
		if obj["name"] != name {
			continue
		}
		obj[attribute] = value
		raw, _ = json.Marshal(obj)
		if err := os.WriteFile(f, raw, 0o644); err != nil {
			h.t.Fatal(err)
		}
		return
	}
	h.t.Fatalf("no tpf_thing named %q in the cloud", name)
}

// recorded is an attribute of an instance as the store has it.
func (h *harness) recorded(addr, attribute string) string {
	h.t.Helper()
	snap, err := h.store.Load(h.t.Context())
	if err != nil {
		h.t.Fatal(err)
	}
	inst := snap.State.ResourceInstance(mustInstance(h.t, addr))
	if inst == nil || inst.Current == nil {
		h.t.Fatalf("%s is not in state", addr)
	}
	var attrs map[string]any
	if err := json.Unmarshal(inst.Current.AttrsJSON, &attrs); err != nil {
		h.t.Fatal(err)
	}
	s, _ := attrs[attribute].(string)
	return s
}

func TestAppliesPersistRefreshedObjects(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "quiet" {
  name = "quiet"
}
resource "tpf_thing" "busy" {
  name        = "busy"
  description = "one"
}`)
	h.apply(h.plan(PlanOpts{}))

	h.driftCloud("quiet", "size_class", "large")
	plan := h.plan(PlanOpts{Mode: plans.RefreshOnlyMode})
	if len(plan.DriftedResources) != 1 || !plan.Applyable {
		t.Fatalf("refresh-only plan: %d drifted, applyable %t; want the one drifted object, applyable", len(plan.DriftedResources), plan.Applyable)
	}
	h.apply(plan)
	if got := h.recorded("tpf_thing.quiet", "size_class"); got != "large" {
		t.Fatalf("after a refresh-only apply the state has size_class %q, want the refreshed \"large\"", got)
	}

	// A normal apply records the refreshed object of an instance it does
	// not change, beside the change it makes.
	h.driftCloud("quiet", "size_class", "huge")
	h.config(`
resource "tpf_thing" "quiet" {
  name = "quiet"
}
resource "tpf_thing" "busy" {
  name        = "busy"
  description = "two"
}`)
	plan = h.plan(PlanOpts{})
	if got := actions(plan)["tpf_thing.quiet"]; got != plans.NoOp {
		t.Fatalf("tpf_thing.quiet planned as %s, want no-op", got)
	}
	h.apply(plan)
	if got := h.recorded("tpf_thing.quiet", "size_class"); got != "huge" {
		t.Fatalf("after a normal apply the unchanged instance has size_class %q, want the refreshed \"huge\"", got)
	}
}
