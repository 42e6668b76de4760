package e2etest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/plans/planfile"
	"github.com/terrane/terrane/internal/testing/clitest"
)

const lifecycleHeader = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}
`

// lifecycleV1 has an instance per kind of later change: "web" will be
// updated in place, "db" replaced (destroy first), "cache" replaced with
// create_before_destroy, and the counted "worker" instances left alone.
const lifecycleV1 = lifecycleHeader + `
variable "env" {
  type = string
}

resource "tpf_thing" "web" {
  name        = "web"
  description = "serves ${var.env}"
}

resource "tpf_thing" "db" {
  name = "db-1"
}

resource "tpf_thing" "cache" {
  name = "cache-1"
  lifecycle {
    create_before_destroy = true
  }
}

resource "tpf_thing" "worker" {
  count = 2
  name  = "worker-${count.index}"
  tags  = { web = tpf_thing.web.id }
}

output "web_id" {
  value = tpf_thing.web.id
}
`

const lifecycleV2 = lifecycleHeader + `
variable "env" {
  type = string
}

resource "tpf_thing" "web" {
  name        = "web"
  description = "serves ${var.env}, updated"
}

resource "tpf_thing" "db" {
  name = "db-2"
}

resource "tpf_thing" "cache" {
  name = "cache-2"
  lifecycle {
    create_before_destroy = true
  }
}

resource "tpf_thing" "worker" {
  count = 2
  name  = "worker-${count.index}"
  tags  = { web = tpf_thing.web.id }
}

output "web_id" {
  value = tpf_thing.web.id
}
`

// TestE2ELifecycle drives a configuration through its whole life with the
// CLI entry point: create, no-op, update and both kinds of replacement,
// drift made outside Terrane, and destroy, checking the provider's cloud
// and the store's records after each step.
func TestE2ELifecycle(t *testing.T) {
	t.Parallel()
	testE2ELifecycle(t)
}

// testE2ELifecycle is TestE2ELifecycle in a project with env added to its
// environment; it returns the project.
func testE2ELifecycle(t *testing.T, env ...string) *e2eProject {
	p := newE2EProjectEnv(t, lifecycleV1, env...)
	clitest.WriteFile(t, filepath.Join(p.dir, "terraform.tfvars"), "env = \"prod\"\n")

	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "first plan", out, "tpf_thing.web will be created", "tpf_thing.worker[1] will be created", "Plan: 5 to add, 0 to change, 0 to destroy.")
	if got := p.objects("tpf_thing"); len(got) != 0 {
		t.Fatalf("plan created objects: %v", sortedNames(got))
	}

	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "first apply", out, "Apply complete! Resources: 5 added, 0 changed, 0 destroyed.", "web_id = ")
	objects := p.objects("tpf_thing")
	if got := strings.Join(sortedNames(objects), " "); got != "cache-1 db-1 web worker-0 worker-1" {
		t.Fatalf("cloud after apply holds %s", got)
	}
	if objects["web"].attrs["description"] != "serves prod" {
		t.Errorf("terraform.tfvars value not used: %v", objects["web"].attrs["description"])
	}
	if got := strings.Join(p.recordedInstances(), " "); got != "tpf_thing.cache tpf_thing.db tpf_thing.web tpf_thing.worker[0] tpf_thing.worker[1]" {
		t.Errorf("records after apply: %s", got)
	}

	out, errOut, code := p.run("plan", "-no-color", "-detailed-exitcode")
	if code != 0 {
		t.Fatalf("plan after apply: exit %d, want 0 (no changes)\n%s\n%s", code, out, errOut)
	}
	clitest.AssertContains(t, "plan after apply", out, "No changes.")

	p.write(lifecycleV2)
	out, errOut, code = p.run("plan", "-no-color", "-detailed-exitcode", "-var", "env=staging")
	if code != 2 {
		t.Fatalf("plan after edit: exit %d, want 2 (changes)\n%s\n%s", code, out, errOut)
	}
	clitest.AssertContains(t, "plan after edit", out,
		"tpf_thing.web will be updated in-place", `"serves staging, updated"`,
		"tpf_thing.db must be replaced", "-/+ resource \"tpf_thing\" \"db\"",
		"tpf_thing.cache must be replaced", "+/- resource \"tpf_thing\" \"cache\"",
		"Plan: 2 to add, 1 to change, 2 to destroy.")
	if strings.Contains(out, "worker[0] will") || strings.Contains(out, "worker[0] must") {
		t.Errorf("unchanged instances shown in the plan:\n%s", out)
	}

	p.mustRun("apply", "-auto-approve", "-var", "env=staging")
	objects = p.objects("tpf_thing")
	if got := strings.Join(sortedNames(objects), " "); got != "cache-2 db-2 web worker-0 worker-1" {
		t.Fatalf("cloud after replacing holds %s", got)
	}

	p.editObject(objects["web"], func(attrs map[string]any) { attrs["description"] = "edited by hand" })
	out = p.mustRun("plan", "-no-color", "-var", "env=staging")
	clitest.AssertContains(t, "plan after drift", out, `~ description = "edited by hand" -> "serves staging, updated"`, "tpf_thing.web will be updated in-place", "Plan: 0 to add, 1 to change, 0 to destroy.")
	out = p.mustRun("plan", "-refresh-only", "-no-color", "-var", "env=staging")
	clitest.AssertContains(t, "refresh-only plan after drift", out, "tpf_thing.web has changed", `"edited by hand"`)
	if strings.Contains(out, "will be updated in-place") {
		t.Errorf("a refresh-only plan proposes changes:\n%s", out)
	}

	out = p.mustRun("destroy", "-auto-approve", "-no-color", "-var", "env=staging")
	clitest.AssertContains(t, "destroy", out, "Destroy complete! Resources: 5 destroyed.")
	if got := p.objects("tpf_thing"); len(got) != 0 {
		t.Errorf("cloud after destroy still holds %v", sortedNames(got))
	}
	if got := p.recordedInstances(); len(got) != 0 {
		t.Errorf("records after destroy: %v", got)
	}
	return p
}

// TestE2EApplyAsksForApproval answers the approval prompt: anything but
// "yes" changes nothing.
func TestE2EApplyAsksForApproval(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, lifecycleHeader+`
resource "tpf_thing" "a" {
  name = "a"
}
`)
	out, _, code := p.runWithInput("no\n", "apply", "-no-color")
	if code != 1 {
		t.Errorf("declined apply: exit %d, want 1", code)
	}
	clitest.AssertContains(t, "declined apply", out, "Do you want to perform these actions?", "Only 'yes' will be accepted", "Apply cancelled.")
	if got := p.objects("tpf_thing"); len(got) != 0 {
		t.Fatalf("declined apply created %v", sortedNames(got))
	}
	out, errOut, code := p.runWithInput("yes\n", "apply", "-no-color")
	if code != 0 {
		t.Fatalf("approved apply: exit %d\n%s\n%s", code, out, errOut)
	}
	if got := p.objects("tpf_thing"); len(got) != 1 {
		t.Fatalf("approved apply made %v", sortedNames(got))
	}
	out, _, code = p.runWithInput("\n", "destroy", "-no-color")
	if code != 1 || len(p.objects("tpf_thing")) != 1 {
		t.Errorf("declined destroy: exit %d, objects %v", code, sortedNames(p.objects("tpf_thing")))
	}
	clitest.AssertContains(t, "declined destroy", out, "Do you really want to destroy all resources?", "Destroy cancelled.")
	_, errOut, code = p.run("apply", "-input=false")
	if code != 1 {
		t.Errorf("apply -input=false without -auto-approve: exit %d", code)
	}
	clitest.AssertContains(t, "apply -input=false", errOut, "-auto-approve")
}

// TestE2ESavedPlan applies a saved plan, and refuses one made before a
// conflicting change, naming the record that changed.
func TestE2ESavedPlan(t *testing.T) {
	t.Parallel()
	testE2ESavedPlan(t)
}

// testE2ESavedPlan is TestE2ESavedPlan in a project with env added to its
// environment; it returns the project.
func testE2ESavedPlan(t *testing.T, env ...string) *e2eProject {
	p := newE2EProjectEnv(t, lifecycleHeader+`
