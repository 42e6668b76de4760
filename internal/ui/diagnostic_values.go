package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/marks"
)

// This file describes the values of a failing expression's references,
// the "│ var.x is ..." lines under a diagnostic's snippet.

// expressionValues describes, for each reference in the expression d came
// from, the value it had: of the longest prefix of the reference that
// resolves, once per prefix, sorted by reference.
func expressionValues(d diags.Diagnostic) []ExpressionValueJSON {
	values := []ExpressionValueJSON{}
	if d.Expression == nil || d.EvalContext == nil {
		return values
	}
	includeUnknown := d.CausedByUnknownValues()
	includeConfidential := d.CausedByConfidentialValues()
	seen := map[string]bool{}
	for _, traversal := range d.Expression.Variables() {
		// Evaluation failed, so the whole reference may not resolve;
		// shorter and shorter prefixes are tried, down to the root.
		for ; len(traversal) >= 1; traversal = traversal[:len(traversal)-1] {
			val, hd := traversal.TraverseAbs(d.EvalContext)
			if hd.HasErrors() {
				continue
			}
			name := traversalString(traversal)
			if seen[name] {
				break
			}
			if statement := valueStatement(val, includeUnknown, includeConfidential); statement != "" {
				values = append(values, ExpressionValueJSON{Traversal: name, Statement: statement})
				seen[name] = true
			}
			break
		}
	}
	sort.Slice(values, func(i, j int) bool { return values[i].Traversal < values[j].Traversal })
	return values
}

// valueStatement says what a reference held. Unknown, sensitive and
// ephemeral values are mentioned only when the diagnostic says they caused
// it: otherwise readers take them for the cause when they were not.
func valueStatement(val cty.Value, includeUnknown, includeConfidential bool) string {
	switch {
	case val.HasMark(marks.Sensitive):
		if !includeConfidential {
			return ""
		}
		return "has a sensitive value"
	case val.HasMark(marks.Ephemeral):
		if !includeConfidential {
			return ""
		}
		return "has an ephemeral value"
	case !val.IsKnown():
		return unknownStatement(val, includeUnknown)
	default:
		return "is " + compactValue(val)
	}
}

func unknownStatement(val cty.Value, includeUnknown bool) string {
	ty := val.Type()
	if !includeUnknown {
		if ty == cty.DynamicPseudoType {
			return ""
		}
		return "is a " + ty.FriendlyName()
	}
	if ty == cty.DynamicPseudoType {
		return "will be known only after apply"
	}
	if !ty.IsCollectionType() {
		return fmt.Sprintf("is a %s, known only after apply", ty.FriendlyName())
	}
	// A collection's length may be known to lie within bounds.
	const largest = 1024 // beyond this a bound says nothing useful
	rng := val.Range()
	lo, hi := rng.LengthLowerBound(), rng.LengthUpperBound()
	switch {
	case lo == hi:
		return fmt.Sprintf("is a %s of length %d, known only after apply", ty.FriendlyName(), lo)
	case lo != 0 && hi <= largest:
		return fmt.Sprintf("is a %s with between %d and %d elements, known only after apply", ty.FriendlyName(), lo, hi)
	case lo != 0:
		return fmt.Sprintf("is a %s with at least %d elements, known only after apply", ty.FriendlyName(), lo)
	case hi <= largest:
		return fmt.Sprintf("is a %s with up to %d elements, known only after apply", ty.FriendlyName(), hi)
	default:
		return fmt.Sprintf("is a %s, known only after apply", ty.FriendlyName())
	}
}

// compactValue is a one-line summary of a value: primitives in full,
// collections and objects by their size, never their elements' values
// (which might be sensitive one level down).
func compactValue(val cty.Value) string {
	switch {
	case val.HasMark(marks.Sensitive):
		return "(sensitive value)"
	case val.HasMark(marks.Ephemeral):
		return "(ephemeral value)"
	}
	val, _ = val.Unmark()
	ty := val.Type()
	switch {
	case val.IsNull():
		return "null"
	case !val.IsKnown():
		return "(not yet known)"
	case ty == cty.Bool:
		if val.True() {
			return "true"
		}
		return "false"
	case ty == cty.Number:
		return val.AsBigFloat().Text('g', 10)
	case ty == cty.String:
		return fmt.Sprintf("%q", val.AsString())
	case ty.IsCollectionType() || ty.IsTupleType():
		switch n := val.LengthInt(); n {
		case 0:
			return "empty " + ty.FriendlyName()
		case 1:
			return ty.FriendlyName() + " with 1 element"
		default:
			return fmt.Sprintf("%s with %d elements", ty.FriendlyName(), n)
		}
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		switch len(attrs) {
		case 0:
			return "object with no attributes"
		case 1:
			for name := range attrs {
				return fmt.Sprintf("object with 1 attribute %q", name)
			}
		}
		return fmt.Sprintf("object with %d attributes", len(attrs))
	}
	return ty.FriendlyName()
}

// traversalString prints a reference as written: var.a.b[0]["k"], with
// complex index keys elided.
func traversalString(traversal hcl.Traversal) string {
	var b strings.Builder
	for _, step := range traversal {
		switch step := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(step.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + step.Name)
		case hcl.TraverseIndex:
			key := "..."
			if step.Key.Type().IsPrimitiveType() {
				key = compactValue(step.Key)
			}
			b.WriteString("[" + key + "]")
		}
	}
	return b.String()
}
