package engine

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// TestDataSourceResultsAreRecorded follows a data source's record through
// applies: written with the value read, left alone (same generation) when
// a later read finds the same value, rewritten when a refresh finds it
// changed,
// removed with its block and, on destroy, with everything else.
func TestDataSourceResultsAreRecorded(t *testing.T) {
	h := newHarness(t)
	thing := `resource "tpf_thing" "x" {
  name = "NAME"
}
`
	reader := `data "tpf_thing" "read" {
  id = tpf_thing.x.id
}
`
	h.config(thing + reader)
	h.apply(h.plan(PlanOpts{}))
	if got := h.recorded("data.tpf_thing.read", "name"); got != "NAME" {
		t.Fatalf("the data source's record has name %q, want the value read", got)
	}
	first := h.recordGeneration("data.tpf_thing.read")

	h.config(thing + reader + `resource "tpf_thing" "other" {
  name = "other"
}
`)
	h.apply(h.plan(PlanOpts{}))
	if again := h.recordGeneration("data.tpf_thing.read"); again != first {
		t.Errorf("reading the same value rewrote the data source's record (generation %s, then %s)", first, again)
	}

	h.driftCloud("NAME", "name", "RENAMED")
	h.apply(h.plan(PlanOpts{Mode: plans.RefreshOnlyMode}))
	if got := h.recorded("data.tpf_thing.read", "name"); got != "RENAMED" {
		t.Errorf("after the object changed, the data source's record has name %q, want RENAMED", got)
	}

	h.config(`resource "tpf_thing" "x" {
  name = "RENAMED"
}
resource "tpf_thing" "other" {
  name = "other, renamed"
}
`)
	h.apply(h.plan(PlanOpts{}))
	if inst := h.instance("data.tpf_thing.read"); inst != nil {
		t.Errorf("the data block is gone but its record stays: %+v", inst.Current)
	}

	h.config(`resource "tpf_thing" "x" {
  name = "RENAMED"
}
` + reader)
	h.apply(h.plan(PlanOpts{}))
	if h.instance("data.tpf_thing.read") == nil {
		t.Fatal("the data block is back but its result was not recorded")
	}
	h.apply(h.plan(PlanOpts{Mode: plans.DestroyMode}))
	if left := h.instances(); len(left) != 0 {
		t.Errorf("records left after destroy: %v", left)
	}
}

// recordGeneration is the content generation of the record at addr.
func (h *harness) recordGeneration(addr string) string {
	h.t.Helper()
	snap, err := h.store.Load(h.t.Context())
	if err != nil {
		h.t.Fatal(err)
	}
	version, ok := snap.InstanceVersions[addr]
	if !ok {
		h.t.Fatalf("%s has no record", addr)
	}
	return version.Generation
}

// thingAndReader is a managed object and a data source reading it.
const thingAndReader = `resource "tpf_thing" "x" {
  name = "NAME"
}
data "tpf_thing" "read" {
  id = tpf_thing.x.id
}
`

// TestDataSourceRecordChangedSinceThePlan applies a plan after another run
// recorded a different result for one of its data sources: the apply
// works with its plan's result, not the record, so the plan is not stale,
// and the plan's result is recorded.
func TestDataSourceRecordChangedSinceThePlan(t *testing.T) {
	h := newHarness(t)
	body := thingAndReader + `resource "tpf_thing" "y" {
  name = "Y"
}
`
	h.config(body)
	h.apply(h.plan(PlanOpts{}))
	h.config(strings.Replace(body, `"Y"`, `"Y2"`, 1))
	plan := h.plan(PlanOpts{})

	snap, err := h.store.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	addr := mustInstance(t, "data.tpf_thing.read")
	recorded := snap.State.ResourceInstance(addr).DeepCopy()
	recorded.Current.AttrsJSON = []byte(strings.Replace(string(recorded.Current.AttrsJSON), `"NAME"`, `"ANOTHER RUN"`, 1))
	prior := snap.InstanceVersions[addr.String()]
	provider := snap.State.Resource(addr.ContainingResource()).ProviderConfig
	if _, err := h.store.Commit(t.Context(), []recordstore.InstanceChange{{Addr: addr, ProviderConfig: provider, Instance: recorded, Prior: &prior}}); err != nil {
		t.Fatal(err)
	}

	h.apply(plan)
	if got := h.recorded("data.tpf_thing.read", "name"); got != "NAME" {
		t.Errorf("after the apply the data source's record has name %q, want the value it read", got)
	}
}

// TestApplyUsesTheDataSourceResultsOfItsPlan applies a plan whose data
// source was read while planning, after the object it reads changed: as
// in Terraform, the apply works with the plan's result rather than
// reading again, and records that.
func TestApplyUsesTheDataSourceResultsOfItsPlan(t *testing.T) {
	h := newHarness(t)
	body := thingAndReader + `resource "tpf_thing" "y" {
  name = data.tpf_thing.read.name
  description = "DESCRIPTION"
}
`
	h.config(body)
	h.apply(h.plan(PlanOpts{}))
	h.config(strings.Replace(body, `"DESCRIPTION"`, `"CHANGED"`, 1))
	plan := h.plan(PlanOpts{})
	h.driftCloud("NAME", "name", "RENAMED OUTSIDE")
	h.apply(plan)
	if got := h.recorded("data.tpf_thing.read", "name"); got != "NAME" {
		t.Errorf("the data source's record has name %q, want the plan's result NAME", got)
	}
	if got := h.recorded("tpf_thing.y", "name"); got != "NAME" {
		t.Errorf("tpf_thing.y was applied with name %q, want the plan's NAME", got)
	}
}
