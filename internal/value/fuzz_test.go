package value

import (
	"bytes"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// fuzzTypes are the types FuzzDecodeMsgpack decodes each input as: the rich
// object, a dynamic value (whose type comes from the input itself) and a
// collection of dynamic values.
var fuzzTypes = []cty.Type{
	richObjectType,
	cty.DynamicPseudoType,
	cty.List(cty.DynamicPseudoType),
	cty.Set(cty.Object(map[string]cty.Type{"n": cty.Number, "s": cty.String})),
}

// FuzzDecodeMsgpack checks that no input makes decoding panic, and that
// whatever decodes re-encodes to bytes that decode to the same value.
func FuzzDecodeMsgpack(f *testing.F) {
	rich := richObjectValue()
	seeds := []cty.Value{
		rich,
		cty.NullVal(richObjectType),
		cty.UnknownVal(richObjectType),
		mustTransform(f, rich, unknownStrings),
	}
	for _, v := range seeds {
		encoded, err := Encode(v, richObjectType)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(encoded.Msgpack)
	}
	for _, v := range []cty.Value{
		cty.UnknownVal(cty.Number).Refine().NumberRangeInclusive(cty.Zero, cty.NumberIntVal(9)).NewValue(),
		cty.UnknownVal(cty.String).Refine().NotNull().StringPrefix("https://").NewValue(),
		cty.ListVal([]cty.Value{cty.UnknownVal(cty.List(cty.String)).Refine().CollectionLengthLowerBound(1).NewValue()}),
		mustParseNumber(f, "1e400"),
	} {
		encoded, err := Encode(v, cty.DynamicPseudoType)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(encoded.Msgpack)
	}

	f.Fuzz(func(t *testing.T, wire []byte) {
		for _, ty := range fuzzTypes {
			checkDecodeIsStable(t, wire, ty)
		}
	})
}

func checkDecodeIsStable(t *testing.T, wire []byte, ty cty.Type) {
	v, err := DecodeMsgpack(wire, ty)
	if err != nil {
		return
	}
	if errs := v.Type().TestConformance(ty); len(errs) > 0 {
		t.Fatalf("decoded a %s as %#v, which does not conform: %s", ty.GoString(), v, errs[0])
	}
	first, err := Encode(v, ty)
	if err != nil {
		t.Fatalf("decoded %#v but cannot encode it again: %s", v, err)
	}
	again, err := DecodeMsgpack(first.Msgpack, ty)
	if err != nil {
		t.Fatalf("re-encoded %#v as % x, which does not decode: %s", v, first.Msgpack, err)
	}
	second, err := Encode(again, ty)
	if err != nil {
		t.Fatalf("cannot encode %#v: %s", again, err)
	}
	if !bytes.Equal(first.Msgpack, second.Msgpack) {
		t.Fatalf("encoding is not stable:\n% x\n% x", first.Msgpack, second.Msgpack)
	}
}

func unknownStrings(_ cty.Path, v cty.Value) (cty.Value, error) {
	if v.Type() == cty.String && !v.IsNull() {
		return cty.UnknownVal(cty.String).RefineNotNull(), nil
	}
	return v, nil
}

func mustTransform(t testing.TB, v cty.Value, fn func(cty.Path, cty.Value) (cty.Value, error)) cty.Value {
	t.Helper()
	out, err := cty.Transform(v, fn)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// FuzzDecodeJSON checks that no input makes JSON decoding panic, and that
// whatever decodes encodes back to JSON that decodes to the same value.
func FuzzDecodeJSON(f *testing.F) {
	for _, v := range []cty.Value{richObjectValue(), cty.NullVal(richObjectType)} {
		b, err := EncodeJSON(v, richObjectType)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"value":[1,"x",{"a":null}],"type":["tuple",["number","string",["object",{"a":"bool"}]]]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, ty := range fuzzTypes {
			v, err := DecodeJSON(doc, ty)
			if err != nil {
				continue
			}
			if !v.IsWhollyKnown() {
				t.Fatalf("JSON decoded to a value that is not wholly known: %#v", v)
			}
			again, err := EncodeJSON(v, ty)
			if err != nil {
				t.Fatalf("decoded %#v but cannot encode it as JSON: %s", v, err)
			}
			back, err := DecodeJSON(again, ty)
			if err != nil || !back.RawEquals(v) {
				t.Fatalf("JSON round trip of %#v gave %#v, %v", v, back, err)
			}
		}
	})
}
