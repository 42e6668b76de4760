package value

import (
	"errors"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestDecodeJSON(t *testing.T) {
	objTy := cty.Object(map[string]cty.Type{
		"name":  cty.String,
		"size":  cty.Number,
		"tags":  cty.Map(cty.String),
		"items": cty.List(cty.Object(map[string]cty.Type{"on": cty.Bool})),
		"extra": cty.DynamicPseudoType,
	})
	tests := []struct {
		name string
		ty   cty.Type
		json string
		want cty.Value
	}{
		{"object", objTy, `{"name":"a","size":12345678901234567890123,"tags":{"k":"v"},"items":[{"on":true}],"extra":{"value":[1,"x"],"type":["tuple",["number","string"]]}}`,
			cty.ObjectVal(map[string]cty.Value{
				"name":  cty.StringVal("a"),
				"size":  mustParseNumber(t, "12345678901234567890123"),
				"tags":  cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
				"items": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"on": cty.True})}),
				"extra": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("x")}),
			})},
		{"absent attributes are null", objTy, `{"name":"a"}`, cty.ObjectVal(map[string]cty.Value{
			"name":  cty.StringVal("a"),
			"size":  cty.NullVal(cty.Number),
			"tags":  cty.NullVal(cty.Map(cty.String)),
			"items": cty.NullVal(cty.List(cty.Object(map[string]cty.Type{"on": cty.Bool}))),
			"extra": cty.NullVal(cty.DynamicPseudoType),
		})},
		{"null", objTy, `null`, cty.NullVal(objTy)},
		{"high precision decimal", cty.Number, `0.30000000000000000000000000001`, mustParseNumber(t, "0.30000000000000000000000000001")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode(Dynamic{JSON: []byte(tc.json)}, tc.ty)
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestDecodeJSONErrors(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"ports": cty.List(cty.Number)})
	tests := []struct {
		name     string
		json     string
		wantText string
	}{
		{"not JSON", `{"ports": [1,`, "malformed JSON value"},
		{"wrong element", `{"ports": [1, "x"]}`, `at .ports[1]`},
		{"unknown attribute", `{"port": []}`, "port"},
		{"trailing data", `{"ports": []} {}`, "malformed JSON value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeJSON([]byte(tc.json), ty)
			var decodeErr *DecodeError
			if !errors.As(err, &decodeErr) || decodeErr.Encoding != EncodingJSON {
				t.Fatalf("got %v; want a JSON *DecodeError", err)
			}
			if !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %q does not mention %q", err, tc.wantText)
			}
		})
	}
}

func TestEncodeJSON(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"a": cty.List(cty.String), "d": cty.DynamicPseudoType})
	val := cty.ObjectVal(map[string]cty.Value{
		"a": cty.ListVal([]cty.Value{cty.StringVal("x").Mark("sensitive")}),
		"d": cty.NumberIntVal(3),
	})
	b, err := EncodeJSON(val, ty)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":["x"],"d":{"value":3,"type":"number"}}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	back, err := DecodeJSON(b, ty)
	want, _ := val.UnmarkDeep()
	if err != nil || !back.RawEquals(want) {
		t.Errorf("round trip gave %#v, %v", back, err)
	}
}

func TestEncodeJSONRefusesUnknowns(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"a": cty.List(cty.String)})
	val := cty.ObjectVal(map[string]cty.Value{"a": cty.ListVal([]cty.Value{cty.StringVal("x"), cty.UnknownVal(cty.String)})})
	_, err := EncodeJSON(val, ty)
	if err == nil || !strings.Contains(err.Error(), ".a[1] is not known yet") {
		t.Errorf("got %v; want an error naming .a[1]", err)
	}
	_, err = EncodeJSON(cty.UnknownVal(ty), ty)
	if err == nil || !strings.Contains(err.Error(), "value at . is not known") {
		t.Errorf("got %v; want an error about the whole value", err)
	}
}
