package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestE2ERemovedBlockForgets checks OpenTofu's removed block through the
// CLI. OpenTofu differs from terraform 1.11 here, so OpenTofu's source is
// the reference: internal/configs/removed.go leaves destroy false unless
// lifecycle sets it and warns "Missing lifecycle from the removed block";
// the orphan planner (node_resource_plan_orphan.go) warns "Resource will
// be removed from the state" for each forgotten instance; the plan counts
// "N to forget" and the apply "N forgotten". Nothing is destroyed but what
// destroy = true names.
func TestE2ERemovedBlockForgets(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, lifecycleHeader+`
resource "tpf_thing" "bare" {
  name = "bare"
}

resource "tpf_thing" "kept" {
  count = 2
  name  = "kept${count.index}"
}

resource "tpf_thing" "gone" {
  name = "gone"
}
`)
	p.mustRun("apply", "-no-color", "-auto-approve")
	p.write(lifecycleHeader + `
removed {
  from = tpf_thing.bare
}

removed {
  from = tpf_thing.kept
  lifecycle {
    destroy = false
  }
}

removed {
  from = tpf_thing.gone
  lifecycle {
    destroy = true
  }
}
`)
	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "plan", out,
		"# tpf_thing.bare will be removed from the Terrane state but will not be destroyed",
		"# tpf_thing.kept[1] will be removed from the Terrane state but will not be destroyed",
		"# tpf_thing.gone will be destroyed",
		"Plan: 0 to add, 0 to change, 1 to destroy, 3 to forget.",
		"Warning: Missing lifecycle from the removed block",
		"After this plan is applied, the resource tpf_thing.kept[0] will not be managed anymore by Terrane.")
	if n := strings.Count(out, "Warning: Resource will be removed from the state"); n != 3 {
		t.Errorf("%d removal warnings, want one per forgotten instance:\n%s", n, out)
	}
	// OpenTofu reads the configuration twice for a plan, and shows the
	// warning each time.
	if n := strings.Count(out, "Warning: Missing lifecycle"); n != 2 {
		t.Errorf("%d missing-lifecycle warnings, want two for the bare block:\n%s", n, out)
	}

	out = p.mustRun("apply", "-no-color", "-auto-approve")
	clitest.AssertContains(t, "apply", out, "Apply complete! Resources: 0 added, 0 changed, 1 destroyed, 3 forgotten.")
	if got := sortedNames(p.objects("tpf_thing")); strings.Join(got, " ") != "bare kept0 kept1" {
		t.Errorf("objects left %v, want the forgotten ones", got)
	}
	if got := p.recordedInstances(); len(got) != 0 {
		t.Errorf("records %v, want none", got)
	}
}
