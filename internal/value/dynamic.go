package value

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/terrane/terrane/internal/marks"
	"math/big"

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

// IsEmpty reports whether neither encoding is set, which the protocol reads
// as a null value.
func (d Dynamic) IsEmpty() bool {
	return len(d.Msgpack) == 0 && len(d.JSON) == 0
}

// Encoding names of a DynamicValue, as they appear in DecodeError.
const (
	EncodingMsgpack = "msgpack"
	EncodingJSON    = "JSON"
)

// DecodeError is a DynamicValue (or part of one) that does not decode as the
// type the schema calls for. Path locates the offending part of the value,
// so callers can attach it to a diagnostic about the provider's answer.
type DecodeError struct {
	Encoding string
	Path     cty.Path
	Err      error
}

func (e *DecodeError) Error() string {
	where := ""
	if len(e.Path) > 0 {
		where = " at " + FormatPath(e.Path)
	}
	return fmt.Sprintf("malformed %s value%s: %s", e.Encoding, where, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// Encode encodes v, which must conform to ty, as msgpack — the encoding the
// protocol prefers and the only one that can carry unknown values. Marks
// (such as sensitive) are not part of the wire format and are dropped: the
// engine re-applies them from the schema and the configuration.
func Encode(v cty.Value, ty cty.Type) (Dynamic, error) {
	if v == cty.NilVal {
		v = cty.NullVal(ty)
	}
	v, _ = marks.UnmarkDeep(v)
	b, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		return Dynamic{}, fmt.Errorf("encoding value as msgpack%s", describePathError(err))
	}
	return Dynamic{Msgpack: b}, nil
}

// EncodeJSON encodes v, which must conform to ty and be wholly known, in the
// protocol's JSON encoding. JSON has no way to say "unknown", so a value that
// is not yet known anywhere inside is an error naming where.
func EncodeJSON(v cty.Value, ty cty.Type) ([]byte, error) {
	if v == cty.NilVal {
		v = cty.NullVal(ty)
	}
	v, _ = marks.UnmarkDeep(v)
	if path, found := firstUnknown(v); found {
		return nil, fmt.Errorf("encoding value as JSON: the value at %s is not known yet, and JSON cannot represent unknown values", FormatPath(path))
	}
	b, err := ctyjson.Marshal(v, ty)
	if err != nil {
		return nil, fmt.Errorf("encoding value as JSON%s", describePathError(err))
	}
	return b, nil
}

// Decode decodes a DynamicValue of type ty, in whichever encoding it came.
// A malformed value is a *DecodeError; Decode never panics, whatever bytes
// it is given.
func Decode(d Dynamic, ty cty.Type) (cty.Value, error) {
	switch {
	case len(d.Msgpack) > 0:
		return DecodeMsgpack(d.Msgpack, ty)
	case len(d.JSON) > 0:
		return DecodeJSON(d.JSON, ty)
	default:
		return cty.NullVal(ty), nil
	}
}

// DecodeMsgpack decodes msgpack bytes as a value of type ty, including
// unknown values (extension 0, or extension 12 carrying refinements) and
// dynamically-typed values (a [type JSON, value] pair).
func DecodeMsgpack(b []byte, ty cty.Type) (cty.Value, error) {
	return decodeChecked(EncodingMsgpack, ty, func() (cty.Value, error) {
		if err := checkMsgpackShape(b); err != nil {
			return cty.DynamicVal, err
		}
		return ctymsgpack.Unmarshal(b, ty)
	})
}

// DecodeJSON decodes the protocol's JSON encoding as a value of type ty.
// JSON values are always wholly known.
func DecodeJSON(b []byte, ty cty.Type) (cty.Value, error) {
	return decodeChecked(EncodingJSON, ty, func() (cty.Value, error) {
		// cty's decoder stops after the first JSON value and would accept
		// anything after it; a provider answer with more is corrupt.
		if !json.Valid(b) {
			return cty.DynamicVal, errors.New("the bytes are not a single well-formed JSON value")
		}
		return ctyjson.Unmarshal(b, ty)
	})
}

// decodeChecked runs a cty decoder and then makes the guarantees callers rely
// on that the decoder alone does not: the result conforms to ty (an empty map
// or array decodes as an empty object or tuple whatever the type asked for,
// and repeated keys can leave attributes out), and input that makes cty panic
// (a NaN, contradictory refinements, collection elements of differing
// dynamic types) is reported as an error rather than crashing the engine.
func decodeChecked(encoding string, ty cty.Type, decode func() (cty.Value, error)) (v cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = cty.DynamicVal, &DecodeError{Encoding: encoding, Err: describePanic(r)}
		}
	}()
	v, err = decode()
	if err != nil {
		return cty.DynamicVal, newDecodeError(encoding, ty, err)
	}
	if errs := v.Type().TestConformance(ty); len(errs) > 0 {
		decodeErr := newDecodeError(encoding, ty, errs[0])
		if given, want := v.Type().FriendlyName(), ty.FriendlyName(); given != want {
			decodeErr.Err = fmt.Errorf("%w (the value is %s where %s is required)", decodeErr.Err, given, want)
		}
		return cty.DynamicVal, decodeErr
	}
	return v, nil
}

