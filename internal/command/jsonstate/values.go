package jsonstate

import (
	"encoding/json"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/marks"
)

// AttributeValues is an object's attributes, each as JSON, keyed by name.
type AttributeValues map[string]json.RawMessage

// NewAttributeValues renders the attributes of an object value. Marks are
// dropped (sensitivity is reported separately) and unknown values are left
// out, as Terraform's JSON formats do; a null object has no attributes (nil).
func NewAttributeValues(val cty.Value) (AttributeValues, error) {
	if val == cty.NilVal {
		return nil, nil
	}
	val, _ = val.UnmarkDeep()
	if val.IsNull() || !val.IsKnown() {
		return nil, nil
	}
	if !val.Type().IsObjectType() && !val.Type().IsMapType() {
		return nil, fmt.Errorf("expected an object value, got %s", val.Type().FriendlyName())
	}
	known := OmitUnknowns(val)
	attrs := make(AttributeValues, known.LengthInt())
	for it := known.ElementIterator(); it.Next(); {
		name, attr := it.Element()
		raw, err := MarshalValue(attr)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", name.AsString(), err)
		}
		attrs[name.AsString()] = raw
	}
	return attrs, nil
}

// MarshalValue renders a wholly known, unmarked value as plain JSON, with no
// type information.
func MarshalValue(val cty.Value) (json.RawMessage, error) {
	raw, err := ctyjson.Marshal(val, val.Type())
	if err != nil {
		return nil, err
	}
	return raw, nil
}

// OmitUnknowns returns val without its unknown parts: unknown attributes and
// map elements are left out, unknown elements of sequences become null
// (their position matters, because the "after_unknown" mirror follows it),
// and a wholly unknown val becomes cty.NilVal. Collections come back as
// tuples and objects, whose elements may then differ in type; JSON cannot
// tell them apart anyway.
func OmitUnknowns(val cty.Value) cty.Value {
	if val.IsNull() {
		return val
	}
	if !val.IsKnown() {
		return cty.NilVal
	}
	ty := val.Type()
	switch {
	case val.IsWhollyKnown():
		return val
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		elems := make([]cty.Value, 0, val.LengthInt())
		for it := val.ElementIterator(); it.Next(); {
			_, elem := it.Element()
			known := OmitUnknowns(elem)
			if known == cty.NilVal {
				known = cty.NullVal(cty.DynamicPseudoType)
			}
			elems = append(elems, known)
		}
		return cty.TupleVal(elems)
	case ty.IsMapType() || ty.IsObjectType():
		attrs := make(map[string]cty.Value, val.LengthInt())
		for it := val.ElementIterator(); it.Next(); {
			key, elem := it.Element()
			if known := OmitUnknowns(elem); known != cty.NilVal {
				attrs[key.AsString()] = known
			}
		}
		return cty.ObjectVal(attrs)
	default:
		return val
	}
}

// SensitiveAsBool builds the "sensitive_values" mirror of a value: true
// where the value is marked sensitive; for objects and maps, an object
// holding only the members that are or contain something sensitive; for
// sequences, an array with an entry per element (positions matter); false
// for anything else. The result is plain Go data ready for encoding/json.
func SensitiveAsBool(val cty.Value) any {
	if val == cty.NilVal {
		return false
	}
	if val.HasMark(marks.Sensitive) {
		return true
	}
	val, _ = val.Unmark()
	ty := val.Type()
	switch {
	case val.IsNull() || ty.IsPrimitiveType() || ty == cty.DynamicPseudoType:
		return false
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		elems := []any{}
		if !val.IsKnown() {
			return elems
		}
		for it := val.ElementIterator(); it.Next(); {
			_, elem := it.Element()
			elems = append(elems, SensitiveAsBool(elem))
		}
		return elems
	case ty.IsMapType() || ty.IsObjectType():
		members := map[string]any{}
		if !val.IsKnown() {
			return members
		}
		for it := val.ElementIterator(); it.Next(); {
			key, elem := it.Element()
			// Leaving out the non-sensitive leaves keeps the mirror small.
			if mirror := SensitiveAsBool(elem); mirror != false {
				members[key.AsString()] = mirror
			}
		}
		return members
	default:
		return false
	}
}

// MarshalSensitiveAsBool is SensitiveAsBool encoded as JSON.
func MarshalSensitiveAsBool(val cty.Value) (json.RawMessage, error) {
	return json.Marshal(SensitiveAsBool(val))
}

// MarkSensitivePaths marks the parts of val at paths sensitive.
func MarkSensitivePaths(val cty.Value, paths []cty.Path) cty.Value {
	pathMarks := make([]cty.PathValueMarks, len(paths))
	for i, path := range paths {
		pathMarks[i] = cty.PathValueMarks{Path: path, Marks: cty.NewValueMarks(marks.Sensitive)}
	}
	return val.MarkWithPaths(pathMarks)
}
