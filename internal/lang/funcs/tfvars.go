package funcs

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// The built-in "terraform" provider's functions, called as
// provider::terraform::NAME(...). They need no provider process.
const builtinProviderPrefix = "provider::terraform::"

func builtinProviderFuncs() map[string]function.Function {
	return map[string]function.Function{
		builtinProviderPrefix + "encode_tfvars": EncodeTfvarsFunc,
		builtinProviderPrefix + "decode_tfvars": DecodeTfvarsFunc,
		builtinProviderPrefix + "encode_expr":   EncodeExprFunc,
	}
}

// EncodeTfvarsFunc renders an object as the body of a .tfvars file, one
// attribute per line in lexical order.
var EncodeTfvarsFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowMarked: true}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		val, pathMarks := args[0].UnmarkDeepWithPaths()
		ty := val.Type()
		if !ty.IsObjectType() && !ty.IsMapType() {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "invalid value to encode: must be an object whose attribute names will become the encoded variable names")
		}
		if val.IsNull() {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "cannot encode a null value in tfvars syntax")
		}
		if !val.IsWhollyKnown() {
			return cty.UnknownVal(cty.String).RefineNotNull().WithMarks(allMarks(pathMarks)), nil
		}
		f := hclwrite.NewEmptyFile()
		body := f.Body()
		attrs := val.AsValueMap()
		names := make([]string, 0, len(attrs))
		for name := range attrs {
			if !hclsyntax.ValidIdentifier(name) {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "invalid variable name %q: must be a valid identifier, per OpenTofu's rules for input variable declarations", name)
			}
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			body.SetAttributeValue(name, attrs[name])
		}
		return cty.StringVal(string(f.Bytes())).WithMarks(allMarks(pathMarks)), nil
	},
})

// DecodeTfvarsFunc parses .tfvars content into an object. Only literal
// values are accepted: a tfvars file cannot refer to anything.
var DecodeTfvarsFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "src", Type: cty.String}},
	Type:   function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		file, diags := hclsyntax.ParseConfig([]byte(args[0].AsString()), "<decode_tfvars argument>", hcl.InitialPos)
		if diags.HasErrors() {
			return cty.DynamicVal, function.NewArgErrorf(0, "invalid tfvars syntax: %s", diags.Error())
		}
		attrs, diags := file.Body.JustAttributes()
		if diags.HasErrors() {
			return cty.DynamicVal, function.NewArgErrorf(0, "invalid tfvars content: %s", diags.Error())
		}
		out := make(map[string]cty.Value, len(attrs))
		for name, attr := range attrs {
			// A nil context makes any reference or function call an error.
			v, diags := attr.Expr.Value(nil)
			if diags.HasErrors() {
				return cty.DynamicVal, function.NewArgErrorf(0, "invalid expression for variable %q: %s", name, diags.Error())
			}
			out[name] = v
		}
		return cty.ObjectVal(out), nil
	},
})

// EncodeExprFunc renders any known value as an HCL expression that, when
// evaluated, produces the same value.
var EncodeExprFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name: "value", Type: cty.DynamicPseudoType,
		AllowNull: true, AllowMarked: true, AllowUnknown: true, AllowDynamicType: true,
	}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		val, pathMarks := args[0].UnmarkDeepWithPaths()
		if !val.IsWhollyKnown() {
			return cty.UnknownVal(cty.String).RefineNotNull().WithMarks(allMarks(pathMarks)), nil
		}
		tokens := hclwrite.TokensForValue(val)
		return cty.StringVal(string(hclwrite.Format(tokens.Bytes()))).WithMarks(allMarks(pathMarks)), nil
	},
})

// allMarks collects every mark found anywhere in a value, for results that
// are derived from the whole of it.
func allMarks(pathMarks []cty.PathValueMarks) cty.ValueMarks {
	collected := cty.NewValueMarks()
	for _, pm := range pathMarks {
		for m := range pm.Marks {
			collected[m] = struct{}{}
		}
	}
	return collected
}
