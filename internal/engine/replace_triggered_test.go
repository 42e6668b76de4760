package engine

import (
	"fmt"
	"testing"

	"github.com/terrane/terrane/internal/plans"
)

// TestReplaceTriggeredByFollowsPlannedChanges: an instance whose
// replace_triggered_by names a resource is replaced when that resource is
// planned to be updated, and left alone when nothing is planned for it.
func TestReplaceTriggeredByFollowsPlannedChanges(t *testing.T) {
	h := newHarness(t)
	body := func(description string) string {
		return fmt.Sprintf(`
resource "tpf_thing" "source" {
  name        = "source"
  description = %q
}
resource "tpf_thing" "dependent" {
  name = "dependent"
  lifecycle {
    replace_triggered_by = [tpf_thing.source]
  }
}`, description)
	}
	h.config(body("first"))
	h.apply(h.plan(PlanOpts{}))

	if got := actions(h.plan(PlanOpts{})); got["tpf_thing.source"] != plans.NoOp || got["tpf_thing.dependent"] != plans.NoOp {
		t.Fatalf("with nothing changed the plan is %v, want no-ops", got)
	}
	h.config(body("second"))
	plan := h.plan(PlanOpts{})
	if got := actions(plan); got["tpf_thing.source"] != plans.Update || !got["tpf_thing.dependent"].IsReplace() {
		t.Fatalf("with the source updated the plan is %v, want the source updated and the dependent replaced", got)
	}
	for _, c := range plan.Changes.Resources {
		if c.Addr.String() == "tpf_thing.dependent" && c.ActionReason != plans.ReplaceByTriggers {
			t.Errorf("the dependent is replaced because of %s, want replace_triggered_by", c.ActionReason)
		}
	}
}
