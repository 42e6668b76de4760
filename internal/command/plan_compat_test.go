package command

import (
	"encoding/json"
	"strings"
	"testing"
)

// planCompatFiles has what puts plan text in order: root resources with
// count beyond ten instances, a module's resources, and outputs.
var planCompatFiles = map[string]string{
	"main.tf": `
resource "terraform_data" "counted" {
  count = 11
  input = count.index
}

module "child" {
  source = "./child"
}

resource "terraform_data" "z_last" {
  input = { name = "z", tags = ["a", "b"] }
}

output "first" {
  value = terraform_data.counted[0].output
}
`,
	"child/main.tf": `
resource "terraform_data" "inner" {
  input = "in a module"
}
`,
}

// TestPlanTextMatchesTerraform compares whole plan texts where Terraform
// 1.11 agrees with OpenTofu: the resource order (root module first, count
// instances numerically), the planned values of terraform_data, and what
// follows the summary: the rule and the note about -out, or where the plan
// was saved.
func TestPlanTextMatchesTerraform(t *testing.T) {
	p := newCompatPair(t, planCompatFiles, false)
	p.both("plan", "-no-color")
	p.both("plan", "-no-color", "-out=saved.tfplan")
	p.mustTerraform("apply", "-no-color", "-auto-approve")
	p.mustTerrane("apply", "-no-color", "-auto-approve")
	p.both("plan", "-no-color")
}

// pinnedConfig is a plugin-SDK object whose sets force replacement.
const pinnedConfig = `
terraform {
  required_providers {
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
  }
}

provider "tpsdk" {
  root_dir = "CLOUD"
}

resource "tpsdk_pinned" "p" {
  name  = "pinned"
  zones = ZONES
  rule {
    action   = ACTION
    priority = 1
  }
  rule {
    action = "log"
  }
}
`

// TestReplaceThroughSetsMatchesTerraform replaces an object because
// elements of its sets changed. The plugin SDK names each changed set
// element's set, and "id", as requiring replacement; OpenTofu, like
// Terraform, keeps each path whose value changed once, so "# forces
// replacement" is shown once per set, and replace_paths is the same set.
func TestReplaceThroughSetsMatchesTerraform(t *testing.T) {
	config := func(zones, action string) string {
		return strings.NewReplacer("ZONES", zones, "ACTION", action).Replace(pinnedConfig)
	}
	p := newCompatPair(t, map[string]string{"main.tf": config(`["a", "b"]`, `"allow"`)}, true)
	p.mustTerraform("apply", "-no-color", "-auto-approve")
	p.mustTerrane("apply", "-no-color", "-auto-approve")
	p.writeBoth("main.tf", config(`["a", "c"]`, `"deny"`))
	p.both("plan", "-no-color", "-out=replace.tfplan")
	want := replacePathsOf(t, p.mustTerraform("show", "-json", "replace.tfplan"))
	got := replacePathsOf(t, p.mustTerrane("show", "-json", "replace.tfplan"))
	if got != want {
		t.Errorf("replace_paths: terrane %s, terraform %s", got, want)
	}
}

// replacePathsOf is the first resource change's replace_paths.
func replacePathsOf(t *testing.T, planJSON string) string {
	t.Helper()
	var plan struct {
		ResourceChanges []struct {
			Change struct {
				ReplacePaths json.RawMessage `json:"replace_paths"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(planJSON), &plan); err != nil || len(plan.ResourceChanges) == 0 {
		t.Fatalf("plan JSON without resource changes (%v):\n%s", err, planJSON)
	}
	return string(plan.ResourceChanges[0].Change.ReplacePaths)
}
