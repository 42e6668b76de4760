package value

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/zclconf/go-cty/cty"
)

// msgpackOf builds wire bytes with the msgpack library, item by item, the
// way another implementation of the protocol would write them.
func msgpackOf(t testing.TB, write func(enc *msgpack.Encoder) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	if err := write(enc); err != nil {
		t.Fatalf("building msgpack: %s", err)
	}
	return buf.Bytes()
}

// unknownExt12 is an unknown value with refinements: extension type 12 whose
// payload is a msgpack map of refinement keys to values.
func unknownExt12(t testing.TB, refinements ...any) []byte {
	t.Helper()
	payload := msgpackOf(t, func(enc *msgpack.Encoder) error {
		if err := enc.EncodeMapLen(len(refinements) / 2); err != nil {
			return err
		}
		for _, item := range refinements {
			if err := enc.Encode(item); err != nil {
				return err
			}
		}
		return nil
	})
	return msgpackOf(t, func(enc *msgpack.Encoder) error {
		if err := enc.EncodeExtHeader(12, len(payload)); err != nil {
			return err
		}
		_, err := enc.Writer().Write(payload)
		return err
	})
}

// TestWireFormatOfEncodedValues pins the bytes other implementations read:
// numbers as the smallest msgpack int, floats as float64 only when exact, and
// everything else as a decimal string; unknowns as fixext1 type 0 unless
// refined.
func TestWireFormatOfEncodedValues(t *testing.T) {
	tests := []struct {
		name string
		ty   cty.Type
		val  cty.Value
		want []byte
	}{
		{"small int is a fixint", cty.Number, cty.NumberIntVal(42), []byte{0x2a}},
		{"negative int", cty.Number, cty.NumberIntVal(-1), []byte{0xff}},
		{"exact float is float64", cty.Number, cty.NumberFloatVal(1.5), []byte{0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0}},
		{"decimal travels as a string", cty.Number, mustParseNumber(t, "0.1"), append([]byte{0xa3}, "0.1"...)},
		{"big int travels as a string", cty.Number, mustParseNumber(t, "18446744073709551616"), append([]byte{0xb4}, "18446744073709551616"...)},
		{"null", cty.String, cty.NullVal(cty.String), []byte{0xc0}},
		{"wholly unknown", cty.String, cty.UnknownVal(cty.String), []byte{0xd4, 0, 0}},
		{"dynamic unknown", cty.DynamicPseudoType, cty.DynamicVal, []byte{0xd4, 0, 0}},
		{"refined unknown", cty.String, cty.UnknownVal(cty.String).Refine().StringPrefixFull("ab").NewValue(),
			[]byte{0xc7, 5, 12, 0x81, 2, 0xa2, 'a', 'b'}},
		{"dynamic is [type JSON, value]", cty.DynamicPseudoType, cty.True,
			append(append([]byte{0x92, 0xc4, 6}, `"bool"`...), 0xc3)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Encode(tc.val, tc.ty)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Msgpack, tc.want) {
				t.Errorf("got % x, want % x", got.Msgpack, tc.want)
			}
		})
	}
}

