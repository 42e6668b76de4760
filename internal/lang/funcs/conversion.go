package funcs

import (
	"reflect"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/terrane/terrane/internal/lang/marks"
)

// MakeToFunc builds one of the to* conversion functions. It defers to cty's
// stdlib for the conversion but keeps a sensitive value out of the error:
// stdlib's message quotes the value it could not convert.
func MakeToFunc(wantType cty.Type) function.Function {
	inner := stdlib.MakeToFunc(wantType)
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name:             "v",
			Type:             cty.DynamicPseudoType,
			AllowNull:        true,
			AllowMarked:      true,
			AllowDynamicType: true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) {
			return inner.ReturnTypeForValues([]cty.Value{args[0]})
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			out, err := inner.Call([]cty.Value{args[0]})
			if err != nil && marks.Contains(args[0], marks.Sensitive) {
				plain, _ := args[0].UnmarkDeep()
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert this sensitive %s to %s", plain.Type().FriendlyName(), wantType.FriendlyNameForConstraint())
			}
			return out, err
		},
	})
}

// TypeType is the capsule type of the values `type()` returns; the console
// renders them as type expressions such as `list(string)`.
var TypeType = cty.Capsule("type", reflect.TypeOf(cty.Type{}))

// TypeFunc returns its argument's type as a TypeType capsule. Only the
// console offers it: a type is not a value a configuration can store.
var TypeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowMarked:      true,
	}},
	Type: function.StaticReturnType(TypeType),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		plain, _ := args[0].UnmarkDeep()
		ty := plain.Type()
		return cty.CapsuleVal(TypeType, &ty), nil
	},
})
