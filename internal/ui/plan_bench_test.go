package ui

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/plans"
)

// BenchmarkRenderPlan renders a plan creating many resource instances with
// every kind of attribute and block.
func BenchmarkRenderPlan(b *testing.B) {
	for _, count := range []int{100, 1000} {
		b.Run(fmt.Sprint(count), func(b *testing.B) {
			t := &testing.T{}
			plan := &plans.Plan{}
			after := fullThing(t, cty.UnknownVal(cty.String))
			for i := range count {
				plan.Changes.Resources = append(plan.Changes.Resources, resourceChange(t, fmt.Sprintf("tpf_thing.web[%d]", i), plans.Create, nullThing, after))
			}
			schemas := testSchemas()
			b.ResetTimer()
			for b.Loop() {
				RenderPlan(io.Discard, plan, schemas, PlanOptions{})
			}
		})
	}
}

func TestRenderPlanLongListWithOneChange(t *testing.T) {
	const length = 50000
	before := make([]cty.Value, length)
	after := make([]cty.Value, length)
	for i := range length {
		before[i] = cty.NumberIntVal(int64(i))
		after[i] = before[i]
	}
	after[length/2] = cty.NumberIntVal(-1)
	plan := planOf(resourceChange(t, "tpf_thing.big", plans.Update,
		thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("big"), "ports": cty.ListVal(before)}),
		thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("big"), "ports": cty.ListVal(after)})))
	got := renderForTest(t, plan, PlanOptions{})
	want := fmt.Sprintf("      ~ ports = [\n            # (%d unchanged elements hidden)\n            %d,\n          - %d,\n          + -1,\n            %d,\n            # (%d unchanged elements hidden)\n        ]\n",
		length/2-1, length/2-1, length/2, length/2+1, length/2-2)
	if !strings.Contains(got, want) {
		t.Errorf("the one changed element is not shown in its context:\n%s", got)
	}
}

// TestPairSequences pairs sequences as OpenTofu's collections.ProcessSlice
// does: along the longest common subsequence, a changed element diffed
// with the one that took its place only when the pairing rule says so.
func TestPairSequences(t *testing.T) {
	values := func(texts ...string) []cty.Value { return stringValues(texts) }
	objects := func(names ...string) []cty.Value {
		out := make([]cty.Value, len(names))
		for i, name := range names {
			out[i] = cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name)})
		}
		return out
	}
	strs, objs := typedListPairing(cty.String), typedListPairing(cty.Object(map[string]cty.Type{"name": cty.String}))
	for _, tc := range []struct {
		name          string
		before, after []cty.Value
		shouldPair    pairing
		// want lists before:after index pairs; an index past the end of
		// its side means that side has no element, as in ProcessSlice.
		want string
	}{
		{"insertion", values("a", "b"), values("a", "c", "b"), strs, "0:0 -:1 1:2"},
		{"strings in a list are not paired", values("a", "x", "b"), values("a", "y", "b"), strs, "0:0 1:- -:1 2:2"},
		{"objects in a list are paired", objects("a", "x", "b"), objects("a", "y", "b"), objs, "0:0 1:1 2:2"},
		{"multi-line strings sharing a line are paired", values("a", "l1\nl2", "b"), values("a", "l1\nl3", "b"), strs, "0:0 1:1 2:2"},
		{"multi-line strings sharing no line are not", values("l1\nl2"), values("l3\nl4"), strs, "0:- -:0"},
		{"lines of a string are never paired", values("a", "x", "b"), values("a", "y", "b"), neverPair, "0:0 1:- -:1 2:2"},
		{"all removed", values("a", "b"), nil, strs, "0:- 1:-"},
		{"all added", nil, values("a"), strs, "-:0"},
		{"moved element", values("a", "b", "c"), values("c", "a", "b"), strs, "-:0 0:1 1:2 2:-"},
		// ProcessSlice's second loop pairs an added element with the next
		// before element even when that one is common: an object inserted
		// before another shows as that one changing, then re-added.
		{"object added before a common one", objects("a"), objects("x", "a"), objs, "0:0 1:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, pair := range pairSequences(tc.before, tc.after, tc.shouldPair) {
				side := func(i int) string {
					if i < 0 {
						return "-"
					}
					return fmt.Sprint(i)
				}
				got = append(got, side(pair[0])+":"+side(pair[1]))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("pairs %s, want %s", strings.Join(got, " "), tc.want)
			}
		})
	}
}
