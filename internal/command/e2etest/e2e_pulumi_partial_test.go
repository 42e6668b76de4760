package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// pulumiPartialConfig creates a thing whose Create writes the object and
// then fails with ErrorResourceInitFailed.
const pulumiPartialConfig = `
terraform {
  required_providers {
    tpulumi = { source = "pulumi/tpulumi", version = "~> 0.1" }
  }
}

provider "tpulumi" {
  root_dir = "CLOUD"
}

resource "tpulumi_thing" "half" {
  name  = "half"
  nonce = "n-half"
  fail  = "FAIL"
}
`

// TestE2EPulumiPartialCreateRecordedTainted: an object the provider
// created but could not finish initialising is recorded, tainted, and
// replaced by the next apply — never lost.
func TestE2EPulumiPartialCreateRecordedTainted(t *testing.T) {
	t.Parallel()
	p := newPulumiProject(t, strings.Replace(pulumiPartialConfig, "FAIL", "partial", 1))
	stdout, stderr, code := p.run("apply", "-auto-approve", "-no-color")
	if code == 0 || !strings.Contains(stderr, "Object created but not ready") || !strings.Contains(stderr, "tpulumi_thing.half") {
		t.Fatalf("partial create: exit %d\n%s%s\nwant a diagnostic naming the object and the resource", code, stdout, stderr)
	}
	half := p.objects("tpulumi_thing")["half"]
	if half.path == "" {
		t.Fatal("the provider did not create the object")
	}
	if got := p.mustRun("state", "list"); !strings.Contains(got, "tpulumi_thing.half") {
		t.Fatalf("the partly created object is not recorded:\n%s", got)
	}
	clitest.AssertContains(t, "state show", p.mustRun("state", "show", "-no-color", "tpulumi_thing.half"), "tainted")

	p.write(strings.Replace(pulumiPartialConfig, "FAIL", "", 1))
	out := p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "apply after a partial create", out, "is tainted, so it must be replaced", "Resources: 1 added, 0 changed, 1 destroyed.")
	if objects := p.objects("tpulumi_thing"); len(objects) != 1 {
		t.Errorf("after the replacement the cloud holds %v, want the one new thing", sortedNames(objects))
	}
	p.expectNoChanges("plan after the replacement")
}

// TestE2EPulumiFailedCreateLeavesNothingOpen: a Create the provider answers
// with an error created nothing, and Pulumi's engine takes it so (the
// step's pending operation is completed). The run fails naming the
// resource; nothing is recorded, no intent stays open, and the next plan
// simply plans the create again.
func TestE2EPulumiFailedCreateLeavesNothingOpen(t *testing.T) {
	t.Parallel()
	p := newPulumiProject(t, strings.Replace(pulumiPartialConfig, "FAIL", "create", 1))
	stdout, stderr, code := p.run("apply", "-auto-approve", "-no-color")
	if code == 0 || !strings.Contains(stderr, "create failure requested") || !strings.Contains(stderr, "tpulumi_thing.half") {
		t.Fatalf("failed create: exit %d\n%s%s\nwant the provider's error naming the resource", code, stdout, stderr)
	}
	if strings.Contains(stderr, "may have happened") {
		t.Errorf("a create the provider answered with an error is reported as uncertain:\n%s", stderr)
	}
	if got := p.mustRun("state", "list"); strings.TrimSpace(got) != "" {
		t.Errorf("state after a failed create lists %q, want nothing", got)
	}
	p.mustRun("state", "pull")
	p.write(strings.Replace(pulumiPartialConfig, "FAIL", "", 1))
	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "plan after a failed create", out, "tpulumi_thing.half will be created", "Plan: 1 to add, 0 to change, 0 to destroy.")
}
