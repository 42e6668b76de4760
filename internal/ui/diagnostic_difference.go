package ui

import (
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang/marks"
	"github.com/terrane/terrane/internal/plans"
)

// valueDifference is what the two sides of a failed equality test held,
// for a diagnostic about the condition `a == b`: OpenTofu shows how they
// differ, as a plan shows a changed output.
type valueDifference struct {
	left, right cty.Value
}

// differenceOf evaluates the sides of the equality d's expression tests;
// nil when it is no equality, was not evaluated, holds ephemeral values
// (which must not be shown) or a left side not known yet.
func differenceOf(d diags.Diagnostic) *valueDifference {
	eq, ok := d.Expression.(*hclsyntax.BinaryOpExpr)
	if !ok || eq.Op != hclsyntax.OpEqual || d.EvalContext == nil {
		return nil
	}
	left, _ := eq.LHS.Value(d.EvalContext)
	right, _ := eq.RHS.Value(d.EvalContext)
	if marks.Contains(left, marks.Ephemeral) || marks.Contains(right, marks.Ephemeral) {
		return nil
	}
	if plain, _ := left.UnmarkDeep(); !plain.IsWhollyKnown() {
		// OpenTofu cannot write an unknown left side as the JSON it
		// renders the difference from, and shows none.
		return nil
	}
	return &valueDifference{left: left, right: right}
}

// writeDifference writes the difference under a diagnostic's snippet, as
// OpenTofu's format.Diagnostic does: the change from the left to the
// right side, rendered as a plan renders an output change.
func writeDifference(w *strings.Builder, diff *valueDifference, c func(string) string, color bool) {
	change := &plans.OutputChange{Change: plans.Change{Action: plans.Update, Before: diff.left, After: diff.right}}
	rendered := "    " + diffOutput(change).render(0, renderOpts{pal: palette{enabled: color}})
	w.WriteString(c("    [dark_gray]├────────────────[reset]\n"))
	w.WriteString(c("    [dark_gray]│[reset] [bold]Diff: [reset]"))
	for _, line := range strings.Split(rendered, "\n") {
		w.WriteString(c("\n    [dark_gray]│[reset] ") + line)
	}
	w.WriteString("\n")
}
