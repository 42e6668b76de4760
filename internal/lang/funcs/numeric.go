package funcs

import (
	"fmt"
	"math"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// LogFunc is cty's log, except that an undefined result (the logarithm of
// a negative number, or to a negative base or base 1 of 1) is an error
// that says so. cty numbers cannot hold NaN: the library function crashes
// and reports a Go stack trace to the user.
var LogFunc = withDefinedResult(stdlib.LogFunc, func(num, base float64) (float64, string) {
	return math.Log(num) / math.Log(base), fmt.Sprintf("the logarithm of %s to base %s is not a real number", formatFloat(num), formatFloat(base))
})

// PowFunc is cty's pow, except that an undefined result (a negative number
// raised to a fractional power) is an error that says so, as in LogFunc.
var PowFunc = withDefinedResult(stdlib.PowFunc, func(num, power float64) (float64, string) {
	return math.Pow(num, power), fmt.Sprintf("%s to the power of %s is not a real number", formatFloat(num), formatFloat(power))
})

// withDefinedResult wraps a two-number function whose float64 arithmetic
// can give NaN. compute mirrors that arithmetic and describes the inputs;
// the wrapped function runs only when the result is a number, so every
// defined result (infinities included) is exactly the library's.
func withDefinedResult(wrapped function.Function, compute func(a, b float64) (float64, string)) function.Function {
	return function.New(&function.Spec{
		Description:  wrapped.Description(),
		Params:       wrapped.Params(),
		Type:         function.StaticReturnType(cty.Number),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			a, _ := args[0].AsBigFloat().Float64()
			b, _ := args[1].AsBigFloat().Float64()
			if result, description := compute(a, b); math.IsNaN(result) {
				return cty.UnknownVal(cty.Number), fmt.Errorf("%s", description)
			}
			return wrapped.Call(args)
		},
	})
}

func formatFloat(f float64) string {
	return cty.NumberFloatVal(f).AsBigFloat().Text('g', -1)
}