resource "tpf_thing" "a" {
  name        = "a"
  description = "one"
}
`, env...)
	p.mustRun("apply", "-auto-approve")
	p.write(lifecycleHeader + `
resource "tpf_thing" "a" {
  name        = "a"
  description = "two"
}
`)
	p.mustRun("plan", "-out=first.tfplan")
	reader, err := planfile.Open(filepath.Join(p.dir, "first.tfplan"))
	if err != nil {
		t.Fatalf("plan -out did not write a plan file: %v", err)
	}
	reader.Close()
	p.mustRun("plan", "-out=second.tfplan")

	out := p.mustRun("apply", "-no-color", "first.tfplan")
	clitest.AssertContains(t, "apply of a saved plan", out, "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.")
	if got := p.objects("tpf_thing")["a"].attrs["description"]; got != "two" {
		t.Errorf("saved plan not applied: description %v", got)
	}

	out, errOut, code := p.run("apply", "-no-color", "second.tfplan")
	if code != 1 {
		t.Fatalf("stale saved plan applied: exit %d\n%s\n%s", code, out, errOut)
	}
	clitest.AssertContains(t, "stale plan refusal", errOut, "Saved plan is stale")

	p.write(lifecycleHeader + `
resource "tpf_thing" "a" {
  name        = "a"
  description = "three"
}
`)
	p.mustRun("plan", "-out=third.tfplan")
	clitest.WriteFile(t, filepath.Join(p.dir, "extra.tf"), "locals {\n  x = 1\n}\n")
	_, errOut, code = p.run("apply", "-no-color", "third.tfplan")
	if code != 1 {
		t.Fatalf("plan applied after the configuration changed: exit %d", code)
	}
	clitest.AssertContains(t, "changed configuration refusal", errOut, "Configuration changed since the plan was made", "extra.tf")
	return p
}
