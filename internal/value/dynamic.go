package value

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// Dynamic is the protocol's DynamicValue: exactly one of Msgpack and JSON is
// set on the wire; both empty means the value is absent (null).
type Dynamic struct {
	Msgpack []byte
	JSON    []byte
}

// Encode encodes v, which must conform to ty, as msgpack — the encoding the
// protocol prefers and the only one that can carry unknown values. Marks
// (such as sensitive) are not part of the wire format and are dropped.
func Encode(v cty.Value, ty cty.Type) (Dynamic, error) {
	if v == cty.NilVal {
		v = cty.NullVal(ty)
	}
	v, _ = v.UnmarkDeep()
	b, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		return Dynamic{}, fmt.Errorf("encoding value as msgpack: %w", err)
	}
	return Dynamic{Msgpack: b}, nil
}

// Decode decodes a DynamicValue of type ty, in whichever encoding it came.
func Decode(d Dynamic, ty cty.Type) (cty.Value, error) {
	switch {
	case len(d.Msgpack) > 0:
		v, err := ctymsgpack.Unmarshal(d.Msgpack, ty)
		if err != nil {
			return cty.DynamicVal, fmt.Errorf("decoding msgpack value: %w", err)
		}
		return v, nil
	case len(d.JSON) > 0:
		v, err := ctyjson.Unmarshal(d.JSON, ty)
		if err != nil {
			return cty.DynamicVal, fmt.Errorf("decoding JSON value: %w", err)
		}
		return v, nil
	default:
		return cty.NullVal(ty), nil
	}
}

// TypeFromJSON decodes a type constraint in its JSON form (as attribute
// types travel in schemas).
func TypeFromJSON(b []byte) (cty.Type, error) {
	ty, err := ctyjson.UnmarshalType(b)
	if err != nil {
		return cty.DynamicPseudoType, fmt.Errorf("decoding type %q: %w", b, err)
	}
	return ty, nil
}

// TypeToJSON encodes a type constraint in its JSON form.
func TypeToJSON(ty cty.Type) ([]byte, error) {
	return ctyjson.MarshalType(ty)
}
