package marks

import "github.com/zclconf/go-cty/cty"

// valueMark is unexported so no other package can forge a mark that compares
// equal to ours by accident.
type valueMark string

func (m valueMark) GoString() string { return "marks." + string(m) }

// Sensitive marks a value whose content must never be shown to the user:
// renderers print "(sensitive value)" in its place and error messages omit it.
const Sensitive = valueMark("Sensitive")

// Ephemeral marks a value that exists only while one run lasts: an
// ephemeral input variable or output, the result of an ephemeral resource,
// and everything computed from them. Such a value may reach only places
// that are not persisted (provider configurations, write-only attributes,
// other ephemeral values) and is never written to a plan, a record, a log
// or an output stream.
const Ephemeral = valueMark("Ephemeral")

// Contains reports whether val, or any value nested inside it, carries mark.
func Contains(val cty.Value, mark any) bool {
	if val.HasMark(mark) {
		return true
	}
	_, pvm := UnmarkDeepWithPaths(val)
	for _, pv := range pvm {
		if _, ok := pv.Marks[mark]; ok {
			return true
		}
	}
	return false
}

// StoredEphemeral returns the paths within val where a value marked
// ephemeral is not null: what writing val to a plan or a record would
// persist. Encoders refuse a value with any, so that an ephemeral value
// that slipped past the language's checks still never reaches storage. A
// null marked ephemeral (a write-only attribute's place in a planned
// value) stores nothing and is allowed.
func StoredEphemeral(val cty.Value) []cty.Path {
	unmarked, pvm := UnmarkDeepWithPaths(val)
	var out []cty.Path
	for _, pv := range pvm {
		if _, ok := pv.Marks[Ephemeral]; !ok {
			continue
		}
		if at, err := pv.Path.Apply(unmarked); err != nil || !at.IsNull() {
			out = append(out, pv.Path)
		}
	}
	return out
}
