package engine

import (
	"strings"
	"testing"
)

// A root output holding a sensitive value must say so; a child module's
// output passes the mark on without it, and sensitive = true accepts it.
func TestRootOutputOfSensitiveValueMustBeDeclaredSensitive(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(map[string]string{
		"main.tf": `
variable "password" {
  type      = string
  sensitive = true
  default   = "hunter2"
}
module "child" {
  source = "./child"
  secret = var.password
}
output "nested" {
  value = { password = module.child.secret }
}
output "declared" {
  value     = var.password
  sensitive = true
}
`,
		"child/main.tf": `
variable "secret" {
  type = string
}
output "secret" {
  value = var.secret
}
`,
	})
	_, ds := h.planWith(nil)
	d := findDiag(ds, "Output refers to sensitive values")
	if d == nil {
		t.Fatalf("plan diagnostics = %v, want an error for output nested", ds)
	}
	if !strings.Contains(d.Detail, "annotate the output value as sensitive") || d.Subject == nil || d.Subject.Start.Line != 11 {
		t.Errorf("diagnostic = %+v, want OpenTofu's words, at output nested's block on line 11", d)
	}
	n := 0
	for _, d := range ds {
		if d.Summary == "Output refers to sensitive values" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("got %d sensitive-output errors, want 1 (child outputs and declared outputs are fine): %v", n, ds)
	}
}
