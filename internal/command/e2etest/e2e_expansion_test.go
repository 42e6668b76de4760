package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestE2ESensitiveCount checks OpenTofu's rule that a sensitive value may
// set count (internal/tofu/evalchecks/eval_count.go unmarks it: "sensitive
// values are allowed in count but not for_each, as using it here will not
// disclose the sensitive value"); terraform 1.11 refuses it, so it is not
// the oracle here.
func TestE2ESensitiveCount(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, lifecycleHeader+`
variable "replicas" {
  type      = number
  default   = 2
  sensitive = true
}

resource "tpf_thing" "n" {
  count = var.replicas
  name  = "n${count.index}"
}
`)
	out := p.mustRun("apply", "-no-color", "-auto-approve")
	clitest.AssertContains(t, "apply", out, "Resources: 2 added")
}

// unknownExpansionConfig expands resources and a data source over values
// known only after tpf_thing.r is created.
const unknownExpansionConfig = lifecycleHeader + `
resource "tpf_thing" "r" {
  name = "r"
}

resource "tpf_thing" "s" {
  for_each = toset([tpf_thing.r.id, "b"])
  name     = each.key
}

resource "tpf_thing" "c" {
  count = tpf_thing.r.revision
  name  = "c${count.index}"
}

data "tpf_thing" "d" {
  for_each = toset([tpf_thing.r.id])
  id       = each.key
}
`

// TestE2EUnknownExpansionIsAnError checks that count and for_each values
// known only after apply stop the plan with "Invalid for_each argument" and
// "Invalid count argument", as in terraform 1.11 and OpenTofu, instead of
// leaving the resources out of a plan that then applies "successfully";
// OpenTofu's explanation suggests -exclude with the resource's address.
// With -target on what they depend on, the plan goes ahead.
func TestE2EUnknownExpansionIsAnError(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{"main.tf": unknownExpansionConfig})
	res := p.result("plan", "-no-color")
	p.expectCode("plan", res, 1)
	clitest.AssertContains(t, "plan", res.stderr, "Invalid for_each argument", "Invalid count argument",
		`The "for_each" set includes values derived from resource attributes that cannot be determined until apply`,
		"use the planning option -exclude=tpf_thing.s to first apply without this object",
		"use the planning option -exclude=tpf_thing.c to first apply without this object")

	res = p.result("apply", "-no-color", "-auto-approve")
	p.expectCode("apply", res, 1)
	if objects := p.objects("tpf_thing"); len(objects) != 0 {
		t.Errorf("a failed plan created objects: %v", sortedNames(objects))
	}

	res = p.result("apply", "-no-color", "-auto-approve", "-target=tpf_thing.r")
	p.expectCode("targeted apply", res, 0)
	res = p.result("apply", "-no-color", "-auto-approve")
	p.expectCode("apply once the values are known", res, 0)
	if got := sortedNames(p.objects("tpf_thing")); len(got) != 4 {
		t.Errorf("objects %v, want r, b, the instance named after r's id and c0", got)
	}
}

// TestE2EUnknownProviderConfigurationPlansNormally checks that a resource
// whose provider configuration is known only after apply is planned and
// created in the same run, as terraform 1.11 and OpenTofu do (neither
// defers changes), not silently left out of the plan.
func TestE2EUnknownProviderConfigurationPlansNormally(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{"main.tf": lifecycleHeader + `
resource "tpf_thing" "r" {
  name = "r"
}

provider "tpf" {
  alias    = "late"
  root_dir = "CLOUD${substr(tpf_thing.r.id, 0, 0)}"
}

resource "tpf_thing" "s" {
  provider = tpf.late
  name     = "s"
}
`})
	res := p.result("apply", "-no-color", "-auto-approve")
	p.expectCode("apply", res, 0)
	clitest.AssertContains(t, "apply", res.stdout, "Plan: 2 to add", "tpf_thing.s: Creation complete", "Resources: 2 added")
	if got := sortedNames(p.objects("tpf_thing")); len(got) != 2 {
		t.Errorf("objects %v, want r and s", got)
	}
}

// TestE2EProviderUsedOnlyForFunctions checks that a provider with neither
// a provider block nor a resource can still be called for its functions,
// as in terraform 1.11 and OpenTofu (which configures it like any provider
// required in the root module: the test provider finds its cloud directory
// in TESTCLOUD_DIR then).
func TestE2EProviderUsedOnlyForFunctions(t *testing.T) {
	t.Parallel()
	p := newE2EProjectFiles(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

locals {
  reversed = provider::tpf::reverse("xyz")
}

output "reversed" {
  value = local.reversed
}

output "root" {
  value = provider::tpf::sqrt(16)
}
`})
	p.setenv("TESTCLOUD_DIR", t.TempDir())
	p.mustRun("init", "-no-color")
	res := p.result("apply", "-no-color", "-auto-approve")
	p.expectCode("apply", res, 0)
	clitest.AssertContains(t, "apply", res.stdout, `reversed = "zyx"`, "root = 4")
}

// TestE2EImportForEachOverAList checks that an import block's for_each may
// be a list of objects, each.key being the index, as terraform 1.11 and
// OpenTofu accept (OpenTofu's evalchecks allow a tuple for import blocks).
func TestE2EImportForEachOverAList(t *testing.T) {
	t.Parallel()
	thing := lifecycleHeader + `
resource "tpf_thing" "t" {
  for_each = toset(["a", "b"])
  name     = each.key
}
`
	p := newInitialisedProject(t, map[string]string{"main.tf": thing})
	p.expectCode("apply", p.result("apply", "-no-color", "-auto-approve"), 0)
	p.expectCode("state rm", p.result("state", "rm", `tpf_thing.t["a"]`, `tpf_thing.t["b"]`), 0)
	objects := p.objects("tpf_thing")
	p.writeFiles(map[string]string{"main.tf": thing + `
locals {
  existing = [
    { key = "a", id = "` + objects["a"].attrs["id"].(string) + `" },
    { key = "b", id = "` + objects["b"].attrs["id"].(string) + `" },
  ]
}

import {
  for_each = local.existing
  to       = tpf_thing.t[each.value.key]
  id       = each.value.id
}
`})
	res := p.result("apply", "-no-color", "-auto-approve")
	p.expectCode("apply with imports", res, 0)
	clitest.AssertContains(t, "apply", res.stdout, "Resources: 2 imported, 0 added, 0 changed, 0 destroyed.")
	if got := p.recordedInstances(); strings.Join(got, " ") != `tpf_thing.t["a"] tpf_thing.t["b"]` {
		t.Errorf("records %v", got)
	}
}