func newDecodeError(encoding string, ty cty.Type, err error) *DecodeError {
	var pathErr cty.PathError
	if errors.As(err, &pathErr) {
		// A PathError's message leaves the path out; DecodeError adds it.
		return &DecodeError{Encoding: encoding, Path: attributeSteps(pathErr.Path, ty), Err: pathErr}
	}
	return &DecodeError{Encoding: encoding, Err: err}
}

func describePanic(r any) error {
	var nan big.ErrNaN
	switch p := r.(type) {
	case big.ErrNaN:
		return errors.New("a number is NaN, which is not a number value can hold")
	case error:
		if errors.As(p, &nan) {
			return errors.New("a number is NaN, which is not a number value can hold")
		}
		return fmt.Errorf("the value is inconsistent: %w", p)
	default:
		return fmt.Errorf("the value is inconsistent: %v", p)
	}
}

// attributeSteps rewrites the steps of path that index into an object, which
// cty's decoders report as string-keyed index steps, as attribute steps, so
// the path is the one a user and the protocol use (.tags["a"], not
// ["tags"]["a"]). Past a dynamically-typed part the type is not known and the
// path is left as it was.
func attributeSteps(path cty.Path, ty cty.Type) cty.Path {
	out := path.Copy()
	for i, step := range out {
		index, isIndex := step.(cty.IndexStep)
		switch {
		case ty.IsObjectType() && isIndex && index.Key.Type() == cty.String && index.Key.IsKnown():
			name := index.Key.AsString()
			out[i] = cty.GetAttrStep{Name: name}
			if !ty.HasAttribute(name) {
				return out
			}
			ty = ty.AttributeType(name)
		case ty.IsCollectionType():
			ty = ty.ElementType()
		case ty.IsTupleType() && isIndex && index.Key.Type() == cty.Number && index.Key.IsKnown():
			n, accuracy := index.Key.AsBigFloat().Int64()
			if accuracy != big.Exact || n < 0 || n >= int64(ty.Length()) {
				return out
			}
			ty = ty.TupleElementType(int(n))
		default:
			return out
		}
	}
	return out
}

// describePathError renders a cty error as ": at PATH: message" so that the
// failing part of a value is named.
func describePathError(err error) string {
	var pathErr cty.PathError
	if errors.As(err, &pathErr) && len(pathErr.Path) > 0 {
		return fmt.Sprintf(" at %s: %s", FormatPath(pathErr.Path), pathErr.Error())
	}
	return ": " + err.Error()
}

// firstUnknown finds the path of an unknown value inside v, if any.
func firstUnknown(v cty.Value) (cty.Path, bool) {
	if v.IsWhollyKnown() {
		return nil, false
	}
	var found cty.Path
	_ = cty.Walk(v, func(path cty.Path, inner cty.Value) (bool, error) {
		if found != nil {
			return false, nil
		}
		if !inner.IsKnown() {
			found = path.Copy()
			return false, nil
		}
		return true, nil
	})
	if found == nil {
		found = cty.Path{}
	}
	return found, true
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
