package funcs

import (
	"reflect"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/terrane/terrane/internal/marks"
)

// MakeToFunc builds one of the to* conversion functions. It converts with
// cty's convert package, which keeps each mark where it was: tolist of a
// tuple holding one sensitive string is a list with one sensitive element,
// as in OpenTofu, not a wholly sensitive list (what calling stdlib's
// function would give, as it accepts no marked arguments). Errors are
// stdlib's, except that a sensitive value is kept out of them: stdlib's
// message quotes the value it could not convert.
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
			out, err := convert.Convert(args[0], retType)
			if err == nil {
				return out, nil
			}
			if marks.Contains(args[0], marks.Sensitive) {
				plain, _ := args[0].UnmarkDeep()
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert this sensitive %s to %s", plain.Type().FriendlyName(), wantType.FriendlyNameForConstraint())
			}
			// stdlib words the failure for an explicit conversion.
			if _, explained := inner.Call([]cty.Value{args[0]}); explained != nil {
				return cty.NilVal, explained
			}
			return cty.NilVal, function.NewArgError(0, err)
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
