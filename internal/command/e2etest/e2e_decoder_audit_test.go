package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestE2EDeprecatedVariablesAndOutputs checks OpenTofu's deprecated
// argument of variables and outputs (OpenTofu 1.10; RFC "Deprecation of
// module variables and outputs"): a caller setting a deprecated variable
// to a non-null value, or referring to a deprecated output, is warned with
// the module author's message; an empty message is an error. terraform
// 1.11 has no such argument.
func TestE2EDeprecatedVariablesAndOutputs(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, "")
	clitest.WriteFile(t, p.dir+"/old/main.tf", `
variable "size" {
  type       = number
  default    = 1
  deprecated = "size is going away: use capacity."
}

variable "unused" {
  type       = string
  default    = null
  deprecated = "unused is going away."
}

output "legacy" {
  value      = var.size
  deprecated = "legacy is going away: use current."
}

output "current" {
  value = var.size
}
`)
	p.write(`
module "old" {
  source = "./old"
  size   = 3
  unused = null
}

output "from_legacy" {
  value = module.old.legacy
}

output "from_current" {
  value = module.old.current
}
`)
	p.mustRun("init", "-no-color")
	out := p.mustRun("plan", "-no-color")
	// As OpenTofu: a value given to a deprecated variable, null included,
	// and any value derived from a deprecated output are warned of.
	clitest.AssertContains(t, "plan", out,
		`Warning: Variable marked as deprecated by the module author`, `Variable "size" is marked as deprecated with the following message:`, "size is going away: use capacity.",
		`Variable "unused" is marked as deprecated`,
		`Warning: Value derived from a deprecated source`, "This value is derived from module.old.legacy", "legacy is going away: use current.")

	clitest.WriteFile(t, p.dir+"/old/extra.tf", `
variable "empty" {
  default    = 1
  deprecated = ""
}
`)
	_, errOut, code := p.run("plan", "-no-color")
	if code != 1 || !strings.Contains(errOut, "Invalid `deprecated` value") {
		t.Errorf("an empty deprecated message: exit %d\n%s", code, errOut)
	}
}
