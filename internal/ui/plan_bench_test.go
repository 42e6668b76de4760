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
	want := fmt.Sprintf("      ~ ports = [\n            # (%d unchanged elements hidden)\n            %d,\n          ~ %d -> -1,\n            %d,\n            # (%d unchanged elements hidden)\n        ]\n",
		length/2-1, length/2-1, length/2, length/2+1, length/2-2)
	if !strings.Contains(got, want) {
		t.Errorf("the one changed element is not shown in its context:\n%s", got)
	}
}

func TestPairSequences(t *testing.T) {
	values := func(texts ...string) []cty.Value { return stringValues(texts) }
	for _, tc := range []struct {
		name          string
		before, after []cty.Value
		pairChanged   bool
		want          string
	}{
		{"insertion", values("a", "b"), values("a", "c", "b"), true, "0:0 -:1 1:2"},
		{"replacement paired", values("a", "x", "b"), values("a", "y", "b"), true, "0:0 1:1 2:2"},
		{"replacement unpaired", values("a", "x", "b"), values("a", "y", "b"), false, "0:0 1:- -:1 2:2"},
		{"all removed", values("a", "b"), nil, true, "0:- 1:-"},
		{"all added", nil, values("a"), true, "-:0"},
		{"moved element", values("a", "b", "c"), values("c", "a", "b"), true, "-:0 0:1 1:2 2:-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, pair := range pairSequences(tc.before, tc.after, tc.pairChanged) {
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
