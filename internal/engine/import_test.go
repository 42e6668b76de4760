package engine

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// objectOnlyInCloud creates a tpf_thing, then forgets its record, so the
// object exists only in the provider's cloud; it returns the object's ID.
func (h *harness) objectOnlyInCloud() string {
	h.t.Helper()
	h.config(`resource "tpf_thing" "a" {
  name = "adopted"
}`)
	h.apply(h.plan(PlanOpts{}))
	snap, err := h.store.Load(h.t.Context())
	if err != nil {
		h.t.Fatal(err)
	}
	id := strings.TrimSuffix(filepath.Base(mustGlobOne(h.t, filepath.Join(h.cloud, "tpf_thing", "*.json"))), ".json")
	if _, err := h.store.Commit(h.t.Context(), []recordstore.InstanceChange{dropRecord(snap, snap.State.AllResourceInstances()[0].Addr)}); err != nil {
		h.t.Fatal(err)
	}
	return id
}

func TestImportBlockAdoptsAnExistingObject(t *testing.T) {
	h := newHarness(t)
	id := h.objectOnlyInCloud()
	h.config(`variable "ids" {
  default = { main = "` + id + `" }
}
import {
  for_each = var.ids
  to       = tpf_thing.a[each.key]
  id       = each.value
}
resource "tpf_thing" "a" {
  for_each = var.ids
  name     = "adopted"
}`)
	plan := h.plan(PlanOpts{})
	if len(plan.Changes.Resources) != 1 {
		t.Fatalf("changes %v, want one import", actions(plan))
	}
	c := plan.Changes.Resources[0]
	if c.Addr.String() != `tpf_thing.a["main"]` || c.Importing == nil || c.Importing.ID != id || c.Action != plans.NoOp {
		t.Fatalf("change %s %s importing %+v, want a no-op import of %s", c.Addr, c.Action, c.Importing, id)
	}
	h.apply(plan)
	if inst := h.instances(); !slices.Equal(inst, []string{`tpf_thing.a["main"]`}) {
		t.Fatalf("records after apply: %v", inst)
	}
	if a := actions(h.plan(PlanOpts{})); a[`tpf_thing.a["main"]`] != plans.NoOp {
		t.Fatalf("plan after import: %v", a)
	}
}

// The error is OpenTofu's: it names the address, not the ID, and no
// source range.
func TestImportOfMissingIDNamesAddress(t *testing.T) {
	h := newHarness(t)
	h.config(`import {
  to = tpf_thing.a
  id = "does-not-exist"
}
resource "tpf_thing" "a" {
  name = "x"
}`)
	_, ds := h.engine(nil).Plan(t.Context(), PlanOpts{})
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), `"tpf_thing.a"`) || ds[0].Subject != nil || ds[0].Address != "" {
		t.Fatalf("diagnostics %v, want a sourceless error naming tpf_thing.a", ds)
	}
}

func mustGlobOne(t testing.TB, pattern string) string {
	t.Helper()
	m, _ := filepath.Glob(pattern)
	if len(m) != 1 {
		t.Fatalf("%s matched %v, want one file", pattern, m)
	}
	return m[0]
}

// An import block is evaluated when its own resource plans, after what its
// id refers to: here a data source read during the plan, while other new
// objects with nothing to wait for plan at once.
func TestImportBlockWaitsForWhatItsIDReads(t *testing.T) {
	h := newHarness(t)
	id := h.objectOnlyInCloud()
	h.config(`variable "source_id" {
  default = "` + id + `"
}
data "tpf_thing" "source" {
  id = var.source_id
}
import {
  to = tpf_thing.a
  id = data.tpf_thing.source.id
}
resource "tpf_thing" "a" {
  name = "adopted"
}
resource "tpf_thing" "fresh" {
  count = 8
  name  = "fresh-${count.index}"
}`)
	plan, ds := h.engine(nil).Plan(t.Context(), PlanOpts{})
	if ds.HasErrors() {
		t.Fatalf("plan: %v", ds.Err())
	}
	a := actions(plan)
	var imported *plans.ResourceInstanceChangeSrc
	for _, c := range plan.Changes.Resources {
		if c.Addr.String() == "tpf_thing.a" {
			imported = c
		}
	}
	if imported == nil || imported.Importing == nil || imported.Importing.ID != id || a["tpf_thing.fresh[7]"] != plans.Create {
		t.Fatalf("actions %v, import %+v: want tpf_thing.a imported from %s and the fresh things created", a, imported, id)
	}
}
