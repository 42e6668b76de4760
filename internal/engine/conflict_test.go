package engine

import (
	"errors"
	"slices"
	"testing"

	"github.com/terrane/terrane/internal/diags"
)

// TestConflictIsTyped checks that losing to another run is reported as a
// ConflictError a command can find with errors.As and retry on, and that
// other failures are not.
func TestConflictIsTyped(t *testing.T) {
	h := newHarness(t)
	h.config(`resource "tpf_thing" "x" {
  name        = "x"
  description = "one"
}`)
	h.apply(h.plan(PlanOpts{}))
	h.config(`resource "tpf_thing" "x" {
  name        = "x"
  description = "two"
}`)
	first, second := h.plan(PlanOpts{}), h.plan(PlanOpts{})
	h.apply(first)
	ds := h.engine(nil).Apply(t.Context(), second)
	var conflict *ConflictError
	if !errors.As(Conflict(ds), &conflict) {
		t.Fatalf("applying a plan another run overtook: %v, want a ConflictError", ds.Err())
	}
	if !slices.Equal(conflict.Stale, []string{"tpf_thing.x"}) || !conflict.OnlyConflicts {
		t.Errorf("conflict = %+v, want tpf_thing.x stale and nothing else wrong", conflict)
	}

	mixed := append(ds, diags.Errorf("Provider failed", "Something else went wrong."))
	if !errors.As(Conflict(mixed), &conflict) || conflict.OnlyConflicts {
		t.Errorf("a conflict alongside another error: %+v, want OnlyConflicts false", conflict)
	}
	if err := Conflict(diags.Diagnostics{diags.Errorf("Provider failed", "Something went wrong.")}); err != nil {
		t.Errorf("an ordinary error reported as conflict: %v", err)
	}
}
