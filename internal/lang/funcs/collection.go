package funcs

import (
	"errors"
	"fmt"
	"math/big"
	"sort"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/terrane/terrane/internal/marks"
)

// refineNotNull tells callers that an unknown result will never be null, so
// that e.g. `length(x) > 0` in a condition can be decided earlier.
func refineNotNull(b *cty.RefinementBuilder) *cty.RefinementBuilder {
	return b.NotNull()
}

// LengthFunc returns the number of elements of a collection or structural
// value, or the number of characters (grapheme clusters) of a string; the
// cty stdlib version accepts only collections.
var LengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
		AllowMarked:      true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty == cty.DynamicPseudoType || ty.IsCollectionType() ||
			ty.IsTupleType() || ty.IsObjectType() {
			return cty.Number, nil
		}
		return cty.Number, errors.New("argument must be a string, a collection type, or a structural type")
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		coll, valMarks := args[0].Unmark()
		ty := coll.Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.UnknownVal(cty.Number).RefineNotNull().WithMarks(valMarks), nil
		case ty.IsTupleType():
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))).WithMarks(valMarks), nil
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))).WithMarks(valMarks), nil
		case ty == cty.String:
			n, err := stdlib.Strlen(coll)
			return n.WithMarks(valMarks), err
		default:
			return coll.Length().WithMarks(valMarks), nil
		}
	},
})

// AllTrueFunc returns true when every element of a list of bools is true
// (and for an empty list); a null element counts as false.
var AllTrueFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			if !v.IsKnown() {
				return cty.UnknownVal(cty.Bool), nil
			}
			if v.IsNull() || v.False() {
				return cty.False, nil
			}
		}
		return cty.True, nil
	},
})

// AnyTrueFunc returns true when at least one element of a list of bools is
// true; an unknown element makes the answer unknown unless a true is found.
var AnyTrueFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		sawUnknown := false
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			switch {
			case !v.IsKnown():
				sawUnknown = true
			case !v.IsNull() && v.True():
				return cty.True, nil
			}
		}
		if sawUnknown {
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

// CoalesceFunc returns the first argument that is neither null nor an empty
// string. The cty stdlib version skips only nulls.
var CoalesceFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{
		Name:             "vals",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		types := make([]cty.Type, len(args))
		for i, v := range args {
			types[i] = v.Type()
		}
		unified, _ := convert.UnifyUnsafe(types)
		if unified == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type")
		}
		return unified, nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for _, arg := range args {
			arg, _ = convert.Convert(arg, retType)
			if !arg.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if arg.IsNull() || (retType == cty.String && arg.RawEquals(cty.StringVal(""))) {
				continue
			}
			return arg, nil
		}
		return cty.NilVal, errors.New("no non-null, non-empty-string arguments")
	},
})

// IndexFunc returns the position of the first element of a list or tuple
// equal to the given value. (cty's stdlib IndexFunc is the `a[b]` operator.)
var IndexFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type:         function.StaticReturnType(cty.Number),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		list := args[0]
		if !(list.Type().IsListType() || list.Type().IsTupleType()) {
			return cty.NilVal, errors.New("argument must be a list or tuple")
		}
		if !list.IsKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, errors.New("cannot search an empty list")
		}
		for it := list.ElementIterator(); it.Next(); {
			i, v := it.Element()
			eq, err := stdlib.Equal(v, args[1])
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, errors.New("item not found")
	},
})

