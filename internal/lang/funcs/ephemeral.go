package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/terrane/terrane/internal/marks"
)

// EphemeralAsNullFunc is ephemeralasnull: its argument with every value
// marked ephemeral, however deeply nested, replaced by a null of the same
// type, so that what is left may be stored. Other marks (sensitive) stay
// where they were; a value with nothing ephemeral in it is returned as is.
// As in OpenTofu, an unknown value stays unknown, only no longer
// ephemeral: whether what it stands for will be ephemeral may itself
// depend on values not known yet.
var EphemeralAsNullFunc = function.New(&function.Spec{
	Params: []function.Parameter{markParam},
	Type:   sameTypeAsArgument,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return ephemeralAsNull(args[0]), nil
	},
})

func ephemeralAsNull(val cty.Value) cty.Value {
	if !marks.Contains(val, marks.Ephemeral) {
		return val
	}
	val, valMarks := val.Unmark()
	_, ephemeral := valMarks[marks.Ephemeral]
	delete(valMarks, marks.Ephemeral)
	switch {
	case !val.IsKnown():
		return cty.UnknownVal(val.Type()).WithMarks(valMarks)
	case ephemeral:
		return cty.NullVal(val.Type()).WithMarks(valMarks)
	}
	// Only a known, non-null collection or structure can hold marked
	// values below its top level.
	ty := val.Type()
	var out cty.Value
	switch {
	case ty.IsObjectType():
		attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
		for name := range ty.AttributeTypes() {
			attrs[name] = ephemeralAsNull(val.GetAttr(name))
		}
		out = cty.ObjectVal(attrs)
	case ty.IsMapType():
		elems := make(map[string]cty.Value, val.LengthInt())
		for it := val.ElementIterator(); it.Next(); {
			key, elem := it.Element()
			elems[key.AsString()] = ephemeralAsNull(elem)
		}
		out = cty.MapVal(elems)
	default: // lists, sets and tuples
		elems := make([]cty.Value, 0, val.LengthInt())
		for it := val.ElementIterator(); it.Next(); {
			_, elem := it.Element()
			elems = append(elems, ephemeralAsNull(elem))
		}
		switch {
		case ty.IsListType():
			out = cty.ListVal(elems)
		case ty.IsSetType():
			out = cty.SetVal(elems)
		default:
			out = cty.TupleVal(elems)
		}
	}
	return out.WithMarks(valMarks)
}
