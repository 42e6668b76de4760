package command

import (
	"strings"
	"testing"
)

// TestE2ETerraformDataOutputKnownAfterApply checks the built-in
// terraform_data against terraform 1.11 (OpenTofu's built-in provider is
// the same): output is known only after apply, so a sensitive input does
// not show through it in the plan and a postcondition on it is evaluated
// at apply, not at plan. An existing object can be imported by id.
func TestE2ETerraformDataOutputKnownAfterApply(t *testing.T) {
	o := newOracleProject(t, map[string]string{"main.tf": `
variable "password" {
  type      = string
  default   = "hunter2-secret"
  sensitive = true
}

resource "terraform_data" "guarded" {
  input = "in-${var.password}"
  lifecycle {
    postcondition {
      condition     = self.output == "x"
      error_message = "output is not x"
    }
  }
}

resource "terraform_data" "plain" {
  input = "plain"
}

output "plain" {
  value = terraform_data.plain.output
}
`})
	res := o.agree("plan", "-no-color")
	o.expectCode("plan", res, 0)
	if strings.Contains(res.stdout, "hunter2-secret") {
		t.Errorf("the plan shows the sensitive input:\n%s", res.stdout)
	}
	assertContains(t, "plan", res.stdout, "output = (known after apply)", "+ plain = (known after apply)")

	res = o.agree("apply", "-no-color", "-auto-approve")
	o.expectCode("apply", res, 1)
	assertContains(t, "apply", res.stderr, "Resource postcondition failed", "output is not x")

	o.rewrite(map[string]string{"main.tf": `
resource "terraform_data" "adopted" {
  input = "later"
}
`})
	res = o.agree("import", "-no-color", "terraform_data.adopted", "2b1a6c1e-0000-4000-8000-000000000000")
	o.expectCode("import", res, 0)
	res = o.agree("plan", "-no-color")
	o.expectCode("plan after import", res, 0)
	assertContains(t, "plan after import", res.stdout, "terraform_data.adopted will be updated in-place", `+ input  = "later"`)
}
