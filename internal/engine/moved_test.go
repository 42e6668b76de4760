package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
)

func TestMovedRenamesWithoutTouchingTheObject(t *testing.T) {
	h := newHarness(t)
	h.config(`resource "tpf_thing" "a" {
  count = 2
  name  = "n${count.index}"
}`)
	h.apply(h.plan(PlanOpts{}))
	files, _ := filepath.Glob(filepath.Join(h.cloud, "tpf_thing", "*.json"))

	h.config(`resource "tpf_thing" "b" {
  for_each = toset(["x", "y"])
  name     = each.key == "x" ? "n0" : "n1"
}
moved {
  from = tpf_thing.a[0]
  to   = tpf_thing.b["x"]
}
moved {
  from = tpf_thing.a[1]
  to   = tpf_thing.a2
}
moved {
  from = tpf_thing.a2
  to   = tpf_thing.b["y"]
}`)
	plan := h.plan(PlanOpts{})
	if !plan.Applyable {
		t.Fatal("a plan that only moves objects must be applyable")
	}
	got := map[string]string{}
	for _, c := range plan.Changes.Resources {
		got[c.Addr.String()] = c.PrevRunAddr.String() + " " + c.Action.String()
	}
	want := map[string]string{`tpf_thing.b["x"]`: "tpf_thing.a[0] no-op", `tpf_thing.b["y"]`: "tpf_thing.a[1] no-op"}
	if len(got) != 2 || got[`tpf_thing.b["x"]`] != want[`tpf_thing.b["x"]`] || got[`tpf_thing.b["y"]`] != want[`tpf_thing.b["y"]`] {
		t.Fatalf("changes %v, want %v", got, want)
	}
	if inst := h.instances(); !slices.Equal(inst, []string{"tpf_thing.a[0]", "tpf_thing.a[1]"}) {
		t.Fatalf("planning moved records: %v", inst)
	}
	h.apply(plan)
	if inst := h.instances(); !slices.Equal(inst, []string{`tpf_thing.b["x"]`, `tpf_thing.b["y"]`}) {
		t.Fatalf("records after apply: %v", inst)
	}
	after, _ := filepath.Glob(filepath.Join(h.cloud, "tpf_thing", "*.json"))
	if !slices.Equal(files, after) {
		t.Fatalf("cloud objects changed by a move: %v → %v", files, after)
	}
	if a := actions(h.plan(PlanOpts{})); a[`tpf_thing.b["x"]`] != plans.NoOp || a[`tpf_thing.b["y"]`] != plans.NoOp {
		t.Fatalf("plan after the move: %v, want no changes", a)
	}
}

func TestMovedOntoExistingObjectIsBlocked(t *testing.T) {
	h := newHarness(t)
	h.config(`resource "tpf_thing" "a" {
  name = "a"
}
resource "tpf_thing" "b" {
  name = "b"
}`)
	h.apply(h.plan(PlanOpts{}))
	h.config(`resource "tpf_thing" "b" {
  name = "b"
}
moved {
  from = tpf_thing.a
  to   = tpf_thing.b
}`)
	plan, ds := h.engine(nil).Plan(t.Context(), PlanOpts{})
	if ds.HasErrors() || !strings.Contains(details(ds), "tpf_thing.a could not move to tpf_thing.b") {
		t.Fatalf("diagnostics %v, want a warning that tpf_thing.b already exists", ds)
	}
	if a := actions(plan); a["tpf_thing.a"] != plans.Delete || a["tpf_thing.b"] != plans.NoOp {
		t.Fatalf("actions %v: the blocked object stays at tpf_thing.a (no config: delete), tpf_thing.b unchanged", a)
	}
}

func TestMovedInvalidStatementsStopThePlan(t *testing.T) {
	h := newHarness(t)
	h.config(`resource "tpf_thing" "a" {
  name = "a"
}
moved {
  from = tpf_thing.a
  to   = tpf_thing.b
}`)
	_, ds := h.engine(nil).Plan(t.Context(), PlanOpts{})
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "Moved object still exists") {
		t.Fatalf("diagnostics %v, want \"Moved object still exists\"", ds)
	}
}

