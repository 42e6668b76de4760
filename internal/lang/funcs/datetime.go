package funcs

import (
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// MakeTimestampFunc builds `timestamp()`, the current time in UTC as RFC 3339.
// now is injected so a scope can pin the clock; it is impure, so planning
// marks its result unknown until apply.
func MakeTimestampFunc(now func() time.Time) function.Function {
	return function.New(&function.Spec{
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			return cty.StringVal(now().UTC().Format(time.RFC3339)), nil
		},
	})
}

// MakeStaticTimestampFunc builds `plantimestamp()`, which returns the time
// the plan was created and so stays stable between plan and apply. A zero
// time means "not known yet" (validation), giving an unknown string.
func MakeStaticTimestampFunc(planTime time.Time) function.Function {
	return function.New(&function.Spec{
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if planTime.IsZero() {
				return cty.UnknownVal(cty.String), nil
			}
			return cty.StringVal(planTime.UTC().Format(time.RFC3339)), nil
		},
	})
}

// TimeCmpFunc compares two RFC 3339 timestamps: -1, 0 or 1.
var TimeCmpFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "timestamp_a", Type: cty.String},
		{Name: "timestamp_b", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Number),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var times [2]time.Time
		for i := range times {
			t, err := time.Parse(time.RFC3339, args[i].AsString())
			if err != nil {
				return cty.UnknownVal(cty.Number), function.NewArgErrorf(i, "not a valid RFC3339 timestamp: %s", timestampParseDetail(args[i].AsString(), err))
			}
			times[i] = t
		}
		return cty.NumberIntVal(int64(times[0].Compare(times[1]))), nil
	},
})

// timestampParseDetail explains a bad timestamp in the user's terms rather
// than in Go's reference-time layout notation.
func timestampParseDetail(s string, err error) string {
	if perr, ok := err.(*time.ParseError); ok && perr.ValueElem != "" {
		return fmt.Sprintf("cannot use %q as %s", perr.ValueElem, layoutElemName(perr.LayoutElem))
	}
	return fmt.Sprintf("%q is not of the form YYYY-MM-DDTHH:MM:SSZ", s)
}

func layoutElemName(elem string) string {
	names := map[string]string{
		"2006": "year", "01": "month", "02": "day of month", "15": "hour",
		"04": "minute", "05": "second", "Z07:00": "UTC offset", "T": `"T"`,
		"-": `"-"`, ":": `":"`,
	}
	if name, ok := names[elem]; ok {
		return name
	}
	return fmt.Sprintf("%q", elem)
}
