package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/plans"
)

const tpfHeader = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
provider "tpf" {
  root_dir = %q
}
`

func (h *harness) config(body string) {
	h.writeConfig(map[string]string{"main.tf": fmt.Sprintf(tpfHeader, h.cloud) + body})
}

func TestReplaceInBothOrders(t *testing.T) {
	for _, tc := range []struct {
		lifecycle string
		want      plans.Action
	}{
		{"", plans.DeleteThenCreate},
		{"lifecycle {\n create_before_destroy = true\n}", plans.CreateThenDelete},
	} {
		t.Run(tc.want.String(), func(t *testing.T) {
			h := newHarness(t)
			h.config(`resource "tpf_thing" "x" {
  name = "first"
  ` + tc.lifecycle + `
}`)
			h.apply(h.plan(PlanOpts{}))
			h.config(`resource "tpf_thing" "x" {
  name = "second"
  ` + tc.lifecycle + `
}`)
			plan := h.plan(PlanOpts{})
			if got := actions(plan)["tpf_thing.x"]; got != tc.want {
				t.Fatalf("changing a requires-replace attribute planned %s, want %s", got, tc.want)
			}
			h.apply(plan)
			if got := h.instances(); !slices.Equal(got, []string{"tpf_thing.x"}) {
				t.Fatalf("after replacing, state has %v (a deposed object left behind?)", got)
			}
			snap, _ := h.store.Load(t.Context())
			inst := snap.State.AllResourceInstances()[0].Instance
			if len(inst.Deposed) != 0 || inst.Intent != nil {
				t.Fatalf("after replacing, instance has deposed objects %v or an open intent %v", inst.Deposed, inst.Intent)
			}
			if got := actions(h.plan(PlanOpts{}))["tpf_thing.x"]; got != plans.NoOp {
				t.Fatalf("plan after replacement: %s, want no-op", got)
			}
		})
	}
}

func TestOrphansAreDeletedWithTheirReason(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "counted" {
  count = 3
  name  = "c${count.index}"
}
resource "tpf_thing" "keyed" {
  for_each = toset(["a", "b"])
  name     = each.key
}
resource "tpf_thing" "gone" {
  name = "gone"
}`)
	h.apply(h.plan(PlanOpts{}))
	h.config(`
resource "tpf_thing" "counted" {
  count = 1
  name  = "c${count.index}"
}
resource "tpf_thing" "keyed" {
  for_each = toset(["a"])
  name     = each.key
}`)
	plan := h.plan(PlanOpts{})
	reasons := map[string]plans.ActionReason{}
	for _, c := range plan.Changes.Resources {
		if c.Action == plans.Delete {
			reasons[c.Addr.String()] = c.ActionReason
		}
	}
	want := map[string]plans.ActionReason{
		"tpf_thing.counted[1]": plans.DeleteBecauseCountIndex,
		"tpf_thing.counted[2]": plans.DeleteBecauseCountIndex,
		`tpf_thing.keyed["b"]`: plans.DeleteBecauseEachKey,
		"tpf_thing.gone":       plans.DeleteBecauseNoResourceConfig,
	}
	if !mapsEqual(reasons, want) {
		t.Fatalf("deletes planned: %v, want %v", reasons, want)
	}
	h.apply(plan)
	if got := h.instances(); len(got) != 2 {
		t.Fatalf("after deleting orphans, state has %v, want 2 instances", got)
	}
}

func TestModulesWithForEachAndOutputs(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(map[string]string{
		"main.tf": fmt.Sprintf(tpfHeader, h.cloud) + `
module "svc" {
  for_each = toset(["x", "y"])
  source   = "./svc"
  name     = each.key
}
output "ids" {
  value = { for k, m in module.svc : k => m.id }
}`,
		"svc/main.tf": `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
variable "name" { type = string }
resource "tpf_thing" "t" {
  name = "svc-${var.name}"
}
output "id" { value = tpf_thing.t.id }`,
	})
	plan := h.plan(PlanOpts{})
	want := map[string]plans.Action{`module.svc["x"].tpf_thing.t`: plans.Create, `module.svc["y"].tpf_thing.t`: plans.Create}
	if got := actions(plan); !mapsEqual(got, want) {
		t.Fatalf("plan: %v, want %v", got, want)
	}
	h.apply(plan)
	snap, _ := h.store.Load(t.Context())
	ids := snap.State.Outputs["ids"]
	if ids == nil || !ids.Value.IsWhollyKnown() || ids.Value.LengthInt() != 2 {
		t.Fatalf("output ids after apply: %#v, want an object of two known ids", ids)
	}
	h.writeConfig(map[string]string{"main.tf": fmt.Sprintf(tpfHeader, h.cloud)})
	plan = h.plan(PlanOpts{})
	for _, c := range plan.Changes.Resources {
		// As in OpenTofu: with the call gone, the resource is not in the
		// configuration either.
		if c.Action != plans.Delete || c.ActionReason != plans.DeleteBecauseNoResourceConfig {
			t.Errorf("%s: %s (%s), want delete because it is not in the configuration", c.Addr, c.Action, c.ActionReason)
		}
	}
}

