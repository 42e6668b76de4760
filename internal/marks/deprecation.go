package marks

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/ctymarks"
)

// Deprecation marks a value read from a module output declared deprecated,
// and every value derived from it. Evaluating an expression takes the
// marks off its result and warns once for each (see lang), as OpenTofu
// does, so that no stored value carries one.
type Deprecation struct {
	// By is the output read, as module.NAME.OUTPUT.
	By string
	// Message is the output's deprecated argument.
	Message string
	// FromRemoteModule is set when the module comes from a source other
	// than a local path (-deprecation=module:local hides those warnings).
	FromRemoteModule bool
}

// Deprecated marks val as derived from the deprecated output cause names;
// a value already marked for that output is left as it is.
func Deprecated(val cty.Value, cause Deprecation) cty.Value {
	for m := range val.Marks() {
		if d, ok := m.(Deprecation); ok && d.By == cause.By {
			return val
		}
	}
	return val.Mark(cause)
}

// DeprecationAt is one deprecation mark found in a value, and where.
type DeprecationAt struct {
	Cause Deprecation
	Path  cty.Path
}

// TakeDeprecations returns val without its deprecation marks, and each of
// them with the path it was found at.
func TakeDeprecations(val cty.Value) (cty.Value, []DeprecationAt) {
	var found []DeprecationAt
	out, _ := val.WrangleMarksDeep(func(mark any, path cty.Path) (ctymarks.WrangleAction, error) {
		cause, ok := mark.(Deprecation)
		if !ok {
			return nil, nil
		}
		found = append(found, DeprecationAt{Cause: cause, Path: append(cty.Path(nil), path...)})
		return ctymarks.WrangleDrop, nil
	})
	return out, found
}
