package value

import (
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
)

// The provider side of the wire in most providers is terraform-plugin-go's
// tftypes codec (the plugin framework and SDKv2 both sit on it). These tests
// send values each way between it and this package.

var interopTFType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"id":      tftypes.String,
	"count":   tftypes.Number,
	"big":     tftypes.Number,
	"ratio":   tftypes.Number,
	"on":      tftypes.Bool,
	"tags":    tftypes.Map{ElementType: tftypes.String},
	"ports":   tftypes.List{ElementType: tftypes.Number},
	"names":   tftypes.Set{ElementType: tftypes.String},
	"pair":    tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Bool}},
	"any":     tftypes.DynamicPseudoType,
	"pending": tftypes.String,
	"later":   tftypes.List{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.String}}},
	"absent":  tftypes.Map{ElementType: tftypes.Number},
}}

var interopCtyType = cty.Object(map[string]cty.Type{
	"id":      cty.String,
	"count":   cty.Number,
	"big":     cty.Number,
	"ratio":   cty.Number,
	"on":      cty.Bool,
	"tags":    cty.Map(cty.String),
	"ports":   cty.List(cty.Number),
	"names":   cty.Set(cty.String),
	"pair":    cty.Tuple([]cty.Type{cty.String, cty.Bool}),
	"any":     cty.DynamicPseudoType,
	"pending": cty.String,
	"later":   cty.List(cty.Object(map[string]cty.Type{"x": cty.String})),
	"absent":  cty.Map(cty.Number),
})

func bigPowerOfTwo(exp uint) *big.Float {
	return new(big.Float).SetInt(new(big.Int).Lsh(big.NewInt(1), exp))
}

func interopValues() (tftypes.Value, cty.Value) {
	tfAny := tftypes.List{ElementType: tftypes.Number}
	tf := tftypes.NewValue(interopTFType, map[string]tftypes.Value{
		"id":    tftypes.NewValue(tftypes.String, "i-1"),
		"count": tftypes.NewValue(tftypes.Number, big.NewFloat(-7)),
		"big":   tftypes.NewValue(tftypes.Number, bigPowerOfTwo(200)),
		"ratio": tftypes.NewValue(tftypes.Number, big.NewFloat(0.75)),
		"on":    tftypes.NewValue(tftypes.Bool, true),
		"tags": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{
			"env": tftypes.NewValue(tftypes.String, "prod"),
			"nil": tftypes.NewValue(tftypes.String, nil),
		}),
		"ports": tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, []tftypes.Value{
			tftypes.NewValue(tftypes.Number, big.NewFloat(80)),
			tftypes.NewValue(tftypes.Number, tftypes.UnknownValue),
		}),
		"names": tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{
			tftypes.NewValue(tftypes.String, "a"), tftypes.NewValue(tftypes.String, "b"),
		}),
		"pair": tftypes.NewValue(tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Bool}}, []tftypes.Value{
			tftypes.NewValue(tftypes.String, "p"), tftypes.NewValue(tftypes.Bool, false),
		}),
		"any":     tftypes.NewValue(tfAny, []tftypes.Value{tftypes.NewValue(tftypes.Number, big.NewFloat(1))}),
		"pending": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"later":   tftypes.NewValue(interopTFType.AttributeTypes["later"], tftypes.UnknownValue),
		"absent":  tftypes.NewValue(tftypes.Map{ElementType: tftypes.Number}, nil),
	})
	ctyVal := cty.ObjectVal(map[string]cty.Value{
		"id":      cty.StringVal("i-1"),
		"count":   cty.NumberIntVal(-7),
		"big":     cty.NumberVal(bigPowerOfTwo(200)),
		"ratio":   cty.NumberFloatVal(0.75),
		"on":      cty.True,
		"tags":    cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod"), "nil": cty.NullVal(cty.String)}),
		"ports":   cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.UnknownVal(cty.Number)}),
		"names":   cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"pair":    cty.TupleVal([]cty.Value{cty.StringVal("p"), cty.False}),
		"any":     cty.ListVal([]cty.Value{cty.NumberIntVal(1)}),
		"pending": cty.UnknownVal(cty.String),
		"later":   cty.UnknownVal(cty.List(cty.Object(map[string]cty.Type{"x": cty.String}))),
		"absent":  cty.NullVal(cty.Map(cty.Number)),
	})
	return tf, ctyVal
}

func TestDecodeWhatProvidersSend(t *testing.T) {
	tfVal, want := interopValues()
	sent, err := tfprotov6.NewDynamicValue(interopTFType, tfVal)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(Dynamic{Msgpack: sent.MsgPack}, interopCtyType)
	if err != nil {
		t.Fatal(err)
	}
	if !got.RawEquals(want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

func TestProvidersDecodeWhatWeSend(t *testing.T) {
	want, ctyVal := interopValues()
	// Refinements are extra knowledge a provider's codec may ignore; the
	// value must still read as unknown there.
	ctyVal = cty.ObjectVal(map[string]cty.Value{
		"id":      ctyVal.GetAttr("id"),
		"count":   ctyVal.GetAttr("count"),
		"big":     ctyVal.GetAttr("big"),
		"ratio":   ctyVal.GetAttr("ratio"),
		"on":      ctyVal.GetAttr("on").Mark("sensitive"),
		"tags":    ctyVal.GetAttr("tags"),
		"ports":   cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.UnknownVal(cty.Number).Refine().NumberRangeLowerBound(cty.Zero, true).NewValue()}),
		"names":   ctyVal.GetAttr("names"),
		"pair":    ctyVal.GetAttr("pair"),
		"any":     ctyVal.GetAttr("any"),
		"pending": cty.UnknownVal(cty.String).Refine().NotNull().StringPrefix("arn:aws:").NewValue(),
		"later":   cty.UnknownVal(cty.List(cty.Object(map[string]cty.Type{"x": cty.String}))).Refine().CollectionLengthLowerBound(1).NewValue(),
		"absent":  ctyVal.GetAttr("absent"),
	})
	encoded, err := Encode(ctyVal, interopCtyType)
	if err != nil {
		t.Fatal(err)
	}
	got, err := (tfprotov6.DynamicValue{MsgPack: encoded.Msgpack}).Unmarshal(interopTFType)
	if err != nil {
		t.Fatalf("the provider codec cannot read our encoding: %s", err)
	}
	if diffs, err := want.Diff(got); err != nil || len(diffs) > 0 {
		t.Errorf("the provider read a different value: %v %v", diffs, err)
	}
}
