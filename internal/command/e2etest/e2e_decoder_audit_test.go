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

// TestE2EProviderMetaIsSent checks that a module's provider_meta block
// reaches the provider with its resources' operations, as in terraform 1.11
// and OpenTofu, instead of being read and dropped: the test provider
// records the module_name it receives on create.
func TestE2EProviderMetaIsSent(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{
		"main.tf": lifecycleHeader + `
module "tagged" {
  source = "./tagged"
}
`,
		"tagged/main.tf": `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
  provider_meta "tpf" {
    module_name = "tagged-module"
  }
}

resource "tpf_thing" "a" {
  name = "a"
}
`,
	})
	p.expectCode("apply", p.result("apply", "-no-color", "-auto-approve"), 0)
	if got := sortedNames(p.objects("tpf_thing_provider_meta")); strings.Join(got, " ") != "tagged-module" {
		t.Errorf("provider_meta received: %v, want tagged-module", got)
	}
}

// TestE2EEscapingBlocks checks the meta-argument escaping block "_" of
// resource, module and provider blocks, whose arguments belong to the
// provider or the module, as terraform 1.11 and OpenTofu read it
// (OpenTofu's internal/configs escaping block handling); it used to be
// refused as a reserved block.
func TestE2EEscapingBlocks(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  _ {
    root_dir = "CLOUD"
  }
}

resource "tpf_thing" "a" {
  name = "a"
  _ {
    description = "escaped"
  }
}

module "m" {
  source = "./m"
  _ {
    greeting = "hello"
  }
}

output "greeting" {
  value = module.m.greeting
}
`,
		"m/main.tf": `
variable "greeting" {
  type = string
}

output "greeting" {
  value = var.greeting
}
`,
	})
	res := p.result("apply", "-no-color", "-auto-approve")
	p.expectCode("apply", res, 0)
	clitest.AssertContains(t, "apply", res.stdout, `greeting = "hello"`)
	if got := p.objects("tpf_thing")["a"].attrs["description"]; got != "escaped" {
		t.Errorf("description %v, want the escaped argument", got)
	}
}

// TestE2ECheckNestedDataBlockLimits checks that a data block nested in a
// check block refuses count, for_each and lifecycle, as terraform 1.11 and
// OpenTofu do, instead of expanding it.
func TestE2ECheckNestedDataBlockLimits(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{"main.tf": lifecycleHeader})
	for _, test := range []struct{ inner, summary string }{
		{"count = 1", `Invalid "count" attribute`},
		{`for_each = toset(["a"])`, `Invalid "for_each" attribute`},
		{"lifecycle {\n      postcondition {\n        condition     = self.id != \"\"\n        error_message = \"x\"\n      }\n    }", "Invalid lifecycle block"},
	} {
		p.writeFiles(map[string]string{"main.tf": lifecycleHeader + `
resource "tpf_thing" "r" {
  name = "r"
}

check "c" {
  data "tpf_thing" "d" {
    id = tpf_thing.r.id
    ` + test.inner + `
  }
  assert {
    condition     = data.tpf_thing.d != null
    error_message = "missing"
  }
}
`})
		res := p.result("validate", "-no-color")
		p.expectCode("validate", res, 1)
		clitest.AssertContains(t, "validate", res.stderr, test.summary)
	}
}

// TestE2EIgnoreChangesPathsAreChecked checks lifecycle ignore_changes
// against the resource type's schema, as terraform 1.11 and OpenTofu do: a
// path the type does not have is an error rather than a silently useless
// entry, and an attribute only the provider sets is a warning.
func TestE2EIgnoreChangesPathsAreChecked(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{"main.tf": lifecycleHeader})
	for _, test := range []struct {
		paths   string
		code    int
		summary string
	}{
		{`[descripton]`, 1, "Error: Unsupported attribute"},
		{`[tags["k"], id]`, 0, "Warning: Redundant ignore_changes element"},
	} {
		p.writeFiles(map[string]string{"main.tf": lifecycleHeader + `
resource "tpf_thing" "r" {
  name = "r"
  lifecycle {
    ignore_changes = ` + test.paths + `
  }
}
`})
		for _, command := range []string{"validate", "plan"} {
			res := p.result(command, "-no-color")
			p.expectCode(command+" "+test.paths, res, test.code)
			clitest.AssertContains(t, command+" "+test.paths, res.stdout+res.stderr, test.summary)
		}
	}
}
