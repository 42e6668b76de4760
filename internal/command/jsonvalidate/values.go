package jsonvalidate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/lang/marks"
)

// expressionValues describes the value of each reference in expr as it was
// when the expression failed, longest resolvable prefix first, sorted by
// reference. Sensitive values and values not known yet are left out: naming
// them would suggest they caused the problem when usually they did not.
func expressionValues(expr hcl.Expression, ctx *hcl.EvalContext) []ExpressionValue {
	values := []ExpressionValue{}
	if ctx == nil {
		return values
	}
	seen := map[string]bool{}
	for _, traversal := range expr.Variables() {
		// A reference that fails to resolve (already reported) may still
		// have a meaningful prefix, such as the object whose attribute is
		// missing.
		for len(traversal) > 1 {
			val, diags := traversal.TraverseAbs(ctx)
			if diags.HasErrors() {
				traversal = traversal[:len(traversal)-1]
				continue
			}
			name := traversalString(traversal)
			if seen[name] {
				break
			}
			seen[name] = true
			if statement := valueStatement(val); statement != "" {
				values = append(values, ExpressionValue{Traversal: name, Statement: statement})
			}
			break
		}
	}
	sort.Slice(values, func(i, j int) bool { return values[i].Traversal < values[j].Traversal })
	return values
}

func valueStatement(val cty.Value) string {
	switch {
	case val.HasMark(marks.Sensitive):
		return ""
	case !val.IsKnown():
		if val.Type() == cty.DynamicPseudoType {
			return ""
		}
		return "is a " + val.Type().FriendlyName()
	default:
		return "is " + compactValue(val)
	}
}

// compactValue is a one-line summary of a value: primitives in full,
// collections and objects by their size, never their element values (which
// might be sensitive one level down).
func compactValue(val cty.Value) string {
	ty := val.Type()
	switch {
	case val.HasMark(marks.Sensitive):
		return "(sensitive value)"
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
		return countedName(ty.FriendlyName(), val.LengthInt(), "element")
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

func countedName(typeName string, n int, noun string) string {
	switch n {
	case 0:
		return "empty " + typeName
	case 1:
		return fmt.Sprintf("%s with 1 %s", typeName, noun)
	default:
		return fmt.Sprintf("%s with %d %ss", typeName, n, noun)
	}
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