func TestDataSourcesReadNowOrDeferred(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "src" {
  name        = "src"
  description = "hello"
}
data "tpf_thing" "known" {
  id = "does-not-matter-yet"
  depends_on = [tpf_thing.src]
}
data "tpf_thing" "unknown" {
  id = tpf_thing.src.id
}`)
	plan := h.plan(PlanOpts{})
	reasons := map[string]plans.ActionReason{}
	for _, c := range plan.Changes.Resources {
		if c.Action == plans.Read {
			reasons[c.Addr.String()] = c.ActionReason
		}
	}
	want := map[string]plans.ActionReason{
		"data.tpf_thing.known":   plans.ReadBecauseDependencyPending,
		"data.tpf_thing.unknown": plans.ReadBecauseConfigUnknown,
	}
	if !mapsEqual(reasons, want) {
		t.Fatalf("deferred reads: %v, want %v", reasons, want)
	}
	h.config(`
resource "tpf_thing" "src" {
  name        = "src"
  description = "hello"
}
data "tpf_thing" "unknown" {
  id = tpf_thing.src.id
}
output "desc" { value = data.tpf_thing.unknown.description }`)
	h.apply(h.plan(PlanOpts{}))
	plan = h.plan(PlanOpts{})
	for _, c := range plan.Changes.Resources {
		if c.Action == plans.Read {
			t.Errorf("%s is read at apply again although its configuration is known now", c.Addr)
		}
	}
	snap, _ := h.store.Load(t.Context())
	if out := snap.State.Outputs["desc"]; out == nil || out.Value.AsString() != "hello" {
		t.Fatalf("output read through the data source: %#v, want \"hello\"", out)
	}
}

func TestFailingInstanceStopsOnlyItself(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "ok" {
  name = "ok"
}
resource "tpf_thing" "bad" {
  name = "bad"
  fail = "apply_error"
}`)
	plan := h.plan(PlanOpts{})
	ds := h.engine(nil).Apply(t.Context(), plan)
	if !ds.HasErrors() {
		t.Fatal("apply with a failing instance reported no error")
	}
	if !strings.Contains(ds.Err().Error(), "tpf_thing.bad") {
		t.Errorf("the error does not name the failing instance: %s", ds.Err())
	}
	if got := h.instances(); !slices.Equal(got, []string{"tpf_thing.ok"}) {
		t.Fatalf("after a partial apply, state has %v, want only the instance that succeeded", got)
	}
}

func TestStalePlanIsRefused(t *testing.T) {
	h := newHarness(t)
	h.config(`resource "tpf_thing" "x" {
  name        = "x"
  description = "one"
}`)
	h.apply(h.plan(PlanOpts{}))
	h.config(`resource "tpf_thing" "x" {
  name        = "x"
  description = "two"
}`)
	stale := h.plan(PlanOpts{})
	h.config(`resource "tpf_thing" "x" {
  name        = "x"
  description = "three"
}`)
	h.apply(h.plan(PlanOpts{}))
	ds := h.engine(nil).Apply(t.Context(), stale)
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "tpf_thing.x") {
		t.Fatalf("applying a stale plan: %v, want an error naming tpf_thing.x", ds.Err())
	}
}

func TestTerraformDataBuiltIn(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(map[string]string{"main.tf": `
resource "terraform_data" "d" {
  input = "v1"
}
output "out" { value = terraform_data.d.output }`})
	h.apply(h.plan(PlanOpts{}))
	snap, _ := h.store.Load(t.Context())
	if out := snap.State.Outputs["out"]; out == nil || out.Value.AsString() != "v1" {
		t.Fatalf("terraform_data output: %#v, want \"v1\"", out)
	}
	if got := actions(h.plan(PlanOpts{}))["terraform_data.d"]; got != plans.NoOp {
		t.Fatalf("second plan of terraform_data: %s, want no-op", got)
	}
}

// TestCreateBeforeDestroyIsImpliedForDependencies: a replaced dependency of
// a create_before_destroy resource is replaced create-first too, and the
// apply has no cycle.
func TestCreateBeforeDestroyIsImpliedForDependencies(t *testing.T) {
	h := newHarness(t)
	cfg := func(name string) {
		h.config(fmt.Sprintf(`
resource "tpf_thing" "a" {
  name = %q
}
resource "tpf_thing" "b" {
  name = "b-${tpf_thing.a.name}"
  lifecycle {
    create_before_destroy = true
  }
}`, name))
	}
	cfg("one")
	h.apply(h.plan(PlanOpts{}))
	cfg("two")
	plan := h.plan(PlanOpts{})
	got := actions(plan)
	if got["tpf_thing.a"] != plans.CreateThenDelete || got["tpf_thing.b"] != plans.CreateThenDelete {
		t.Fatalf("planned %v, want both replaced create-before-destroy", got)
	}
	h.apply(plan)
	if got := actions(h.plan(PlanOpts{})); got["tpf_thing.a"] != plans.NoOp || got["tpf_thing.b"] != plans.NoOp {
		t.Fatalf("after the replacement the next plan is %v, want no changes", got)
	}
}