// LookupFunc reads one element of a map or attribute of an object, with an
// optional default. Marks on the map and on the key carry to the result.
var LookupFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true},
	},
	VarParam: &function.Parameter{
		Name:             "default",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
		AllowMarked:      true,
	},
	Type: lookupType,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if len(args) > 3 {
			return cty.NilVal, fmt.Errorf("lookup() takes two or three arguments, got %d", len(args))
		}
		coll, collMarks := args[0].Unmark()
		keyVal, keyMarks := args[1].Unmark()
		key := keyVal.AsString()
		if !coll.IsKnown() {
			return cty.UnknownVal(retType).WithMarks(collMarks, keyMarks), nil
		}
		if coll.Type().IsObjectType() {
			if coll.Type().HasAttribute(key) {
				return coll.GetAttr(key).WithMarks(collMarks, keyMarks), nil
			}
		} else if coll.HasIndex(cty.StringVal(key)) == cty.True {
			return coll.Index(cty.StringVal(key)).WithMarks(collMarks, keyMarks), nil
		}
		if len(args) == 3 {
			def, err := convert.Convert(args[2], retType)
			if err != nil {
				return cty.NilVal, err
			}
			return def.WithMarks(collMarks, keyMarks), nil
		}
		return cty.UnknownVal(cty.DynamicPseudoType), fmt.Errorf("lookup failed to find key %s", redactIfSensitive(key, keyMarks))
	},
})

func lookupType(args []cty.Value) (cty.Type, error) {
	if len(args) > 3 {
		return cty.NilType, fmt.Errorf("lookup() takes two or three arguments, got %d", len(args))
	}
	ty := args[0].Type()
	switch {
	case ty.IsObjectType():
		if !args[1].IsKnown() {
			return cty.DynamicPseudoType, nil
		}
		keyVal, keyMarks := args[1].Unmark()
		key := keyVal.AsString()
		if ty.HasAttribute(key) {
			return ty.AttributeType(key), nil
		}
		if len(args) == 3 {
			return args[2].Type(), nil
		}
		return cty.DynamicPseudoType, function.NewArgErrorf(0, "the given object has no attribute %s", redactIfSensitive(key, keyMarks))
	case ty.IsMapType():
		if len(args) == 3 {
			if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
				return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
			}
		}
		return ty.ElementType(), nil
	case ty == cty.DynamicPseudoType:
		return cty.DynamicPseudoType, nil
	default:
		return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
	}
}

// redactIfSensitive quotes s for an error message unless it came from a
// sensitive value, whose content must not leak into diagnostics.
func redactIfSensitive(s string, valueMarks ...cty.ValueMarks) string {
	for _, m := range valueMarks {
		if _, ok := m[marks.Sensitive]; ok {
			return "(sensitive value)"
		}
	}
	return fmt.Sprintf("%q", s)
}

// MatchkeysFunc keeps the elements of values whose corresponding element of
// keys is in searchset.
var MatchkeysFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()}); ty == cty.NilType {
			return cty.NilType, errors.New("keys and searchset must be of the same type")
		}
		return args[0].Type(), nil
	},
	RefineResult: refineNotNull,
	Impl:         matchkeys,
})

func matchkeys(args []cty.Value, retType cty.Type) (cty.Value, error) {
	elemType := retType.ElementType()
	values := args[0]
	if !values.IsKnown() {
		return cty.UnknownVal(retType), nil
	}
	if values.LengthInt() != args[1].LengthInt() {
		return cty.NilVal, errors.New("length of keys and values should be equal")
	}
	unified, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()})
	keys, _ := convert.Convert(args[1], unified)
	searchset, _ := convert.Convert(args[2], unified)
	if searchset.LengthInt() == 0 {
		return cty.ListValEmpty(elemType), nil
	}
	if !values.IsWhollyKnown() || !keys.IsWhollyKnown() {
		return cty.UnknownVal(retType), nil
	}
	var kept []cty.Value
	i := 0
	for it := keys.ElementIterator(); it.Next(); i++ {
		_, key := it.Element()
		for search := searchset.ElementIterator(); search.Next(); {
			_, candidate := search.Element()
			eq, err := stdlib.Equal(key, candidate)
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if eq.True() {
				kept = append(kept, values.Index(cty.NumberIntVal(int64(i))))
				break
			}
		}
	}
	if len(kept) == 0 {
		return cty.ListValEmpty(elemType), nil
	}
	return cty.ListVal(kept), nil
}

