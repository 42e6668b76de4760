package engine

import (
	"fmt"
	"testing"

	"github.com/terrane/terrane/internal/plans"
)

func tpfConfig(cloud, description string) string {
	return fmt.Sprintf(`
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
provider "tpf" {
  root_dir = %q
}
variable "names" {
  type    = list(string)
  default = ["a", "b"]
}
resource "tpf_thing" "one" {
  name        = "one"
  description = %q
}
resource "tpf_thing" "many" {
  count       = length(var.names)
  name        = "${var.names[count.index]}-${tpf_thing.one.id}"
}
output "one_id" {
  value = tpf_thing.one.id
}
`, cloud, description)
}

func TestCreateNoOpUpdateDestroy(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(map[string]string{"main.tf": tpfConfig(h.cloud, "first")})

	plan := h.plan(PlanOpts{})
	want := map[string]plans.Action{"tpf_thing.one": plans.Create, "tpf_thing.many[0]": plans.Create, "tpf_thing.many[1]": plans.Create}
	if got := actions(plan); !mapsEqual(got, want) {
		t.Fatalf("first plan: got %v, want %v", got, want)
	}
	h.apply(plan)
	if got := h.instances(); len(got) != 3 {
		t.Fatalf("after create, state has %v, want 3 instances", got)
	}

	plan = h.plan(PlanOpts{})
	for addr, a := range actions(plan) {
		if a != plans.NoOp {
			t.Errorf("second plan: %s has action %s, want no-op", addr, a)
		}
	}
	if plan.Applyable {
		t.Errorf("a plan with nothing to do is applyable")
	}

	h.writeConfig(map[string]string{"main.tf": tpfConfig(h.cloud, "second")})
	plan = h.plan(PlanOpts{})
	if got := actions(plan)["tpf_thing.one"]; got != plans.Update {
		t.Fatalf("after changing description: action %s, want update", got)
	}
	h.apply(plan)

	plan = h.plan(PlanOpts{Mode: plans.DestroyMode})
	for addr, a := range actions(plan) {
		if a != plans.Delete {
			t.Errorf("destroy plan: %s has action %s, want delete", addr, a)
		}
	}
	h.apply(plan)
	if got := h.instances(); len(got) != 0 {
		t.Fatalf("after destroy, state still has %v", got)
	}
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
