package engine

import (
	"fmt"
	"testing"

	"github.com/terrane/terrane/internal/plans"
)

// TestDataSourceWaitsForModuleDependsOn: a data source in a module whose
// call depends on a resource with a change planned is read at apply, after
// that change, and read during planning once nothing it waits for changes.
func TestDataSourceWaitsForModuleDependsOn(t *testing.T) {
	for _, call := range []string{`module "m" {
  source     = "./m"
  id         = tpf_thing.base.id
  depends_on = [tpf_thing.gate]
}`, `module "m" {
  source     = "./m"
  count      = 1
  id         = tpf_thing.base.id
  depends_on = [tpf_thing.gate]
}`} {
		h := newHarness(t)
		files := map[string]string{"main.tf": fmt.Sprintf(tpfHeader, h.cloud) + `
resource "tpf_thing" "base" {
  name        = "base"
  description = "from-base"
}`}
		h.writeConfig(files)
		h.apply(h.plan(PlanOpts{}))
		files["main.tf"] += `
resource "tpf_thing" "gate" {
  name = "gate"
}
` + call
		files["m/m.tf"] = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
variable "id" { type = string }
module "inner" {
  source = "./inner"
  id     = var.id
}`
		files["m/inner/inner.tf"] = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
variable "id" { type = string }
data "tpf_thing" "d" {
  id = var.id
}`
		h.writeConfig(files)
		reads := func(plan *plans.Plan) map[string]plans.ActionReason {
			out := map[string]plans.ActionReason{}
			for _, c := range plan.Changes.Resources {
				if c.Action == plans.Read {
					out[c.Addr.String()] = c.ActionReason
				}
			}
			return out
		}
		plan := h.plan(PlanOpts{})
		got := reads(plan)
		if len(got) != 1 {
			t.Fatalf("%s\nplanned reads %v, want the module's data source read at apply", call, got)
		}
		for addr, reason := range got {
			if reason != plans.ReadBecauseDependencyPending {
				t.Errorf("%s\n%s is read at apply because of %s, want because a dependency has changes pending", call, addr, reason)
			}
		}
		h.apply(plan)
		if got := reads(h.plan(PlanOpts{})); len(got) != 0 {
			t.Errorf("%s\nwith nothing pending the data source is still read at apply: %v", call, got)
		}
	}
}
