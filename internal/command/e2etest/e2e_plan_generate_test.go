package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

const generateConfigProvider = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}
`

// TestPlanGenerateConfigOut imports an object for an import block that has
// no resource block: plan writes the block, plans the import with it, and
// after apply the written configuration matches the object.
func TestPlanGenerateConfigOut(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, generateConfigProvider+`
resource "tpf_thing" "made" {
  name        = "made"
  description = "made elsewhere"
}
`)
	p.mustRun("apply", "-auto-approve")
	id := strings.TrimSuffix(filepath.Base(p.objects("tpf_thing")["made"].path), ".json")
	p.mustRun("state", "rm", "tpf_thing.made")
	p.write(generateConfigProvider + `
import {
  to = tpf_thing.adopted
  id = "` + id + `"
}
`)

	out := p.mustRun("plan", "-no-color", "-generate-config-out=generated.tf")
	clitest.AssertContains(t, "plan", out, "# tpf_thing.adopted will be imported", "# (config will be generated)",
		"Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.")
	generated, err := os.ReadFile(filepath.Join(p.dir, "generated.tf"))
	if err != nil {
		t.Fatalf("plan wrote no generated.tf: %v", err)
	}
	clitest.AssertContains(t, "generated.tf", string(generated), "# __generated__ by Terrane", `# __generated__ by Terrane from "`+id+`"`,
		`resource "tpf_thing" "adopted" {`, `description`, `"made elsewhere"`)

	_, errOut, code := p.run("plan", "-no-color", "-generate-config-out=generated.tf")
	if code != 1 || !strings.Contains(errOut, "Target generated file already exists") {
		t.Errorf("a second plan into the same file: exit %d, stderr %s; want exit 1 refusing the existing file", code, errOut)
	}

	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "apply", out, "tpf_thing.adopted will be imported", "Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.")
	p.expectNoChanges("plan after applying the generated configuration")
	if got := p.recordedInstances(); len(got) != 1 || got[0] != "tpf_thing.adopted" {
		t.Errorf("records after apply: %v", got)
	}
}

func TestPlanGenerateConfigOutRefusesOtherModes(t *testing.T) {
	t.Parallel()
	p := newBareProject(t)
	for _, mode := range []string{"-destroy", "-refresh-only"} {
		_, errOut, code := p.run("plan", mode, "-generate-config-out=generated.tf")
		if code != 1 || !strings.Contains(errOut, "Configuration can be generated only in the normal planning mode") {
			t.Errorf("plan %s -generate-config-out: exit %d, stderr %s", mode, code, errOut)
		}
	}
}

// TestPlanGenerateConfigOutRefusals refuses, as OpenTofu does, to generate
// configuration for import targets one block cannot describe: instances of
// count or for_each (a literal key, or one evaluated from each.key) and
// resources in child modules, whether the module is declared or not. Each
// refusal names the target and the import block's line, and no file is
// written.
func TestPlanGenerateConfigOutRefusals(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, generateConfigProvider)
	clitest.WriteFile(t, filepath.Join(p.dir, "child", "main.tf"), `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
`)
	for _, tc := range []struct {
		name, imports string
		wants         []string
	}{
		{"for_each key", `
import {
  for_each = toset(["a", "b"])
  to       = tpf_thing.many[each.key]
  id       = each.key
}`, []string{"Configuration generation for count and for_each resources not supported", "The configuration for tpf_thing.many does not exist", "on main.tf line 12:"}},
		{"literal key", `
import {
  to = tpf_thing.many["a"]
  id = "a"
}`, []string{"Configuration generation for count and for_each resources not supported", `The configuration for tpf_thing.many["a"] does not exist`, "on main.tf line 12:"}},
		{"declared module", `
module "child" {
  source = "./child"
}

import {
  to = module.child.tpf_thing.inner
  id = "x"
}`, []string{"Cannot generate configuration for resource inside sub-module", "The configuration for module.child.tpf_thing.inner does not exist", "on main.tf line 16:"}},
		{"undeclared module", `
import {
  to = module.nowhere[0].tpf_thing.inner
  id = "x"
}`, []string{"Cannot generate configuration for resource inside sub-module", "The configuration for module.nowhere.tpf_thing.inner does not exist", "on main.tf line 12:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.write(generateConfigProvider + tc.imports)
			p.mustRun("init")
			out, errOut, code := p.run("plan", "-no-color", "-generate-config-out=generated.tf")
			if code != 1 {
				t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			clitest.AssertContains(t, "refusal", errOut, tc.wants...)
			if _, err := os.Stat(filepath.Join(p.dir, "generated.tf")); err == nil {
				t.Errorf("generated.tf was written for a refused target")
			}
		})
	}
}

// TestPlanGenerateConfigOutBesideForEachImports generates configuration
// for import blocks whose target is one resource (one of them with a
// for_each of one element, which OpenTofu accepts) while another, with
// for_each, imports into a declared for_each resource: every object is
// imported by one apply.
func TestPlanGenerateConfigOutBesideForEachImports(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, generateConfigProvider+`
resource "tpf_thing" "made" {
  for_each = toset(["a", "b", "c", "d"])
  name     = each.key
}
`)
	p.mustRun("apply", "-auto-approve")
	ids := map[string]string{}
	for name, obj := range p.objects("tpf_thing") {
		ids[name] = strings.TrimSuffix(filepath.Base(obj.path), ".json")
	}
	for _, name := range []string{"a", "b", "c", "d"} {
		p.mustRun("state", "rm", `tpf_thing.made["`+name+`"]`)
	}
	p.write(generateConfigProvider + `
resource "tpf_thing" "pair" {
  for_each = toset(["a", "b"])
  name     = each.key
}

import {
  for_each = { a = "` + ids["a"] + `", b = "` + ids["b"] + `" }
  to       = tpf_thing.pair[each.key]
  id       = each.value
}

import {
  to = tpf_thing.single
  id = "` + ids["c"] + `"
}

import {
  for_each = { only = "` + ids["d"] + `" }
  to       = tpf_thing.lone
  id       = each.value
}
`)
	out := p.mustRun("plan", "-no-color", "-generate-config-out=generated.tf")
	clitest.AssertContains(t, "plan", out, `# tpf_thing.pair["a"] will be imported`, `# tpf_thing.pair["b"] will be imported`,
		"# tpf_thing.single will be imported", "# tpf_thing.lone will be imported", "# (config will be generated)",
		"Plan: 4 to import, 0 to add, 0 to change, 0 to destroy.")
	generated, err := os.ReadFile(filepath.Join(p.dir, "generated.tf"))
	if err != nil {
		t.Fatalf("plan wrote no generated.tf: %v", err)
	}
	text := string(generated)
	if !strings.Contains(text, `resource "tpf_thing" "single" {`) || !strings.Contains(text, `resource "tpf_thing" "lone" {`) || strings.Contains(text, `"pair"`) {
		t.Errorf("generated.tf should hold tpf_thing.single and tpf_thing.lone only:\n%s", text)
	}
	p.mustRun("apply", "-auto-approve")
	p.expectNoChanges("plan after importing with generated and declared configuration")
}
