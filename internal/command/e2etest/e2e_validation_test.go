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

// TestE2EValidationRefersToOtherVariables checks that a validation rule
// reading other variables is evaluated with their values, in the root
// module and in a child module, as terraform 1.11 and OpenTofu 1.9+ do:
// the plan fails with "Invalid value for variable" at the declaration of a
// root variable and at the argument of a module call.
func TestE2EValidationRefersToOtherVariables(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{
		"main.tf": `
variable "min" {
  type    = number
  default = 5
}

variable "max" {
  type    = number
  default = 3
  validation {
    condition     = var.max > var.min
    error_message = "max (${var.max}) must be greater than min (${var.min})."
  }
}

module "range" {
  source = "./range"
  low    = var.min + 5
  high   = 4
}

output "max" {
  value = var.max
}
`,
		"range/main.tf": `
variable "low" {
  type = number
}

variable "high" {
  type = number
  validation {
    condition     = var.high >= var.low
    error_message = "high must not be below low."
  }
}
`,
	})
	res := p.result("plan", "-no-color")
	p.expectCode("plan", res, 1)
	clitest.AssertContains(t, "plan errors", res.stderr,
		"Invalid value for variable", "max (3) must be greater than min (5).", "on main.tf line 7:", `variable "max" {`,
		"high must not be below low.", "on main.tf line 19, in module \"range\":", "high   = 4")
	if strings.Count(res.stderr, "Error: Invalid value for variable") != 2 {
		t.Errorf("want two failed validations:\n%s", res.stderr)
	}

	res = p.result("plan", "-no-color", "-var=max=20", "-var=min=-1")
	p.expectCode("plan with valid values", res, 0)
}

// TestE2ESensitiveRootOutputNeverRecorded checks that a root output whose
// value turns out sensitive only during apply (an object with a sensitive
// attribute, unknown while planning), without sensitive = true,
// fails the apply and is never recorded, so neither output nor show prints
// it, as in terraform 1.11 and OpenTofu.
func TestE2ESensitiveRootOutputNeverRecorded(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{"main.tf": lifecycleHeader + `
resource "tpf_thing" "a" {
  name   = "a"
  secret = "hunter2-secret"
}

output "late" {
  value = tpf_thing.a.revision > 0 ? tpf_thing.a : null
}
`})
	res := p.result("plan", "-no-color", "-out=tfplan")
	p.expectCode("plan", res, 0)
	res = p.result("apply", "-no-color", "tfplan")
	p.expectCode("apply", res, 1)
	clitest.AssertContains(t, "apply", res.stderr, "Output refers to sensitive values")
	for _, args := range [][]string{{"output", "-json"}, {"output", "-no-color"}} {
		res := p.result(args...)
		if strings.Contains(res.stdout+res.stderr, "hunter2-secret") {
			t.Errorf("%v prints the sensitive value:\n%s%s", args, res.stdout, res.stderr)
		}
	}
	// The resource itself is recorded, its secret marked sensitive; the
	// output is not.
	if res := p.result("show", "-json"); strings.Contains(res.stdout, `"outputs"`) {
		t.Errorf("show -json records the output:\n%s", res.stdout)
	}
}

// TestE2ECheckScopedDataFailureIsAWarning checks that a check block's
// scoped data source that cannot be read fails the check, as a warning,
// instead of failing the run, and that check data sources are read again
// during apply to verify the applied infrastructure, as in terraform 1.11
// and OpenTofu.
func TestE2ECheckScopedDataFailureIsAWarning(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{"main.tf": lifecycleHeader + `
resource "tpf_thing" "r" {
  name = "r"
}

check "exists" {
  data "tpf_thing" "probe" {
    id = "does-not-exist"
  }
  assert {
    condition     = data.tpf_thing.probe.name == "x"
    error_message = "probe is not x"
  }
}

check "named" {
  data "tpf_thing" "known" {
    id = tpf_thing.r.id
  }
  assert {
    condition     = data.tpf_thing.known.name == "x"
    error_message = "known is not x"
  }
}
`})
	res := p.result("apply", "-no-color", "-auto-approve")
	p.expectCode("apply", res, 0)
	clitest.AssertContains(t, "apply", res.stdout+res.stderr, "Warning: No such object", "Warning: Check block assertion failed",
		"known is not x", "Resources: 1 added")
	if len(p.objects("tpf_thing")) != 1 {
		t.Errorf("the apply did not create tpf_thing.r")
	}

	res = p.result("plan", "-no-color")
	p.expectCode("plan", res, 0)
	clitest.AssertContains(t, "plan", res.stdout, "data.tpf_thing.probe will be read during apply",
		"data.tpf_thing.known will be read during apply", "(config will be reloaded to verify a check block)")
	if strings.Contains(res.stdout+res.stderr, "probe is not x") {
		t.Errorf("the assertions of a check whose data source failed were evaluated:\n%s%s", res.stdout, res.stderr)
	}
}
