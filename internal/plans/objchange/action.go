package objchange

import (
	"github.com/terrane/terrane/internal/marks"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/plans"
)

// ActionForChange is the action that turns prior into planned, before any
// replacement is decided: NoOp when both are null or equal, Create from
// null, Delete to null, and Update otherwise. A planned value with unknowns
// is an Update, since it cannot be shown equal; so is a change only in
// which parts are sensitive, which must be written to state.
func ActionForChange(prior, planned cty.Value) plans.Action {
	switch {
	case prior.IsNull() && planned.IsNull():
		return plans.NoOp
	case prior.IsNull():
		return plans.Create
	case planned.IsNull():
		return plans.Delete
	}
	unmarkedPrior, priorMarks := marks.UnmarkDeepWithPaths(prior)
	unmarkedPlanned, plannedMarks := marks.UnmarkDeepWithPaths(planned)
	if eq := unmarkedPrior.Equals(unmarkedPlanned); !eq.IsKnown() || eq.False() {
		return plans.Update
	}
	if !SameMarkedPaths(priorMarks, plannedMarks) {
		return plans.Update
	}
	return plans.NoOp
}

// SameMarkedPaths reports whether two values carry the same marks at the
// same paths, in whatever order they were listed.
func SameMarkedPaths(a, b []cty.PathValueMarks) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		found := false
		for _, y := range b {
			if x.Path.Equals(y.Path) && x.Marks.Equal(y.Marks) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
