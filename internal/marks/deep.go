package marks

import "github.com/zclconf/go-cty/cty"

// Marked reports whether val or any value nested inside it carries a mark
// of any kind. Unlike cty's ContainsMarked and its deep unmarking, it builds
// nothing as it looks (no paths, no sorted attribute names), so the many
// values that carry no mark at all cost only the visit.
func Marked(val cty.Value) bool {
	if val.IsMarked() {
		return true
	}
	if val.IsNull() || !val.IsKnown() {
		return false
	}
	ty := val.Type()
	switch {
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if Marked(val.GetAttr(name)) {
				return true
			}
		}
	case ty.IsListType() || ty.IsTupleType() || ty.IsMapType():
		for it := val.ElementIterator(); it.Next(); {
			if _, elem := it.Element(); Marked(elem) {
				return true
			}
		}
	}
	// A set carries its elements' marks itself; primitive and capsule
	// values nest nothing.
	return false
}

// UnmarkDeep is val.UnmarkDeep(), returning val itself and no marks (a nil
// set) when nothing in it is marked.
func UnmarkDeep(val cty.Value) (cty.Value, cty.ValueMarks) {
	if !Marked(val) {
		return val, nil
	}
	return val.UnmarkDeep()
}

// UnmarkDeepWithPaths is val.UnmarkDeepWithPaths(), returning val itself
// and no paths when nothing in it is marked.
func UnmarkDeepWithPaths(val cty.Value) (cty.Value, []cty.PathValueMarks) {
	if !Marked(val) {
		return val, nil
	}
	return val.UnmarkDeepWithPaths()
}

// MarkWithPaths is val.MarkWithPaths(pvm), returning val itself when there
// is nothing to mark instead of rebuilding it.
func MarkWithPaths(val cty.Value, pvm []cty.PathValueMarks) cty.Value {
	if len(pvm) == 0 {
		return val
	}
	return val.MarkWithPaths(pvm)
}
