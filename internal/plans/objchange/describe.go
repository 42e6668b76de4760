package objchange

import (
	"fmt"
	"github.com/terrane/terrane/internal/marks"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// describe renders a value briefly for an error message, in the language's
// own notation, so a provider developer can see what was planned. Long
// collections and strings are cut short: the message names the path, and
// the point is to recognise the value, not to reproduce it.
func describe(v cty.Value) string {
	var b strings.Builder
	writeValue(&b, v, 0)
	return b.String()
}

const (
	describeMaxDepth    = 3
	describeMaxElements = 5
	describeMaxString   = 60
)

func writeValue(b *strings.Builder, v cty.Value, depth int) {
	v, _ = marks.UnmarkDeep(v)
	switch {
	case !v.IsKnown():
		b.WriteString(describeUnknown(v))
		return
	case v.IsNull():
		b.WriteString("null")
		return
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		s := v.AsString()
		if runes := []rune(s); len(runes) > describeMaxString {
			s = string(runes[:describeMaxString]) + "…"
		}
		fmt.Fprintf(b, "%q", s)
	case ty == cty.Number:
		b.WriteString(v.AsBigFloat().Text('g', -1))
	case ty == cty.Bool:
		fmt.Fprint(b, v.True())
	case depth >= describeMaxDepth:
		b.WriteString("…")
	case ty.IsObjectType() || ty.IsMapType():
		writeObject(b, v, depth)
	default:
		writeSequence(b, v, depth)
	}
}

func writeObject(b *strings.Builder, v cty.Value, depth int) {
	m := v.AsValueMap()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteString("{")
	for i, k := range keys {
		if i == describeMaxElements {
			fmt.Fprintf(b, ", …(%d more)", len(keys)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%s = ", k)
		writeValue(b, m[k], depth+1)
	}
	b.WriteString("}")
}

func writeSequence(b *strings.Builder, v cty.Value, depth int) {
	open, closing := "[", "]"
	if v.Type().IsSetType() {
		open, closing = "toset([", "])"
	}
	b.WriteString(open)
	i := 0
	for it := v.ElementIterator(); it.Next(); i++ {
		if i == describeMaxElements {
			fmt.Fprintf(b, ", …(%d more)", v.LengthInt()-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		_, ev := it.Element()
		writeValue(b, ev, depth+1)
	}
	b.WriteString(closing)
}

// describeUnknown names an unknown value with what its refinements promise.
func describeUnknown(v cty.Value) string {
	promises := refinementPromises(v.Range())
	if len(promises) == 0 {
		return "(known after apply)"
	}
	return "(known after apply, " + strings.Join(promises, ", ") + ")"
}

// refinementPromises lists, in words, what a range promises about a value.
func refinementPromises(r cty.ValueRange) []string {
	var out []string
	if r.DefinitelyNotNull() {
		out = append(out, "not null")
	}
	ty := r.TypeConstraint()
	switch {
	case ty == cty.String:
		if p := r.StringPrefix(); p != "" {
			out = append(out, fmt.Sprintf("starting with %q", p))
		}
	case ty == cty.Number:
		if lo, inc := r.NumberLowerBound(); lo.IsKnown() && !lo.AsBigFloat().IsInf() {
			out = append(out, boundWords(">", inc, lo))
		}
		if hi, inc := r.NumberUpperBound(); hi.IsKnown() && !hi.AsBigFloat().IsInf() {
			out = append(out, boundWords("<", inc, hi))
		}
	case ty.IsCollectionType():
		if lo := r.LengthLowerBound(); lo > 0 {
			out = append(out, fmt.Sprintf("at least %d elements", lo))
		}
		if hi := r.LengthUpperBound(); hi < maxLength {
			out = append(out, fmt.Sprintf("at most %d elements", hi))
		}
	}
	return out
}

const maxLength = int(^uint(0) >> 1)

func boundWords(op string, inclusive bool, bound cty.Value) string {
	if inclusive {
		op += "="
	}
	return op + " " + bound.AsBigFloat().Text('g', -1)
}
