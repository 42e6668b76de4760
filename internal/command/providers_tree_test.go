package command

import (
	"sort"
	"strings"
	"testing"
)

// TestProvidersTreeMatchesTerraform prints the requirement tree of a
// configuration with a child module and version constraints, before and
// after an apply puts objects in the state, as both tools print it.
func TestProvidersTreeMatchesTerraform(t *testing.T) {
	p := newCompatPair(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf", version = "~> 0.1, >= 0.1.0" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}

resource "terraform_data" "x" {}

module "child" {
  source = "./child"
}
`,
		"child/main.tf": `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

resource "tpf_thing" "t" {
  name = "child"
}
`,
	}, true)
	// OpenTofu lists a module's providers, and the state's, in map order:
	// compare the lines as a set.
	inAnyOrder := func(text string) string {
		lines := strings.Split(text, "\n")
		sort.Strings(lines)
		return strings.Join(lines, "\n")
	}
	want, got := p.mustTerraform("providers", "-no-color"), p.mustTerrane("providers", "-no-color")
	if !strings.Contains(got, "Providers required by configuration:") || inAnyOrder(got) != inAnyOrder(want) {
		t.Errorf("providers before apply:\n%s\nterraform:\n%s", got, want)
	}
	p.mustTerraform("apply", "-no-color", "-auto-approve")
	p.mustTerrane("apply", "-no-color", "-auto-approve")
	want, got = p.mustTerraform("providers", "-no-color"), p.mustTerrane("providers", "-no-color")
	if !strings.Contains(got, "Providers required by state:") || inAnyOrder(got) != inAnyOrder(want) {
		t.Errorf("providers after apply:\n%s\nterraform:\n%s", got, want)
	}
}
