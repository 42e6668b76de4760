package value

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func mustParseNumber(t testing.TB, s string) cty.Value {
	t.Helper()
	v, err := cty.ParseNumberVal(s)
	if err != nil {
		t.Fatalf("parsing %q: %s", s, err)
	}
	return v
}

// richObjectType has an attribute of every kind a provider schema can imply,
// including dynamically-typed ones, nested at several levels.
var richObjectType = cty.Object(map[string]cty.Type{
	"id":      cty.String,
	"count":   cty.Number,
	"enabled": cty.Bool,
	"tags":    cty.Map(cty.String),
	"ports":   cty.List(cty.Number),
	"names":   cty.Set(cty.String),
	"pair":    cty.Tuple([]cty.Type{cty.String, cty.Number}),
	"any":     cty.DynamicPseudoType,
	"rule": cty.List(cty.Object(map[string]cty.Type{
		"cidr":  cty.String,
		"ports": cty.Set(cty.Number),
	})),
	"settings": cty.Map(cty.Object(map[string]cty.Type{
		"value": cty.String,
		"extra": cty.DynamicPseudoType,
	})),
	"nested": cty.Object(map[string]cty.Type{
		"matrix": cty.List(cty.List(cty.Number)),
		"lookup": cty.Map(cty.Set(cty.String)),
	}),
})

func richObjectValue() cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id":      cty.StringVal("i-0abc"),
		"count":   cty.NumberIntVal(3),
		"enabled": cty.True,
		"tags":    cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod"), "owner": cty.NullVal(cty.String)}),
		"ports":   cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)}),
		"names":   cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"pair":    cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.NumberFloatVal(1.5)}),
		"any":     cty.ObjectVal(map[string]cty.Value{"k": cty.ListVal([]cty.Value{cty.True})}),
		"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"cidr":  cty.StringVal("10.0.0.0/8"),
			"ports": cty.SetVal([]cty.Value{cty.NumberIntVal(22)}),
		})}),
		"settings": cty.MapVal(map[string]cty.Value{"a": cty.ObjectVal(map[string]cty.Value{
			"value": cty.StringVal("v"),
			"extra": cty.NumberIntVal(7),
		})}),
		"nested": cty.ObjectVal(map[string]cty.Value{
			"matrix": cty.ListVal([]cty.Value{cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)})}),
			"lookup": cty.NullVal(cty.Map(cty.Set(cty.String))),
		}),
	})
}

