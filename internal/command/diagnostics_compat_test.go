package command

import (
	"strings"
	"testing"
)

// legacyWarningsConfig sets a deprecated attribute in three places and a
// deprecated block in one: the provider warns about each.
const legacyWarningsConfig = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}

resource "tpf_legacy" "a" {
  name     = "a"
  old_name = "old-a"
}

resource "tpf_legacy" "b" {
  name     = "b"
  old_name = "old-b"
  old_settings {
    level = 1
  }
}

resource "tpf_legacy" "c" {
  name     = "c"
  old_name = "old-c"
}
`

// TestWarningsConsolidatedAsTerraform validates a configuration that draws
// the same warning from three places. OpenTofu and Terraform 1.11 sort the
// diagnostics and show warnings with the same summary once, saying how
// many more there are (OpenTofu's views.View.Diagnostics,
// tfdiags.Diagnostics.Consolidate); a provider's warning about a nested
// block points at the body of the resource, as OpenTofu's
// tfdiags.attributeDiagnostic.ElaborateFromConfigBody places it. OpenTofu
// ends with the verdict wrapped to the width and no blank line after it
// (opentofu/opentofu#765), where Terraform adds one.
//
// What plan shows of the same warnings (OpenTofu's plan validates first, so
// each is counted twice) is checked against OpenTofu by the corpus case
// diagnostics/provider_deprecation_warnings.
func TestWarningsConsolidatedAsTerraform(t *testing.T) {
	p := newCompatPair(t, map[string]string{"main.tf": legacyWarningsConfig}, true)
	want := strings.TrimSuffix(p.mustTerraform("validate", "-no-color"), "\n")
	if got := p.mustTerrane("validate", "-no-color"); got != want {
		t.Errorf("terrane validate differs from terraform's\n%s", lineDiff(got, want))
	}

}
