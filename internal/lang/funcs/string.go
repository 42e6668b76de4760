package funcs

import (
	"regexp"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// ReplaceFunc replaces every occurrence of substr in str. A substr wrapped
// in forward slashes is a regular expression and the replacement may refer
// to its capture groups as $1 or ${name}.
var ReplaceFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		str, substr, replacement := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if len(substr) > 1 && strings.HasPrefix(substr, "/") && strings.HasSuffix(substr, "/") {
			re, err := regexp.Compile(substr[1 : len(substr)-1])
			if err != nil {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "invalid regular expression: %s", err)
			}
			return cty.StringVal(re.ReplaceAllString(str, replacement)), nil
		}
		return cty.StringVal(strings.ReplaceAll(str, substr, replacement)), nil
	},
})

// StartsWithFunc reports whether str begins with prefix. An unknown str
// whose known prefix already decides the answer gives a known result.
var StartsWithFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String, AllowUnknown: true},
		{Name: "prefix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		prefix := args[1].AsString()
		if !args[0].IsKnown() {
			known := args[0].Range().StringPrefix()
			// The known prefix decides the answer once it is at least as
			// long as the wanted prefix, or as soon as the two disagree.
			if len(known) >= len(prefix) || !strings.HasPrefix(prefix, known) {
				return cty.BoolVal(strings.HasPrefix(known, prefix)), nil
			}
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.BoolVal(strings.HasPrefix(args[0].AsString(), prefix)), nil
	},
})

// EndsWithFunc reports whether str ends with suffix.
var EndsWithFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "suffix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.BoolVal(strings.HasSuffix(args[0].AsString(), args[1].AsString())), nil
	},
})

// StrContainsFunc reports whether substr occurs anywhere in str.
var StrContainsFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.BoolVal(strings.Contains(args[0].AsString(), args[1].AsString())), nil
	},
})
