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
// A plan shows the same, counting differently: OpenTofu's plan validates
// the configuration before planning it, so each provider warning is raised
// twice there, once by Terrane, so only Terrane's plan is checked here.
func TestWarningsConsolidatedAsTerraform(t *testing.T) {
	p := newCompatPair(t, map[string]string{"main.tf": legacyWarningsConfig}, true)
	want := strings.TrimSuffix(p.mustTerraform("validate", "-no-color"), "\n")
	if got := p.mustTerrane("validate", "-no-color"); got != want {
		t.Errorf("terrane validate differs from terraform's\n%s", lineDiff(got, want))
	}

	out := p.mustTerrane("plan", "-no-color")
	for _, want := range []string{
		"Warning: Attribute Deprecated\n\n  with tpf_legacy.a,\n  on main.tf line 14, in resource \"tpf_legacy\" \"a\":\n  14:   old_name = \"old-a\"\n\nUse name instead.\n\n(and 2 more similar warnings elsewhere)\n",
		"Warning: Block Deprecated\n\n  with tpf_legacy.b,\n  on main.tf line 17, in resource \"tpf_legacy\" \"b\":\n  17: resource \"tpf_legacy\" \"b\" {\n\nSettings are no longer read.\n",
	} {
		assertContains(t, "plan", out, want)
	}
	if n := strings.Count(out, "Warning: Attribute Deprecated"); n != 1 {
		t.Errorf("the deprecation warning is shown %d times:\n%s", n, out)
	}
	// format.DiagnosticWarningsCompact.
	compact := p.mustTerrane("plan", "-no-color", "-compact-warnings")
	assertContains(t, "plan -compact-warnings", compact, "Warnings:\n\n- Attribute Deprecated\n  on main.tf line 14 (and 2 more)\n- Block Deprecated\n  on main.tf line 17\n\nTo see the full warning notes, run Terrane without -compact-warnings.\n")
}
