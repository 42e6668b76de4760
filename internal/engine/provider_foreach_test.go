package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/plans"
)

// regionalConfig configures one tpf instance per region, each with its
// own cloud directory, and a thing in each of the regions given.
func regionalConfig(cloud string, things []string, providerRef string) string {
	quoted := make([]string, len(things))
	for i, t := range things {
		quoted[i] = fmt.Sprintf("%q", t)
	}
	return fmt.Sprintf(`
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
variable "regions" {
  type    = set(string)
  default = ["eu", "us"]
}
provider "tpf" {
  alias    = "by_region"
  for_each = var.regions
  root_dir = "%s/${each.key}"
}
resource "tpf_thing" "local" {
  for_each = toset([%s])
  provider = %s
  name     = "thing-${each.key}"
}
`, cloud, strings.Join(quoted, ", "), providerRef)
}

// cloudFiles lists the objects of tpf_thing in one region's cloud.
func cloudFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "tpf_thing"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestProviderForEachInstances(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(map[string]string{"main.tf": regionalConfig(h.cloud, []string{"eu", "us"}, "tpf.by_region[each.key]")})
	plan := h.plan(PlanOpts{})
	providers := map[string]string{}
	for _, c := range plan.Changes.Resources {
		providers[c.Addr.String()] = c.ProviderAddr.String()
	}
	want := map[string]string{
		`tpf_thing.local["eu"]`: `provider["registry.terraform.io/terrane/tpf"].by_region["eu"]`,
		`tpf_thing.local["us"]`: `provider["registry.terraform.io/terrane/tpf"].by_region["us"]`,
	}
	if !mapsEqual(providers, want) {
		t.Fatalf("planned provider instances:\n got %v\nwant %v", providers, want)
	}
	h.apply(plan)
	for _, region := range []string{"eu", "us"} {
		if got := cloudFiles(t, filepath.Join(h.cloud, region)); len(got) != 1 {
			t.Errorf("region %s has objects %v; want one, made by its own provider instance", region, got)
		}
	}
	if got := actions(h.plan(PlanOpts{})); got[`tpf_thing.local["eu"]`] != plans.NoOp || got[`tpf_thing.local["us"]`] != plans.NoOp {
		t.Fatalf("plan after apply: %v; want no changes (each object read back through its own instance)", got)
	}

	// An instance leaving the resource's for_each is destroyed through the
	// provider instance it was made with.
	h.writeConfig(map[string]string{"main.tf": regionalConfig(h.cloud, []string{"eu"}, "tpf.by_region[each.key]")})
	plan = h.plan(PlanOpts{})
	if got := actions(plan)[`tpf_thing.local["us"]`]; got != plans.Delete {
		t.Fatalf("removed instance planned as %s, want delete", got)
	}
	h.apply(plan)
	if got := cloudFiles(t, filepath.Join(h.cloud, "us")); len(got) != 0 {
		t.Errorf("the us object survived its delete: %v", got)
	}
	if got := cloudFiles(t, filepath.Join(h.cloud, "eu")); len(got) != 1 {
		t.Errorf("the eu object was touched: %v", got)
	}
}

func TestProviderForEachKeyDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		name, ref, summary string
	}{
		{"missing instance", `tpf.by_region["${each.key}-mars"]`, "Provider instance not present"},
		{"unknown key", `tpf.by_region[tpf_thing.base["eu"].id]`, "Invalid provider instance key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			extra := `
resource "tpf_thing" "base" {
  for_each = toset(["eu"])
  provider = tpf.by_region[each.key]
  name     = "base"
}
`
			h.writeConfig(map[string]string{"main.tf": regionalConfig(h.cloud, []string{"eu"}, tc.ref) + extra})
			plan, ds := h.planWith(map[string]cty.Value{})
			d := findDiag(ds, tc.summary)
			if d == nil || d.Subject == nil || d.Address != `tpf_thing.local["eu"]` {
				t.Fatalf("diagnostics %v; want %q for tpf_thing.local[\"eu\"] at the key expression", ds, tc.summary)
			}
			if _, planned := actions(plan)[`tpf_thing.local["eu"]`]; planned {
				t.Error("the instance without a provider instance was planned")
			}
			if actions(plan)[`tpf_thing.base["eu"]`] != plans.Create {
				t.Error("a resource with a valid provider instance was not planned")
			}
		})
	}
}
