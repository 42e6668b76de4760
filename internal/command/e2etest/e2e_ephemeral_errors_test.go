package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// ephemeralErrorCase is a configuration that gives an ephemeral value to a
// place that persists, and the error it must get, in OpenTofu's words.
type ephemeralErrorCase struct {
	files   map[string]string
	summary string
	detail  string
	// planOnly says validate cannot know of the error: it needs the
	// values a plan works out.
	planOnly bool
	// also are more diagnostics the run must report.
	also []string
}

const ephemeralSecret = "EPHEMERAL-IN-ERROR-7d0"

var ephemeralErrorCases = map[string]ephemeralErrorCase{
	"resource argument": {files: map[string]string{"main.tf": `
resource "tpf_thing" "a" {
  name = var.secret
}
`}, summary: "Ephemeral value used in non-ephemeral context", detail: `Attribute ".name" is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.`},
	"nested resource argument": {files: map[string]string{"main.tf": `
ephemeral "tpf_token" "t" {
  name = "t"
}

resource "tpf_thing" "a" {
  name = "a"
  tags = { token = ephemeral.tpf_token.t.value }
}
`}, summary: "Ephemeral value used in non-ephemeral context", detail: `Attribute ".tags[\"token\"]" is referencing an ephemeral value`},
	"data source argument": {files: map[string]string{"main.tf": `
ephemeral "tpf_token" "t" {
  name = "t"
}

data "tpf_thing" "d" {
  id = ephemeral.tpf_token.t.value
}
`}, summary: "Ephemeral value used in non-ephemeral context", detail: `Attribute ".id" is referencing an ephemeral value`},
	"count": {files: map[string]string{"main.tf": `
resource "tpf_thing" "a" {
  count = length(var.secret)
  name  = "a"
}
`}, summary: "Invalid count argument", detail: "Ephemeral values, or values derived from ephemeral values, cannot be used as count arguments."},
	"for_each": {files: map[string]string{"main.tf": `
resource "tpf_thing" "a" {
  for_each = toset([var.secret])
  name     = "a"
}
`}, summary: "Invalid for_each argument", detail: "Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments. If used, the ephemeral value could be exposed as a resource instance key."},
	"module for_each": {files: map[string]string{"main.tf": `
module "m" {
  source   = "./m"
  for_each = toset([var.secret])
}
`, "m/main.tf": `
output "o" {
  value = "x"
}
`}, summary: "Invalid for_each argument", detail: "cannot be used as for_each arguments"},
	"enabled": {files: map[string]string{"main.tf": `
resource "tpf_thing" "a" {
  name = "a"
  lifecycle {
    enabled = var.secret != ""
  }
}
`}, summary: "Invalid enabled argument", detail: "Ephemeral values, or values derived from ephemeral values, cannot be used as the enabled argument", planOnly: true},
	"module variable": {files: map[string]string{"main.tf": `
module "m" {
  source = "./m"
  value  = var.secret
}
`, "m/main.tf": `
variable "value" {
  type = string
}
`}, summary: "Variable does not allow ephemeral value", detail: `The value used for the variable "value" is ephemeral, but it is not configured to allow one.`},
	"child output": {files: map[string]string{"main.tf": `
module "m" {
  source = "./m"
  value  = var.secret
}
`, "m/main.tf": `
variable "value" {
  type      = string
  ephemeral = true
}

output "o" {
  value = var.value
}
`}, summary: "Output does not allow ephemeral value", detail: "The value that was generated for the output is ephemeral, but it is not configured to allow one."},
	"root output": {files: map[string]string{"main.tf": `
output "o" {
  value = "prefix-${var.secret}"
}
`}, summary: "Output does not allow ephemeral value", detail: "The value that was generated for the output is ephemeral, but it is not configured to allow one."},
	"ephemeral root output": {files: map[string]string{"main.tf": `
output "o" {
  value     = var.secret
  ephemeral = true
}
`}, summary: "Invalid output configuration", detail: "Root modules are not allowed to have outputs defined as ephemeral"},
	"import id": {files: map[string]string{"main.tf": `
import {
  to = tpf_thing.a
  id = var.secret
}

resource "tpf_thing" "a" {
  name = "a"
}
`}, summary: "Invalid import id argument", detail: "Ephemeral values, or values derived from ephemeral values, cannot be used as import IDs", planOnly: true},
	"terraform.applying": {files: map[string]string{"main.tf": `
resource "tpf_thing" "a" {
  name = terraform.applying ? "apply" : "plan"
}
`}, summary: "Ephemeral value used in non-ephemeral context", detail: `Attribute ".name" is referencing an ephemeral value`},
	"managed lifecycle argument": {files: map[string]string{"main.tf": `
ephemeral "tpf_token" "t" {
  name = "t"
  lifecycle {
    prevent_destroy = true
  }
}
`}, summary: "Invalid lifecycle configuration for ephemeral resource", detail: `The lifecycle argument "prevent_destroy" cannot be used in ephemeral resources.`},
	"precondition message": {files: map[string]string{"main.tf": `
resource "tpf_thing" "a" {
  name = "a"
  lifecycle {
    precondition {
      condition     = var.secret == "something else"
      error_message = "got ${var.secret}"
    }
  }
}
`}, summary: "Resource precondition failed", detail: "This check failed, but has an invalid error message as described in the other accompanying messages.", planOnly: true,
		also: []string{"Warning: Error message refers to ephemeral values", "The error expression used to explain this condition refers to ephemeral values, so Terrane will not display the resulting message."}},
	"validation message": {files: map[string]string{"main.tf": `
variable "checked" {
  type      = string
  ephemeral = true
  default   = "` + ephemeralSecret + `x"
  validation {
    condition     = length(var.checked) < 5
    error_message = "too long: ${var.checked}"
  }
}
`}, summary: "Invalid value for variable", detail: "The error expression used to explain this condition refers to ephemeral values. Terrane will not display the resulting message.", planOnly: true},
}