func TestMovedAcrossResourceTypes(t *testing.T) {
	h := newHarness(t)
	h.config(`resource "tpf_thing" "a" {
  name   = "kept"
  number = 3
}`)
	h.apply(h.plan(PlanOpts{}))
	h.config(`resource "tpf_versioned" "a" {
  title = "kept"
  size  = 3
}
moved {
  from = tpf_thing.a
  to   = tpf_versioned.a
}`)
	plan := h.plan(PlanOpts{})
	if len(plan.Changes.Resources) != 1 {
		t.Fatalf("changes %v, want one for tpf_versioned.a", actions(plan))
	}
	c := plan.Changes.Resources[0]
	if c.Addr.String() != "tpf_versioned.a" || c.PrevRunAddr.String() != "tpf_thing.a" || c.Action.IsReplace() || c.Action == plans.Create {
		t.Fatalf("change %s (from %s) %s, want tpf_versioned.a moved from tpf_thing.a without replacement", c.Addr, c.PrevRunAddr, c.Action)
	}
	h.apply(plan)
	if inst := h.instances(); !slices.Equal(inst, []string{"tpf_versioned.a"}) {
		t.Fatalf("records after apply: %v", inst)
	}
	if a := actions(h.plan(PlanOpts{})); a["tpf_versioned.a"] != plans.NoOp {
		t.Fatalf("plan after the move: %v, want no changes", a)
	}
}

// TestRemovedForgetsOrDestroys checks OpenTofu's removed block: it forgets
// unless lifecycle says destroy = true, a bare block included (OpenTofu's
// default, the opposite of Terraform's).
func TestRemovedForgetsOrDestroys(t *testing.T) {
	h := newHarness(t)
	h.config(`resource "tpf_thing" "kept" {
  name = "kept"
}
resource "tpf_thing" "bare" {
  name = "bare"
}
resource "tpf_thing" "gone" {
  name = "gone"
}`)
	h.apply(h.plan(PlanOpts{}))
	files, _ := filepath.Glob(filepath.Join(h.cloud, "tpf_thing", "*.json"))
	if len(files) != 3 {
		t.Fatalf("cloud objects: %v", files)
	}
	h.config(`removed {
  from = tpf_thing.kept
  lifecycle {
    destroy = false
  }
}
removed {
  from = tpf_thing.bare
}
removed {
  from = tpf_thing.gone
  lifecycle {
    destroy = true
  }
}`)
	plan := h.plan(PlanOpts{})
	if a := actions(plan); a["tpf_thing.kept"] != plans.Forget || a["tpf_thing.bare"] != plans.Forget || a["tpf_thing.gone"] != plans.Delete {
		t.Fatalf("actions %v, want kept and bare forgotten and gone deleted", a)
	}
	h.apply(plan)
	if inst := h.instances(); len(inst) != 0 {
		t.Fatalf("records after apply: %v, want none", inst)
	}
	left, _ := filepath.Glob(filepath.Join(h.cloud, "tpf_thing", "*.json"))
	if len(left) != 2 {
		t.Fatalf("cloud objects after apply: %v, want the forgotten ones left", left)
	}
	for _, path := range left {
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), `"gone"`) {
			t.Fatalf("the destroyed object is left: %s", data)
		}
	}
}

func TestRemovedForAddressStillInConfig(t *testing.T) {
	h := newHarness(t)
	h.config(`resource "tpf_thing" "a" {
  name = "a"
}
removed {
  from = tpf_thing.a
}`)
	_, ds := h.engine(nil).Plan(t.Context(), PlanOpts{})
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "Removed resource block still exists") || !strings.Contains(ds.Err().Error(), "main.tf") {
		t.Fatalf("diagnostics %v, want an error naming main.tf saying the configuration still declares tpf_thing.a", ds)
	}
}

// details joins the details of every diagnostic, warnings included.
func details(ds diags.Diagnostics) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Summary+": "+d.Detail)
	}
	return strings.Join(out, "\n")
}
