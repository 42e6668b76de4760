package tfvalue

import (
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestRoundTrip(t *testing.T) {
	// 512 bits is the precision values arrive with from the wire decoders.
	precise, _, _ := big.ParseFloat("98765432109876543210.123456789", 10, 512, big.ToNearestEven)
	objType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"n": tftypes.Number, "s": tftypes.String, "b": tftypes.Bool,
		"d":    tftypes.DynamicPseudoType,
		"set":  tftypes.Set{ElementType: tftypes.String},
		"tags": tftypes.Map{ElementType: tftypes.String},
		"null": tftypes.List{ElementType: tftypes.Number},
	}}
	tests := map[string]tftypes.Value{
		"precise number": tftypes.NewValue(tftypes.Number, precise),
		"dynamic list": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{
			tftypes.NewValue(tftypes.String, "a"),
		}),
		"dynamic object": tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.Bool}},
			map[string]tftypes.Value{"x": tftypes.NewValue(tftypes.Bool, true)}),
	}
	for name, inner := range tests {
		t.Run(name, func(t *testing.T) {
			dynamic := inner
			number := tftypes.NewValue(tftypes.Number, big.NewFloat(1))
			if inner.Type().Is(tftypes.Number) {
				number = inner
			}
			val := tftypes.NewValue(objType, map[string]tftypes.Value{
				"n": number, "s": tftypes.NewValue(tftypes.String, "x"), "b": tftypes.NewValue(tftypes.Bool, false),
				"d":    dynamic,
				"set":  tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "e")}),
				"tags": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"k": tftypes.NewValue(tftypes.String, "v")}),
				"null": tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, nil),
			})
			data, err := Marshal(val, objType)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Unmarshal(data, objType)
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if !back.Equal(val) {
				t.Errorf("round trip changed the value:\n%v\n%v\n%s", val, back, data)
			}
		})
	}
}

func TestMarshalRejectsUnknown(t *testing.T) {
	val := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	if _, err := Marshal(val, tftypes.String); err == nil || !strings.Contains(err.Error(), "unknown") {
		t.Errorf("Marshal(unknown) error = %v", err)
	}
}

func TestNullUnknowns(t *testing.T) {
	listType := tftypes.List{ElementType: tftypes.String}
	val := tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String, "l": listType}},
		map[string]tftypes.Value{
			"a": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
			"l": tftypes.NewValue(listType, []tftypes.Value{tftypes.NewValue(tftypes.String, "kept")}),
		})
	got, err := NullUnknowns(val)
	if err != nil {
		t.Fatal(err)
	}
	if !got.IsFullyKnown() {
		t.Errorf("unknowns left in %v", got)
	}
	want := tftypes.NewValue(val.Type(), map[string]tftypes.Value{
		"a": tftypes.NewValue(tftypes.String, nil),
		"l": tftypes.NewValue(listType, []tftypes.Value{tftypes.NewValue(tftypes.String, "kept")}),
	})
	if !got.Equal(want) {
		t.Errorf("NullUnknowns = %v, want %v", got, want)
	}
}
