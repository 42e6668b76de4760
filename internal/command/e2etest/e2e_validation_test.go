package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestE2EValidationSensitiveErrorMessage checks OpenTofu's refusal to print
// an error message built from a sensitive value (internal/tofu
// eval_variable.go: "Error message refers to sensitive values", and the
// message replaced by "The error message included a sensitive value, so it
// will not be displayed."), in plain and -json output. terraform 1.11
// prints the secret, so it is not the oracle here. Preconditions and check
// assertions warn the same way whatever their outcome (OpenTofu's
// evalCheckErrorMessage), and never show the value.
func TestE2EValidationSensitiveErrorMessage(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, lifecycleHeader+`
variable "password" {
  type      = string
  default   = "hunter2-secret"
  sensitive = true
  validation {
    condition     = length(var.password) > 20
    error_message = "password ${var.password} is too short."
  }
}
`)
	for _, args := range [][]string{{"plan", "-no-color"}, {"plan", "-json"}} {
		out, errOut, code := p.run(args...)
		if code != 1 {
			t.Fatalf("%v: exit %d, want 1\n%s%s", args, code, out, errOut)
		}
		if strings.Contains(out+errOut, "hunter2-secret") {
			t.Errorf("%v prints the sensitive value:\n%s%s", args, out, errOut)
		}
		clitest.AssertContains(t, strings.Join(args, " "), out+errOut, "Error message refers to sensitive values",
			"The error message included a sensitive value, so it will not be displayed.", "Invalid value for variable")
	}

	p.write(lifecycleHeader + `
variable "password" {
  type      = string
  default   = "hunter2-secret"
  sensitive = true
}

resource "tpf_thing" "a" {
  name = "a"
  lifecycle {
    precondition {
      condition     = length(var.password) > 20
      error_message = "password ${var.password} is too short."
    }
  }
}

check "passing" {
  assert {
    condition     = length(var.password) > 1
    error_message = "password ${var.password} is empty."
  }
}
`)
	out, errOut, code := p.run("plan", "-no-color")
	if code != 1 {
		t.Fatalf("plan with a failing precondition: exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out+errOut, "hunter2-secret") {
		t.Errorf("the plan prints the sensitive value:\n%s%s", out, errOut)
	}
	clitest.AssertContains(t, "precondition", out+errOut, "Resource precondition failed",
		"This check failed, but has an invalid error message as described in the other accompanying messages.")
	// Warnings of one summary are consolidated, as OpenTofu's human view
	// does by default: the second shows as "one more similar warning".
	if n := strings.Count(out+errOut, "Warning: Error message refers to sensitive values"); n != 1 ||
		!strings.Contains(out+errOut, "(and one more similar warning elsewhere)") {
		t.Errorf("want the warning for the precondition and, consolidated, for the passing assertion, got %d:\n%s%s", n, out, errOut)
	}
}
