package ui

import (
	"encoding/json"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
)

// DiagnosticDifferenceJSON is what a failed condition of the form A == B
// compared, as OpenTofu's diagnostics carry it ("difference"): A before, B
// after, in the layout of a plan's change.
type DiagnosticDifferenceJSON struct {
	Before          json.RawMessage `json:"before,omitempty"`
	After           json.RawMessage `json:"after,omitempty"`
	AfterUnknown    json.RawMessage `json:"after_unknown,omitempty"`
	BeforeSensitive json.RawMessage `json:"before_sensitive,omitempty"`
	AfterSensitive  json.RawMessage `json:"after_sensitive,omitempty"`

	// before and after are the values, for the human rendering.
	before, after cty.Value
}

// diagnosticDifference is the difference of a diagnostic raised by an
// equality comparison, or nil: OpenTofu shows it under the values of the
// expression's references. A left side not wholly known, or either side
// ephemeral, has none.
func diagnosticDifference(d diags.Diagnostic) *DiagnosticDifferenceJSON {
	bin, ok := d.Expression.(*hclsyntax.BinaryOpExpr)
	if !ok || bin.Op != hclsyntax.OpEqual || d.EvalContext == nil {
		return nil
	}
	lhs, _ := bin.LHS.Value(d.EvalContext)
	rhs, _ := bin.RHS.Value(d.EvalContext)
	if marks.Contains(lhs, marks.Ephemeral) || marks.Contains(rhs, marks.Ephemeral) {
		return nil
	}
	out := &DiagnosticDifferenceJSON{before: lhs, after: rhs}
	before, beforeMarks := lhs.UnmarkDeepWithPaths()
	after, afterMarks := rhs.UnmarkDeepWithPaths()
	var err error
	if out.BeforeSensitive, err = marshalCty(sensitiveAsBool(before, nil, beforeMarks)); err != nil {
		return nil
	}
	if out.AfterSensitive, err = marshalCty(sensitiveAsBool(after, nil, afterMarks)); err != nil {
		return nil
	}
	if out.Before, err = ctyjson.Marshal(before, before.Type()); err != nil {
		return nil
	}
	unknown := cty.False
	known := after
	if !after.IsWhollyKnown() {
		known = cty.UnknownAsNull(after)
		unknown = unknownAsBool(after)
	}
	if !known.IsNull() {
		if out.After, err = ctyjson.Marshal(known, known.Type()); err != nil {
			return nil
		}
	}
	if out.AfterUnknown, err = marshalCty(unknown); err != nil {
		return nil
	}
	return out
}

func marshalCty(v cty.Value) (json.RawMessage, error) {
	return ctyjson.Marshal(v, v.Type())
}

// sensitiveAsBool mirrors val with true where it is sensitive.
func sensitiveAsBool(val cty.Value, path cty.Path, pvms []cty.PathValueMarks) cty.Value {
	for _, pvm := range pvms {
		if _, ok := pvm.Marks[marks.Sensitive]; ok && path.Equals(pvm.Path) {
			return cty.True
		}
	}
	ty := val.Type()
	switch {
	case val.IsNull(), ty.IsPrimitiveType(), ty.Equals(cty.DynamicPseudoType):
		return cty.False
	case !val.IsKnown():
		if ty.IsObjectType() || ty.IsMapType() {
			return cty.EmptyObjectVal
		}
		return cty.EmptyTupleVal
	case ty.IsListType(), ty.IsTupleType(), ty.IsSetType():
		var elems []cty.Value
		for it := val.ElementIterator(); it.Next(); {
			key, elem := it.Element()
			elems = append(elems, sensitiveAsBool(elem, append(path, cty.IndexStep{Key: key}), pvms))
		}
		return cty.TupleVal(elems)
	}
	attrs := map[string]cty.Value{}
	for it := val.ElementIterator(); it.Next(); {
		key, elem := it.Element()
		step := cty.PathStep(cty.IndexStep{Key: key})
		if ty.IsObjectType() {
			step = cty.GetAttrStep{Name: key.AsString()}
		}
		if s := sensitiveAsBool(elem, append(path, step), pvms); !s.RawEquals(cty.False) {
			attrs[key.AsString()] = s
		}
	}
	return cty.ObjectVal(attrs)
}

// unknownAsBool mirrors val with true where it is unknown.
func unknownAsBool(val cty.Value) cty.Value {
	ty := val.Type()
	switch {
	case !val.IsKnown():
		return cty.True
	case val.IsNull(), ty.IsPrimitiveType():
		return cty.False
	case ty.IsListType(), ty.IsTupleType(), ty.IsSetType():
		var elems []cty.Value
		for it := val.ElementIterator(); it.Next(); {
			_, elem := it.Element()
			elems = append(elems, unknownAsBool(elem))
		}
		return cty.TupleVal(elems)
	}
	attrs := map[string]cty.Value{}
	for it := val.ElementIterator(); it.Next(); {
		key, elem := it.Element()
		if u := unknownAsBool(elem); !u.RawEquals(cty.False) {
			attrs[key.AsString()] = u
		}
	}
	return cty.ObjectVal(attrs)
}

// writeDifference writes a difference under a snippet's values as OpenTofu
// does: the two sides rendered as an output's change would be.
func writeDifference(w *strings.Builder, d *DiagnosticJSON, color bool) {
	if d.Difference == nil {
		return
	}
	node := diffOutput(&plans.OutputChange{Change: plans.Change{Before: d.Difference.before, After: d.Difference.after}})
	out := "    " + node.render(0, renderOpts{pal: palette{enabled: color}})
	w.WriteString(applyColorMarkup("    [dark_gray]├────────────────[reset]\n", color))
	w.WriteString(applyColorMarkup("    [dark_gray]│[reset] [bold]Diff: [reset]", color))
	for _, line := range strings.Split(out, "\n") {
		w.WriteString(applyColorMarkup("\n    [dark_gray]│[reset] ", color))
		w.WriteString(line)
	}
	w.WriteString("\n")
}
