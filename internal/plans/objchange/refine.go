package objchange

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// weakenedPromises lists, in words, what the planned range promised about
// an unknown value that the later range no longer promises. A plan made
// again during apply may narrow an unknown (promise more) but not widen it:
// whatever relied on the first promise — a condition, a comparison, a
// resource planned against it — would no longer hold.
func weakenedPromises(planned, later cty.ValueRange) []string {
	var broken []string
	if planned.DefinitelyNotNull() && !later.DefinitelyNotNull() {
		broken = append(broken, "not null")
	}
	ty := planned.TypeConstraint()
	if !later.TypeConstraint().Equals(ty) {
		return broken
	}
	switch {
	case ty == cty.String:
		if prefix := planned.StringPrefix(); !strings.HasPrefix(later.StringPrefix(), prefix) {
			broken = append(broken, fmt.Sprintf("starting with %q", prefix))
		}
	case ty == cty.Number:
		broken = append(broken, weakenedBounds(planned, later)...)
	case ty.IsCollectionType():
		if lo := planned.LengthLowerBound(); later.LengthLowerBound() < lo {
			broken = append(broken, fmt.Sprintf("at least %d elements", lo))
		}
		if hi := planned.LengthUpperBound(); later.LengthUpperBound() > hi {
			broken = append(broken, fmt.Sprintf("at most %d elements", hi))
		}
	}
	return broken
}

func weakenedBounds(planned, later cty.ValueRange) []string {
	var broken []string
	plannedLo, plannedLoInc := planned.NumberLowerBound()
	laterLo, laterLoInc := later.NumberLowerBound()
	if looser(plannedLo, plannedLoInc, laterLo, laterLoInc, -1) {
		broken = append(broken, boundWords(">", plannedLoInc, plannedLo))
	}
	plannedHi, plannedHiInc := planned.NumberUpperBound()
	laterHi, laterHiInc := later.NumberUpperBound()
	if looser(plannedHi, plannedHiInc, laterHi, laterHiInc, +1) {
		broken = append(broken, boundWords("<", plannedHiInc, plannedHi))
	}
	return broken
}

// looser reports whether the later bound admits a number the planned bound
// excludes; direction is -1 for lower bounds and +1 for upper bounds.
func looser(planned cty.Value, plannedInc bool, later cty.Value, laterInc bool, direction int) bool {
	if !planned.IsKnown() || planned.AsBigFloat().IsInf() {
		return false // the plan promised no bound
	}
	if !later.IsKnown() {
		return true
	}
	cmp := later.AsBigFloat().Cmp(planned.AsBigFloat())
	if cmp == direction {
		return true
	}
	return cmp == 0 && laterInc && !plannedInc
}

func joinWords(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