func TestMsgpackRoundTrip(t *testing.T) {
	bigInt := new(big.Int).Lsh(big.NewInt(1), 70)
	objAB := cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.List(cty.Number)})
	tests := []struct {
		name string
		ty   cty.Type
		val  cty.Value
	}{
		{"string", cty.String, cty.StringVal("hello")},
		{"empty string", cty.String, cty.StringVal("")},
		{"unicode string", cty.String, cty.StringVal("héllo ☃ 𝄞")},
		{"null string", cty.String, cty.NullVal(cty.String)},
		{"small int", cty.Number, cty.NumberIntVal(42)},
		{"negative int", cty.Number, cty.NumberIntVal(-129)},
		{"max int64", cty.Number, cty.NumberIntVal(math.MaxInt64)},
		{"min int64", cty.Number, cty.NumberIntVal(math.MinInt64)},
		{"max uint64", cty.Number, cty.NumberUIntVal(math.MaxUint64)},
		{"beyond 64 bits", cty.Number, cty.NumberVal(new(big.Float).SetInt(bigInt))},
		{"exact float", cty.Number, cty.NumberFloatVal(1.5)},
		{"decimal not exact in binary", cty.Number, mustParseNumber(t, "0.1")},
		{"high precision", cty.Number, mustParseNumber(t, "3.14159265358979323846264338327950288419716939937510")},
		{"huge exponent", cty.Number, mustParseNumber(t, "1e400")},
		{"positive infinity", cty.Number, cty.PositiveInfinity},
		{"negative infinity", cty.Number, cty.NegativeInfinity},
		{"null number", cty.Number, cty.NullVal(cty.Number)},
		{"true", cty.Bool, cty.True},
		{"false", cty.Bool, cty.False},
		{"null bool", cty.Bool, cty.NullVal(cty.Bool)},
		{"list", cty.List(cty.String), cty.ListVal([]cty.Value{cty.StringVal("a"), cty.NullVal(cty.String)})},
		{"empty list", cty.List(cty.String), cty.ListValEmpty(cty.String)},
		{"null list", cty.List(cty.String), cty.NullVal(cty.List(cty.String))},
		{"set", cty.Set(cty.Number), cty.SetVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)})},
		{"empty set", cty.Set(cty.Number), cty.SetValEmpty(cty.Number)},
		{"set of objects", cty.Set(objAB), cty.SetVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.ListValEmpty(cty.Number)}),
			cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "b": cty.NullVal(cty.List(cty.Number))}),
		})},
		{"map", cty.Map(cty.Bool), cty.MapVal(map[string]cty.Value{"x": cty.True, "y": cty.NullVal(cty.Bool)})},
		{"empty map", cty.Map(cty.Bool), cty.MapValEmpty(cty.Bool)},
		{"null map", cty.Map(cty.Bool), cty.NullVal(cty.Map(cty.Bool))},
		{"tuple", cty.Tuple([]cty.Type{cty.String, cty.Bool}), cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NullVal(cty.Bool)})},
		{"empty tuple", cty.EmptyTuple, cty.EmptyTupleVal},
		{"null tuple", cty.Tuple([]cty.Type{cty.String}), cty.NullVal(cty.Tuple([]cty.Type{cty.String}))},
		{"object with null attributes", objAB, cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "b": cty.NullVal(cty.List(cty.Number))})},
		{"empty object", cty.EmptyObject, cty.EmptyObjectVal},
		{"null object", objAB, cty.NullVal(objAB)},
		{"nested collections", cty.Map(cty.List(cty.Set(cty.String))), cty.MapVal(map[string]cty.Value{
			"k": cty.ListVal([]cty.Value{cty.SetVal([]cty.Value{cty.StringVal("s")}), cty.NullVal(cty.Set(cty.String))}),
		})},
		{"rich object", richObjectType, richObjectValue()},
		{"null rich object", richObjectType, cty.NullVal(richObjectType)},

		{"dynamic string", cty.DynamicPseudoType, cty.StringVal("dyn")},
		{"dynamic object", cty.DynamicPseudoType, cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)})},
		{"dynamic null", cty.DynamicPseudoType, cty.NullVal(cty.DynamicPseudoType)},
		{"dynamic typed null", cty.DynamicPseudoType, cty.NullVal(cty.List(cty.String))},
		{"dynamic unknown", cty.DynamicPseudoType, cty.DynamicVal},
		{"dynamic typed unknown", cty.DynamicPseudoType, cty.UnknownVal(cty.Map(cty.String))},
		{"dynamic containing unknown", cty.DynamicPseudoType, cty.ListVal([]cty.Value{cty.UnknownVal(cty.String)})},
		{"list of dynamic", cty.List(cty.DynamicPseudoType), cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
		{"map of dynamic", cty.Map(cty.DynamicPseudoType), cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(1)})},

		{"unknown string", cty.String, cty.UnknownVal(cty.String)},
		{"unknown object", objAB, cty.UnknownVal(objAB)},
		{"unknown list element", cty.List(cty.String), cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)})},
		{"unknown set element", cty.Set(cty.String), cty.SetVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)})},
		{"unknown map value", cty.Map(cty.Number), cty.MapVal(map[string]cty.Value{"a": cty.UnknownVal(cty.Number)})},
		{"unknown attribute", objAB, cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String), "b": cty.UnknownVal(cty.List(cty.Number))})},
		{"refined not null", cty.String, cty.UnknownVal(cty.String).RefineNotNull()},
		{"refined string prefix", cty.String, cty.UnknownVal(cty.String).Refine().NotNull().StringPrefix("https://").NewValue()},
		{"refined number bounds inclusive", cty.Number, cty.UnknownVal(cty.Number).Refine().NumberRangeInclusive(cty.NumberIntVal(1), cty.NumberIntVal(10)).NewValue()},
		{"refined number bounds exclusive", cty.Number, cty.UnknownVal(cty.Number).Refine().
			NumberRangeLowerBound(cty.NumberFloatVal(0.5), false).NumberRangeUpperBound(mustParseNumber(t, "1e30"), false).NewValue()},
		{"refined number lower bound only", cty.Number, cty.UnknownVal(cty.Number).Refine().NumberRangeLowerBound(cty.Zero, true).NewValue()},
		{"refined list length", cty.List(cty.String), cty.UnknownVal(cty.List(cty.String)).Refine().CollectionLengthLowerBound(1).CollectionLengthUpperBound(5).NewValue()},
		{"refined set length", cty.Set(cty.Number), cty.UnknownVal(cty.Set(cty.Number)).Refine().NotNull().CollectionLengthLowerBound(2).NewValue()},
		{"refined map length", cty.Map(cty.String), cty.UnknownVal(cty.Map(cty.String)).Refine().CollectionLengthUpperBound(3).NewValue()},
		{"refined object not null", objAB, cty.UnknownVal(objAB).RefineNotNull()},
		{"refined inside object", objAB, cty.ObjectVal(map[string]cty.Value{
			"a": cty.UnknownVal(cty.String).Refine().StringPrefix("arn:").NewValue(),
			"b": cty.UnknownVal(cty.List(cty.Number)).Refine().NotNull().CollectionLengthLowerBound(2).CollectionLengthUpperBound(2).NewValue(),
		})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			encoded, err := Encode(tc.val, tc.ty)
			if err != nil {
				t.Fatalf("Encode: %s", err)
			}
			if len(encoded.Msgpack) == 0 || len(encoded.JSON) != 0 {
				t.Fatalf("Encode gave %+v; want msgpack only", encoded)
			}
			got, err := Decode(encoded, tc.ty)
			if err != nil {
				t.Fatalf("Decode: %s", err)
			}
			if !got.RawEquals(tc.val) {
				t.Errorf("round trip changed the value\n got: %#v\nwant: %#v", got, tc.val)
			}
		})
	}
}

