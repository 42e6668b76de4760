package engine

import (
	"testing"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// TestDataSourcesOnlyInStateAreDropped checks that data source results in
// state (as a migrated Terraform state has them) whose blocks are gone do
// not stop a plan, even when their provider is gone too and even when the
// data block is still there with fewer instances.
func TestDataSourcesOnlyInStateAreDropped(t *testing.T) {
	h := newHarness(t)
	h.config(`
data "tpf_thing" "kept" {
  count = 1
  id    = tpf_thing.x.id
}
resource "tpf_thing" "x" {
  name = "x"
}`)
	gone := addrs.Provider{Hostname: "registry.terraform.io", Namespace: "example", Type: "gone"}
	seed := func(addr string, provider addrs.Provider) recordstore.InstanceChange {
		return recordstore.InstanceChange{
			Addr:           mustInstance(t, addr),
			ProviderConfig: addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: provider},
			Instance:       &states.ResourceInstance{Current: &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"old"}`)}},
		}
	}
	tpf := addrs.Provider{Hostname: "registry.terraform.io", Namespace: "terrane", Type: "tpf"}
	if _, err := h.store.EnsureWorkspace(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := h.store.Commit(t.Context(), []recordstore.InstanceChange{
		seed("data.gone_thing.removed", gone),
		seed("data.tpf_thing.removed", tpf),
		seed("module.old.data.tpf_thing.removed", tpf),
		seed(`data.tpf_thing.kept[5]`, tpf),
	}); err != nil {
		t.Fatal(err)
	}
	plan, ds := h.engine(nil).Plan(t.Context(), PlanOpts{})
	if ds.HasErrors() {
		t.Fatalf("plan with data sources only in state: %s", ds.Err())
	}
	got := actions(plan)
	if len(got) != 2 || got["tpf_thing.x"] != plans.Create || got["data.tpf_thing.kept[0]"] != plans.Read {
		t.Fatalf("plan has changes %v, want only the create of tpf_thing.x and the read of data.tpf_thing.kept[0]", got)
	}
	h.apply(plan)
}
