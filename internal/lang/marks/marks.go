// Package marks defines the cty value marks Terrane's language layer attaches
// to values — today only Sensitive — and small helpers for testing them deep
// inside collections. Every other package that must hide or carry sensitive
// values (rendering, state, plans) uses these marks rather than its own.
package marks

import "github.com/zclconf/go-cty/cty"

// valueMark is unexported so no other package can forge a mark that compares
// equal to ours by accident.
type valueMark string

func (m valueMark) GoString() string { return "marks." + string(m) }

// Sensitive marks a value whose content must never be shown to the user:
// renderers print "(sensitive value)" in its place and error messages omit it.
const Sensitive = valueMark("Sensitive")

// Contains reports whether val, or any value nested inside it, carries mark.
func Contains(val cty.Value, mark any) bool {
	if val.HasMark(mark) {
		return true
	}
	_, pvm := val.UnmarkDeepWithPaths()
	for _, pv := range pvm {
		if _, ok := pv.Marks[mark]; ok {
			return true
		}
	}
	return false
}
