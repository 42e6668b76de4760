package tfvalue

import (
	"encoding/json"

	"math/big"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Marshal encodes val, whose declared schema type is typ, as JSON. typ
// matters where it differs from val's own type: a value declared as
// DynamicPseudoType is stored with its concrete type next to it so it can be
// decoded again.
func Marshal(val tftypes.Value, typ tftypes.Type) ([]byte, error) {
	plain, err := toPlain(tftypes.NewAttributePath(), val, typ)
	if err != nil {
		return nil, err
	}
	return json.MarshalIndent(plain, "", "  ")
}

// Unmarshal decodes JSON produced by Marshal (or written by hand in the same
// encoding) as a value of type typ.
func Unmarshal(data []byte, typ tftypes.Type) (tftypes.Value, error) {
	return tftypes.ValueFromJSONWithOpts(data, typ, tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true})
}

func toPlain(path *tftypes.AttributePath, val tftypes.Value, typ tftypes.Type) (any, error) {
	if !val.IsKnown() {
		return nil, path.NewErrorf("cannot store an unknown value")
	}
	if val.IsNull() {
		return nil, nil
	}
	if typ.Is(tftypes.DynamicPseudoType) {
		concrete := val.Type()
		inner, err := toPlain(path, val, concrete)
		if err != nil {
			return nil, err
		}
		typeJSON, err := concrete.MarshalJSON()
		if err != nil {
			return nil, path.NewErrorf("encoding type: %w", err)
		}
		return map[string]any{"type": json.RawMessage(typeJSON), "value": inner}, nil
	}
	switch {
	case typ.Is(tftypes.String):
		var s string
		err := val.As(&s)
		return s, err
	case typ.Is(tftypes.Bool):
		var b bool
		err := val.As(&b)
		return b, err
	case typ.Is(tftypes.Number):
		n := new(big.Float)
		if err := val.As(&n); err != nil {
			return nil, err
		}
		return json.Number(n.Text('f', -1)), nil
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}), typ.Is(tftypes.Tuple{}):
		return sequenceToPlain(path, val, typ)
	case typ.Is(tftypes.Map{}), typ.Is(tftypes.Object{}):
		return mappingToPlain(path, val, typ)
	}
	return nil, path.NewErrorf("unsupported type %s", typ)
}

func sequenceToPlain(path *tftypes.AttributePath, val tftypes.Value, typ tftypes.Type) (any, error) {
	var elems []tftypes.Value
	if err := val.As(&elems); err != nil {
		return nil, err
	}
	out := make([]any, len(elems))
	for i, elem := range elems {
		var elemType tftypes.Type
		var step *tftypes.AttributePath
		switch t := typ.(type) {
		case tftypes.List:
			elemType, step = t.ElementType, path.WithElementKeyInt(i)
		case tftypes.Set:
			elemType, step = t.ElementType, path.WithElementKeyValue(elem)
		case tftypes.Tuple:
			elemType, step = t.ElementTypes[i], path.WithElementKeyInt(i)
		}
		plain, err := toPlain(step, elem, elemType)
		if err != nil {
			return nil, err
		}
		out[i] = plain
	}
	return out, nil
}

func mappingToPlain(path *tftypes.AttributePath, val tftypes.Value, typ tftypes.Type) (any, error) {
	var elems map[string]tftypes.Value
	if err := val.As(&elems); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(elems))
	for key, elem := range elems {
		var elemType tftypes.Type
		var step *tftypes.AttributePath
		switch t := typ.(type) {
		case tftypes.Map:
			elemType, step = t.ElementType, path.WithElementKeyString(key)
		case tftypes.Object:
			elemType, step = t.AttributeTypes[key], path.WithAttributeName(key)
		}
		if elemType == nil {
			return nil, path.NewErrorf("value has attribute %q that its type lacks", key)
		}
		plain, err := toPlain(step, elem, elemType)
		if err != nil {
			return nil, err
		}
		out[key] = plain
	}
	return out, nil
}

// NullUnknowns replaces every unknown value inside val with a null of the
// same type. Providers use it as the last step of apply, where the protocol
// forbids unknown values in the new state.
func NullUnknowns(val tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(val, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if !v.IsKnown() {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
}
