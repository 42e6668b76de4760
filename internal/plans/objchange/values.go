package objchange

import (
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// shape is what the rules need from either a block or a nested attribute
// type: the attributes, and for a block its nested block types. Treating
// both alike lets one piece of code walk blocks and nested attributes.
type shape struct {
	attrs  map[string]*schema.Attribute
	blocks map[string]*schema.NestedBlock
}

func blockShape(b *schema.Block) shape { return shape{attrs: b.Attributes, blocks: b.BlockTypes} }

func objectShape(o *schema.Object) shape { return shape{attrs: o.Attributes} }

// attributeByPath finds the attribute a path inside a value of the shape
// leads to, as schema.Block.AttributeByPath does.
func (s shape) attributeByPath(path cty.Path) *schema.Attribute {
	b := schema.Block{Attributes: s.attrs, BlockTypes: s.blocks}
	return b.AttributeByPath(path)
}

// attrOf is obj's attribute name, with a null object giving a null and an
// unknown object an unknown of the attribute's type, so callers can compare
// an object that does not exist yet with one that does.
func attrOf(obj cty.Value, name string) cty.Value {
	ty := obj.Type()
	if !ty.IsObjectType() || !ty.HasAttribute(name) {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	if obj.IsNull() {
		return cty.NullVal(ty.AttributeType(name))
	}
	return obj.GetAttr(name) // an unknown object gives an unknown attribute
}

// element is one element of a collection with the key that finds it: an
// index for lists and tuples, a string for maps and map-like objects, the
// element itself for sets.
type element struct {
	key, val cty.Value
}

// elements lists a collection's elements in cty's iteration order; a null
// or unknown collection has none.
func elements(coll cty.Value) []element {
	if coll.IsNull() || !coll.IsKnown() {
		return nil
	}
	ty := coll.Type()
	if !ty.IsCollectionType() && !ty.IsTupleType() && !ty.IsObjectType() {
		return nil
	}
	out := make([]element, 0, coll.LengthInt())
	for it := coll.ElementIterator(); it.Next(); {
		k, v := it.Element()
		out = append(out, element{key: k, val: v})
	}
	return out
}

// elementAt finds the element of a list, tuple, map or map-like object at
// key. An unknown collection has an unknown element everywhere.
func elementAt(coll, key cty.Value) (cty.Value, bool) {
	ty := coll.Type()
	if coll.IsNull() {
		return cty.NilVal, false
	}
	if !coll.IsKnown() {
		switch {
		case ty.IsListType() || ty.IsMapType() || ty.IsSetType():
			return cty.UnknownVal(ty.ElementType()), true
		default:
			return cty.DynamicVal, true
		}
	}
	switch {
	case ty.IsObjectType():
		name := key.AsString()
		if !ty.HasAttribute(name) {
			return cty.NilVal, false
		}
		return coll.GetAttr(name), true
	case ty.IsListType() || ty.IsTupleType() || ty.IsMapType():
		if !coll.HasIndex(key).True() {
			return cty.NilVal, false
		}
		return coll.Index(key), true
	default:
		return cty.NilVal, false
	}
}

// collectionLike builds a collection of the same kind as template (list,
// tuple, map, map-like object or set) from elems. If the elements cannot
// form one — which conforming inputs never cause — template is returned
// unchanged rather than panicking.
func collectionLike(template cty.Value, elems []element) cty.Value {
	ty := template.Type()
	vals := make([]cty.Value, len(elems))
	for i, e := range elems {
		vals[i] = e.val
	}
	switch {
	case ty.IsTupleType():
		return cty.TupleVal(vals)
	case ty.IsObjectType():
		return cty.ObjectVal(byName(elems))
	}
	if len(vals) == 0 || !sameTypes(vals) {
		return template
	}
	switch {
	case ty.IsListType():
		return cty.ListVal(vals)
	case ty.IsSetType():
		return cty.SetVal(vals)
	case ty.IsMapType():
		return cty.MapVal(byName(elems))
	}
	return template
}

// byName is a map's or map-like object's elements keyed by name.
func byName(elems []element) map[string]cty.Value {
	out := make(map[string]cty.Value, len(elems))
	for _, e := range elems {
		out[e.key.AsString()] = e.val
	}
	return out
}

func sameTypes(vals []cty.Value) bool {
	for _, v := range vals[1:] {
		if !v.Type().Equals(vals[0].Type()) {
			return false
		}
	}
	return true
}

// unrefined is v with every unknown value inside it stripped of its
// refinements. Two values that differ only in what is promised about their
// unknown parts describe the same configuration, so comparisons that ask
// "did the provider change this?" use it.
func unrefined(v cty.Value) cty.Value {
	if v.IsWhollyKnown() {
		return v
	}
	out, err := cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if !v.IsKnown() {
			return cty.UnknownVal(v.Type()).WithMarks(v.Marks()), nil
		}
		return v, nil
	})
	if err != nil {
		return v
	}
	return out
}

// sameIgnoringRefinements reports whether a and b are the same value, unknowns
// matching unknowns of the same type whatever their refinements.
func sameIgnoringRefinements(a, b cty.Value) bool {
	return unrefined(a).RawEquals(unrefined(b))
}

// nullAsEmpty is a collection of nested blocks with a null standing for
// no blocks, as providers using the legacy type system send it.
func nullAsEmpty(v cty.Value) cty.Value {
	if !v.IsNull() {
		return v
	}
	ty := v.Type()
	switch {
	case ty.IsListType():
		return cty.ListValEmpty(ty.ElementType())
	case ty.IsSetType():
		return cty.SetValEmpty(ty.ElementType())
	case ty.IsMapType():
		return cty.MapValEmpty(ty.ElementType())
	case ty.IsTupleType():
		return cty.EmptyTupleVal
	case ty.IsObjectType() && len(ty.AttributeTypes()) == 0:
		return cty.EmptyObjectVal
	}
	return v
}

// sortedNames lists a map's keys in order, so errors about several
// attributes come out in the same order every time.
func sortedNames[T any](m map[string]T) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
