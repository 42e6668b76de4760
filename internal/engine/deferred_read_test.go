package engine

import (
	"fmt"
	"testing"

	"github.com/terrane/terrane/internal/plans"
)

const tpsdkHeader = `
terraform {
  required_providers {
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
  }
}
provider "tpsdk" {
  root_dir = %q
}
`

// TestDeferredReadFeedsUnknownValues: a data source whose read waits for
// apply gives every reader unknown computed attributes, so a required
// argument fed from one plans, and terraform_data's input taken from one is
// consistent with what apply finds.
func TestDeferredReadFeedsUnknownValues(t *testing.T) {
	for _, tc := range []struct{ name, data string }{
		{"configuration unknown", `data "tpf_thing" "d" {
  id = tpf_thing.src.id
}`},
		{"dependency pending", `data "tpf_thing" "d" {
  id         = tpf_thing.base.id
  depends_on = [tpf_thing.src]
}`},
		{"in a counted module", `module "m" {
  source = "./m"
  count  = 1
  id     = tpf_thing.src.id
}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			files := map[string]string{"main.tf": fmt.Sprintf(tpfHeader, h.cloud) + `
resource "tpf_thing" "base" {
  name        = "base"
  description = "from-base"
}`, "sdk.tf": fmt.Sprintf(tpsdkHeader, h.cloud)}
			h.writeConfig(files)
			h.apply(h.plan(PlanOpts{}))
			readers := `
resource "terraform_data" "t" {
  input = data.tpf_thing.d.description
}
resource "tpsdk_widget" "w" {
  name = data.tpf_thing.d.name
}
output "desc" { value = terraform_data.t.output }
`
			files["main.tf"] += `
resource "tpf_thing" "src" {
  name        = "src"
  description = "from-src"
}
` + tc.data + readers
			if tc.name == "in a counted module" {
				files["main.tf"] = fmt.Sprintf(tpfHeader, h.cloud) + `
resource "tpf_thing" "base" {
  name        = "base"
  description = "from-base"
}
resource "tpf_thing" "src" {
  name        = "src"
  description = "from-src"
}
` + tc.data + `
output "desc" { value = module.m[0].desc }
`
				files["m/m.tf"] = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
  }
}
variable "id" { type = string }
data "tpf_thing" "d" {
  id = var.id
}` + readers
			}
			h.writeConfig(files)
			plan := h.plan(PlanOpts{})
			var readAt string
			for _, c := range plan.Changes.Resources {
				if c.Action == plans.Read {
					readAt = c.Addr.String()
				}
			}
			if readAt == "" {
				t.Fatalf("no data source read planned for apply: %v", actions(plan))
			}
			h.apply(plan)
			snap, _ := h.store.Load(t.Context())
			want := "from-src"
			if tc.name == "dependency pending" {
				want = "from-base"
			}
			if out := snap.State.Outputs["desc"]; out == nil || out.Value.AsString() != want {
				t.Fatalf("output through the deferred read: %#v, want %q", out, want)
			}
		})
	}
}