// ephemeralErrorHeader declares the provider and an ephemeral variable
// every case may use.
const ephemeralErrorHeader = lifecycleHeader + `
variable "secret" {
  type      = string
  ephemeral = true
}
`

// TestEphemeralValueErrors gives ephemeral values to places that persist
// them and checks that plan refuses each with OpenTofu's error, without
// showing the value, and that validate finds the ones it can know of
// without planning. Where Terraform refuses the configuration too, the
// test checks that it does.
func TestEphemeralValueErrors(t *testing.T) {
	t.Parallel()
	for name, test := range ephemeralErrorCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{}
			for path, content := range test.files {
				files[path] = content
			}
			files["main.tf"] = ephemeralErrorHeader + files["main.tf"]
			p := newE2EProjectFiles(t, files)
			// Configuration errors stop init already, as in Terraform.
			out, errOut, code := p.run("init", "-no-color")
			if code == 0 {
				out, errOut, code = p.run("plan", "-no-color", "-var", "secret="+ephemeralSecret)
			}
			if code != 1 {
				t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			clitest.AssertContains(t, "init or plan", errOut, "Error: "+test.summary, test.detail)
			clitest.AssertContains(t, "init or plan", out+errOut, test.also...)
			if strings.Contains(out+errOut, ephemeralSecret) {
				t.Errorf("plan shows the ephemeral value:\n%s\n%s", out, errOut)
			}
			if !test.planOnly {
				// validate knows as much without planning.
				out, errOut, code := p.run("validate", "-no-color")
				if code != 1 || !strings.Contains(errOut, "Error: "+test.summary) {
					t.Errorf("validate: exit %d, want the error\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
				}
			}
			if leases := p.objects("tpf_token"); len(leases) > 0 {
				t.Errorf("the failed plan left tokens open: %v", sortedNames(leases))
			}
		})
	}
}