// OneFunc returns the only element of a one-element list, set or tuple, or
// null for an empty one, and fails for anything longer.
var OneFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == 0:
			return cty.DynamicPseudoType, nil
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == 1:
			return ty.TupleElementType(0), nil
		}
		return cty.NilType, errOneArgument
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		val := args[0]
		if val.Type().IsTupleType() {
			if val.LengthInt() == 0 {
				return cty.NullVal(retType), nil
			}
			return val.Index(cty.Zero), nil
		}
		if !val.Length().IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		switch val.LengthInt() {
		case 0:
			return cty.NullVal(retType), nil
		case 1:
			it := val.ElementIterator()
			it.Next()
			_, only := it.Element()
			return only, nil
		}
		return cty.NilVal, errOneArgument
	},
})

var errOneArgument = function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")

// SumFunc adds up a non-empty list, set or tuple of numbers.
var SumFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:         function.StaticReturnType(cty.Number),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (result cty.Value, err error) {
		list := args[0]
		ty := list.Type()
		if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple. Received %s", ty.FriendlyName())
		}
		if !list.IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
		}
		// big.Float panics on +Inf + -Inf; turn that into an error.
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(big.ErrNaN); !ok {
					panic(r)
				}
				result, err = cty.NilVal, errors.New("can't compute sum of opposing infinities")
			}
		}()
		total := cty.Zero
		for _, v := range list.AsValueSlice() {
			if v.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple of number values")
			}
			n, convErr := convert.Convert(v, cty.Number)
			if convErr != nil {
				return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple of number values")
			}
			total = total.Add(n)
		}
		return total, nil
	},
})

// TransposeFunc swaps the keys and values of a map of lists of strings.
var TransposeFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:         function.StaticReturnType(cty.Map(cty.List(cty.String))),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		inputMap := args[0]
		if !inputMap.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		grouped := map[string][]string{}
		for it := inputMap.ElementIterator(); it.Next(); {
			key, list := it.Element()
			for lit := list.ElementIterator(); lit.Next(); {
				_, elem := lit.Element()
				if elem.IsNull() {
					return cty.MapValEmpty(cty.List(cty.String)), errors.New("lists must not contain null values")
				}
				grouped[elem.AsString()] = append(grouped[elem.AsString()], key.AsString())
			}
		}
		out := make(map[string]cty.Value, len(grouped))
		for k, srcs := range grouped {
			sort.Strings(srcs)
			vals := make([]cty.Value, len(srcs))
			for i, s := range srcs {
				vals[i] = cty.StringVal(s)
			}
			out[k] = cty.ListVal(vals)
		}
		if len(out) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		return cty.MapVal(out), nil
	},
})

// removedFuncError says which removed function was called and what to
// write instead, in the words OpenTofu uses.
func removedFuncError(name, instead string) error {
	return fmt.Errorf("the %q function was deprecated in Terraform v0.12 and is not available in Terrane; use %s syntax to write a literal %s", name, instead, name)
}

// removedFunc stands in for a function the language no longer has, so a
// configuration using it gets an explanation instead of "unknown function".
func removedFunc(name, instead string) function.Function {
	return function.New(&function.Spec{
		VarParam: &function.Parameter{
			Name: "vals", Type: cty.DynamicPseudoType,
			AllowUnknown: true, AllowDynamicType: true, AllowNull: true,
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			return cty.DynamicPseudoType, removedFuncError(name, instead)
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			return cty.DynamicVal, removedFuncError(name, instead)
		},
	})
}

// ContainsFunc is cty's contains with a value that must not be null, as
// in the cty release OpenTofu 1.12 is built with: contains(list, null) is
// an error there, and the function's signature says so.
var ContainsFunc = function.New(&function.Spec{
	Description: stdlib.ContainsFunc.Description(),
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return stdlib.ContainsFunc.Call(args)
	},
})
