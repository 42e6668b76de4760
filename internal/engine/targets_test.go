package engine

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
)

func TestTargetsAndExcludes(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "base" {
  name = "base"
}
resource "tpf_thing" "t" {
  count       = 2
  name        = "t${count.index}"
  description = tpf_thing.base.id
}
resource "tpf_thing" "dep" {
  name        = "dep"
  description = tpf_thing.t[0].id
}
resource "tpf_thing" "other" {
  name = "other"
}`)
	target := func(s string) addrs.Targetable {
		addr := mustInstance(t, s)
		if addr.Resource.Key == addrs.NoKey {
			return addr.ContainingResource()
		}
		return addr
	}
	for _, tc := range []struct {
		name string
		opts PlanOpts
		want []string
	}{
		{"target an instance: it and what it depends on", PlanOpts{Targets: []addrs.Targetable{target("tpf_thing.t[0]")}},
			[]string{"tpf_thing.base", "tpf_thing.t[0]"}},
		{"exclude a resource: it and what depends on it left out", PlanOpts{Excludes: []addrs.Targetable{target("tpf_thing.t")}},
			[]string{"tpf_thing.base", "tpf_thing.other"}},
		{"exclude an instance", PlanOpts{Excludes: []addrs.Targetable{target("tpf_thing.other")}},
			[]string{"tpf_thing.base", "tpf_thing.dep", "tpf_thing.t[0]", "tpf_thing.t[1]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, ds := h.engine(nil).Plan(t.Context(), tc.opts)
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			got := slices.Sorted(maps.Keys(actions(plan)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("planned %v, want %v", got, tc.want)
			}
			if !hasWarning(ds, "in effect") {
				t.Error("a partial plan carries no warning that it is partial")
			}
		})
	}
	// Apply a targeted plan; the next full plan creates the rest, and
	// leaves what the targeted apply made alone.
	plan, _ := h.engine(nil).Plan(t.Context(), PlanOpts{Targets: []addrs.Targetable{target("tpf_thing.t[0]")}})
	h.apply(plan)
	full := actions(h.plan(PlanOpts{}))
	for addr, want := range map[string]plans.Action{"tpf_thing.base": plans.NoOp, "tpf_thing.t[0]": plans.NoOp, "tpf_thing.t[1]": plans.Create, "tpf_thing.dep": plans.Create} {
		if full[addr] != want {
			t.Errorf("after the targeted apply, %s is planned as %s, want %s", addr, full[addr], want)
		}
	}
}

func hasWarning(ds diags.Diagnostics, summaryPart string) bool {
	for _, d := range ds {
		if d.Severity == diags.Warning && strings.Contains(d.Summary, summaryPart) {
			return true
		}
	}
	return false
}