// TestDecodeForeignEncodings decodes encodings that other implementations may
// write and Encode never does.
func TestDecodeForeignEncodings(t *testing.T) {
	tests := []struct {
		name string
		ty   cty.Type
		wire []byte
		want cty.Value
	}{
		{"uint64 beyond int64", cty.Number, msgpackOf(t, func(e *msgpack.Encoder) error { return e.EncodeUint64(math.MaxUint64) }),
			cty.NumberUIntVal(math.MaxUint64)},
		{"int as int64", cty.Number, msgpackOf(t, func(e *msgpack.Encoder) error { return e.EncodeInt64(7) }), cty.NumberIntVal(7)},
		{"float32", cty.Number, msgpackOf(t, func(e *msgpack.Encoder) error { return e.EncodeFloat32(0.25) }), cty.NumberFloatVal(0.25)},
		{"number as string", cty.Number, msgpackOf(t, func(e *msgpack.Encoder) error { return e.EncodeString("123456789012345678901234567890.5") }),
			mustParseNumber(t, "123456789012345678901234567890.5")},
		{"legacy unknown fixext1", cty.List(cty.String), []byte{0xd4, 0, 0}, cty.UnknownVal(cty.List(cty.String))},
		{"legacy unknown with another payload byte", cty.Bool, []byte{0xd4, 0, 0x7f}, cty.UnknownVal(cty.Bool)},
		{"legacy unknown, empty ext8", cty.Number, []byte{0xc7, 0, 0}, cty.UnknownVal(cty.Number)},
		{"protocol example: unknown string starting with https://", cty.String, unknownExt12(t, 2, "https://"),
			cty.UnknownVal(cty.String).Refine().StringPrefixFull("https://").NewValue()},
		{"not null", cty.Map(cty.String), unknownExt12(t, 1, false), cty.UnknownVal(cty.Map(cty.String)).RefineNotNull()},
		{"number bounds", cty.Number, unknownExt12(t, 3, []any{-5, true}, 4, []any{"1e100", false}),
			cty.UnknownVal(cty.Number).Refine().NumberRangeLowerBound(cty.NumberIntVal(-5), true).
				NumberRangeUpperBound(mustParseNumber(t, "1e100"), false).NewValue()},
		{"length bounds", cty.Set(cty.String), unknownExt12(t, 5, 1, 6, 4),
			cty.UnknownVal(cty.Set(cty.String)).Refine().CollectionLengthLowerBound(1).CollectionLengthUpperBound(4).NewValue()},
		{"future refinement keys are ignored", cty.String, unknownExt12(t, 1, false, 99, "later"), cty.UnknownVal(cty.String).RefineNotNull()},
		{"refinements of a dynamic unknown are ignored", cty.DynamicPseudoType, unknownExt12(t, 1, false), cty.DynamicVal},
		{"type JSON as a string", cty.DynamicPseudoType, msgpackOf(t, func(e *msgpack.Encoder) error {
			return e.Encode([]any{`["list","number"]`, []any{1, 2}})
		}), cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)})},
		{"nil dynamic", cty.DynamicPseudoType, []byte{0xc0}, cty.NullVal(cty.DynamicPseudoType)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeMsgpack(tc.wire, tc.ty)
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

// TestDecodeMalformedMsgpack feeds inputs a broken or hostile provider could
// send; each must be an error that says what is wrong and where.
func TestDecodeMalformedMsgpack(t *testing.T) {
	objN := cty.Object(map[string]cty.Type{"n": cty.Number, "s": cty.String})
	tests := []struct {
		name     string
		ty       cty.Type
		wire     []byte
		wantPath cty.Path
		wantText string
	}{
		{"wrong primitive", objN, msgpackOf(t, func(e *msgpack.Encoder) error {
			return e.Encode(map[string]any{"n": true, "s": "x"})
		}), cty.GetAttrPath("n"), "number is required"},
		{"unparseable number string", cty.List(cty.Number), msgpackOf(t, func(e *msgpack.Encoder) error {
			return e.Encode([]any{1, "twelve"})
		}), cty.IndexIntPath(1), "number is required"},
		{"truncated", cty.String, []byte{0xa5, 'a', 'b'}, nil, "ends early"},
		{"array longer than the input", cty.List(cty.String), []byte{0xdd, 0x30, 0x30, 0, 0, 0xc0}, nil, "declares 808452096 elements but only 1 bytes follow"},
		{"map longer than the input", cty.Map(cty.String), []byte{0xdf, 0x7f, 0xff, 0xff, 0xff, 0xa0, 0xa0}, nil, "declares 2147483647 entries"},
		{"integer map key", cty.Map(cty.String), []byte{0x81, 0x01, 0xa1, 'a'}, nil, "map key is not a string (msgpack type byte 0x01)"},
		{"nil object key", cty.Object(map[string]cty.Type{"a": cty.String}), []byte{0x81, 0xc0, 0xa1, 'a'}, nil, "map key is not a string"},
		{"trailing bytes", cty.String, []byte{0xa1, 'a', 0xc0}, nil, "1 unexpected bytes after the value"},
		{"nested too deep", cty.DynamicPseudoType, append(bytes.Repeat([]byte{0x91}, 3000), 0xc0), nil, "nest more than 2000 levels"},
		{"empty map for an object with attributes", objN, []byte{0x80}, nil, "attribute"},
		{"empty array for a tuple with elements", cty.Tuple([]cty.Type{cty.String}), []byte{0x90}, nil, "1 elements are required"},
		{"missing attribute", objN, msgpackOf(t, func(e *msgpack.Encoder) error {
			return e.Encode(map[string]any{"n": 1})
		}), nil, "object with 2 attributes is required"},
		{"repeated attribute", objN, []byte{0x82, 0xa1, 'n', 1, 0xa1, 'n', 2}, nil, `missing required attribute "s"`},
		{"unexpected attribute", objN, msgpackOf(t, func(e *msgpack.Encoder) error {
			return e.Encode(map[string]any{"n": 1, "zzz": "x"})
		}), cty.GetAttrPath("zzz"), "unsupported attribute"},
		{"NaN", cty.Map(cty.Number), msgpackOf(t, func(e *msgpack.Encoder) error {
			return e.Encode(map[string]any{"a": math.NaN()})
		}), nil, "NaN"},
		{"list of dynamic with different element types", cty.List(cty.DynamicPseudoType), msgpackOf(t, func(e *msgpack.Encoder) error {
			return e.Encode([]any{[]any{`"string"`, "a"}, []any{`"bool"`, true}})
		}), nil, "inconsistent"},
		{"dynamic value not a pair", cty.DynamicPseudoType, msgpackOf(t, func(e *msgpack.Encoder) error {
			return e.Encode([]any{`"string"`})
		}), nil, "exactly two elements"},
		{"dynamic with a bad type", cty.Object(map[string]cty.Type{"d": cty.DynamicPseudoType}), msgpackOf(t, func(e *msgpack.Encoder) error {
			return e.Encode(map[string]any{"d": []any{`"strin"`, "a"}})
		}), cty.GetAttrPath("d"), "invalid"},
		{"unknown extension with payload", cty.String, []byte{0xd5, 5, 1, 2}, nil, "unsupported extension type 0x05"},
		{"contradictory number bounds", cty.Number, unknownExt12(t, 3, []any{10, true}, 4, []any{1, true}), nil, "inconsistent"},
		{"contradictory nullness", cty.String, unknownExt12(t, 1, true, 1, false), nil, "inconsistent"},
		{"string prefix on a number", cty.Number, unknownExt12(t, 2, "x"), nil, "string prefix refinement for non-string type"},
		{"oversize refinements", cty.String, unknownExt12(t, 2, strings.Repeat("x", 2000)), nil, "oversize"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeMsgpack(tc.wire, tc.ty)
			if err == nil {
				t.Fatalf("decoded %#v; want an error", got)
			}
			var decodeErr *DecodeError
			if !errors.As(err, &decodeErr) {
				t.Fatalf("error %T %q is not a *DecodeError", err, err)
			}
			if !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %q does not mention %q", err, tc.wantText)
			}
			if tc.wantPath != nil && !decodeErr.Path.Equals(tc.wantPath) {
				t.Errorf("error path %s, want %s", FormatPath(decodeErr.Path), FormatPath(tc.wantPath))
			}
			if got != cty.DynamicVal {
				t.Errorf("a failed decode returned %#v; want cty.DynamicVal", got)
			}
		})
	}
}
