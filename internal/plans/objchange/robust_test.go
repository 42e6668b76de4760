package objchange

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// Values a misbehaving provider could send, decoded against the wrong
// type or not at all, must give errors or a best effort, never a panic.
func TestOddInputsDoNotPanic(t *testing.T) {
	sch := blockSchema()
	good := blocks(str("i"), map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("a"), str("u"))})})
	odd := []cty.Value{
		cty.DynamicVal,
		cty.NullVal(cty.DynamicPseudoType),
		cty.UnknownVal(sch.ImpliedType()),
		cty.EmptyObjectVal,
		obj(map[string]cty.Value{"id": num(1)}),
		blocks(str("i"), map[string]cty.Value{"list": cty.NullVal(cty.List(innerType)), "set": cty.UnknownVal(cty.Set(innerType))}),
		str("not an object"),
	}
	for i, v := range odd {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("input %d (%#v) panicked: %v", i, v, r)
				}
			}()
			ProposedNew(sch, good, v)
			ProposedNew(sch, v, good)
			PlannedDataResourceObject(sch, v)
			AssertPlanValid(sch, good, good, v)
			AssertPlanValid(sch, v, good, good)
			AssertObjectCompatible(sch, good, v)
			AssertObjectCompatible(sch, v, good)
			AssertPlannedValueValid(sch, good, v)
			NormalizeObjectFromLegacySDK(v, sch)
			AssertWhollyKnown(v)
			ActionForChange(good, v)
			describe(v)
		}()
	}
}

func TestDescribe(t *testing.T) {
	long := make([]cty.Value, 8)
	for i := range long {
		long[i] = num(int64(i))
	}
	tests := []struct {
		v    cty.Value
		want string
	}{
		{str("a\"b"), `"a\"b"`},
		{num(42), "42"},
		{cty.NumberFloatVal(1.5), "1.5"},
		{cty.True, "true"},
		{nullS, "null"},
		{unkS, "(known after apply)"},
		{unkS.RefineNotNull(), "(known after apply, not null)"},
		{unkN.Refine().NumberRangeLowerBound(num(0), false).NewValue(), "(known after apply, > 0)"},
		{cty.ListVal(long), "[0, 1, 2, 3, 4, …(3 more)]"},
		{cty.SetVal([]cty.Value{str("x")}), `toset(["x"])`},
		{obj(map[string]cty.Value{"b": num(1), "a": str("x")}), `{a = "x", b = 1}`},
		{str("s").Mark("sensitive"), `"s"`},
	}
	for _, test := range tests {
		if got := describe(test.v); got != test.want {
			t.Errorf("describe(%#v) = %s, want %s", test.v, got, test.want)
		}
	}
	// A long string is cut after 60 characters, on a character boundary.
	got := describe(str(strings.Repeat("é", 100)))
	if want := `"` + strings.Repeat("é", 60) + `…"`; got != want {
		t.Errorf("long string described as %s, want %s", got, want)
	}
}