func TestEncodeDropsMarks(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"password": cty.String, "tags": cty.Map(cty.String)})
	marked := cty.ObjectVal(map[string]cty.Value{
		"password": cty.StringVal("hunter2").Mark("sensitive"),
		"tags":     cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b").Mark("sensitive")}),
	}).Mark("other")
	encoded, err := Encode(marked, ty)
	if err != nil {
		t.Fatalf("Encode of a marked value: %s", err)
	}
	got, err := Decode(encoded, ty)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := marked.UnmarkDeep()
	if !got.RawEquals(want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

func TestEncodeNilValueIsNull(t *testing.T) {
	encoded, err := Encode(cty.NilVal, cty.String)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(encoded, cty.String)
	if err != nil || !got.RawEquals(cty.NullVal(cty.String)) {
		t.Errorf("got %#v, %v; want a null string", got, err)
	}
}

func TestEncodeConvertsToType(t *testing.T) {
	// Configuration evaluates to tuples and objects where the schema says
	// list and map; Encode converts them as the provider expects.
	encoded, err := Encode(cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1)}), cty.List(cty.String))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(encoded, cty.List(cty.String))
	want := cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("1")})
	if err != nil || !got.RawEquals(want) {
		t.Errorf("got %#v, %v; want %#v", got, err, want)
	}
}

func TestEncodeNonConformingValueNamesPath(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"n": cty.Number})
	_, err := Encode(cty.ObjectVal(map[string]cty.Value{"n": cty.StringVal("nope")}), ty)
	if err == nil || !strings.Contains(err.Error(), ".n") {
		t.Errorf("got %v; want an error naming .n", err)
	}
}

func TestDecodeEmptyDynamicIsNull(t *testing.T) {
	got, err := Decode(Dynamic{}, richObjectType)
	if err != nil || !got.RawEquals(cty.NullVal(richObjectType)) {
		t.Errorf("got %#v, %v; want null", got, err)
	}
	if !(Dynamic{}).IsEmpty() || (Dynamic{JSON: []byte("1")}).IsEmpty() {
		t.Error("IsEmpty is wrong")
	}
}

func TestDecodeErrorsAreTyped(t *testing.T) {
	_, err := Decode(Dynamic{Msgpack: []byte{0x81, 0xa1, 'n', 0xa1, 'x'}}, cty.Object(map[string]cty.Type{"n": cty.Number}))
	var decodeErr *DecodeError
	if !errors.As(err, &decodeErr) {
		t.Fatalf("got %T %v; want *DecodeError", err, err)
	}
	if decodeErr.Encoding != EncodingMsgpack || !decodeErr.Path.Equals(cty.GetAttrPath("n")) {
		t.Errorf("got encoding %q path %#v", decodeErr.Encoding, decodeErr.Path)
	}
	if want := `malformed msgpack value at .n: number is required`; err.Error() != want {
		t.Errorf("message %q, want %q", err.Error(), want)
	}
}
