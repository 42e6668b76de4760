package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/terrane/terrane/internal/marks"
)

// markParam accepts any value at all, marks included, because these
// functions exist to inspect and change marks.
var markParam = function.Parameter{
	Name:             "value",
	Type:             cty.DynamicPseudoType,
	AllowUnknown:     true,
	AllowNull:        true,
	AllowMarked:      true,
	AllowDynamicType: true,
}

func sameTypeAsArgument(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil }

// SensitiveFunc returns its argument marked sensitive.
var SensitiveFunc = function.New(&function.Spec{
	Params: []function.Parameter{markParam},
	Type:   sameTypeAsArgument,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return args[0].Mark(marks.Sensitive), nil
	},
})

// NonsensitiveFunc removes the top-level sensitive mark, exposing the value.
// Sensitive values nested inside stay sensitive, as in OpenTofu.
var NonsensitiveFunc = function.New(&function.Spec{
	Params: []function.Parameter{markParam},
	Type:   sameTypeAsArgument,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		val, valMarks := args[0].Unmark()
		delete(valMarks, marks.Sensitive)
		return val.WithMarks(valMarks), nil
	},
})

// IsSensitiveFunc reports whether its argument itself is marked sensitive.
var IsSensitiveFunc = function.New(&function.Spec{
	Params: []function.Parameter{markParam},
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.BoolVal(args[0].HasMark(marks.Sensitive)), nil
	},
})
