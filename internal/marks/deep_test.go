package marks

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestMarkedFindsMarksAtAnyDepth(t *testing.T) {
	secret := cty.StringVal("s").Mark(Sensitive)
	for name, tc := range map[string]struct {
		val  cty.Value
		want bool
	}{
		"plain string":       {cty.StringVal("a"), false},
		"null":               {cty.NullVal(cty.String), false},
		"unknown":            {cty.UnknownVal(cty.String), false},
		"marked unknown":     {cty.UnknownVal(cty.String).Mark(Ephemeral), true},
		"plain object":       {cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("a"), "b": cty.ListVal([]cty.Value{cty.True})}), false},
		"object attribute":   {cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("a"), "b": secret}), true},
		"list in object":     {cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cty.StringVal("x"), secret})}), true},
		"map element":        {cty.MapVal(map[string]cty.Value{"k": secret}), true},
		"tuple element":      {cty.TupleVal([]cty.Value{cty.True, cty.ObjectVal(map[string]cty.Value{"s": secret})}), true},
		"set element":        {cty.SetVal([]cty.Value{cty.StringVal("x"), secret}), true},
		"marked null object": {cty.NullVal(cty.EmptyObject).Mark(Sensitive), true},
		"empty list":         {cty.ListValEmpty(cty.String), false},
	} {
		if got := Marked(tc.val); got != tc.want {
			t.Errorf("%s: Marked = %v, want %v", name, got, tc.want)
		}
		if got, want := Marked(tc.val), tc.val.ContainsMarked(); got != want {
			t.Errorf("%s: Marked = %v, cty's ContainsMarked %v", name, got, want)
		}
	}
}

func TestDeepHelpersAgreeWithCty(t *testing.T) {
	secret := cty.StringVal("s").Mark(Sensitive)
	for _, val := range []cty.Value{
		cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("a")}),
		cty.ObjectVal(map[string]cty.Value{"a": secret, "l": cty.ListVal([]cty.Value{secret.Mark(Ephemeral)})}),
	} {
		got, gotMarks := UnmarkDeep(val)
		want, wantMarks := val.UnmarkDeep()
		if !got.RawEquals(want) || len(gotMarks) != len(wantMarks) {
			t.Errorf("UnmarkDeep(%#v) = %#v %v, cty gives %#v %v", val, got, gotMarks, want, wantMarks)
		}
		got, gotPaths := UnmarkDeepWithPaths(val)
		want, wantPaths := val.UnmarkDeepWithPaths()
		if !got.RawEquals(want) || len(gotPaths) != len(wantPaths) {
			t.Errorf("UnmarkDeepWithPaths(%#v) = %#v %v, cty gives %#v %v", val, got, gotPaths, want, wantPaths)
		}
		if back := MarkWithPaths(got, gotPaths); !back.RawEquals(val.MarkWithPaths(nil).MarkWithPaths(wantPaths)) && !back.RawEquals(val) {
			t.Errorf("MarkWithPaths does not restore %#v: %#v", val, back)
		}
	}
	plain := cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("a")})
	if got := MarkWithPaths(plain, nil); !got.RawEquals(plain) {
		t.Errorf("MarkWithPaths with no paths changed the value: %#v", got)
	}
}

// TestRawEqualsSeesNestedMarks keeps the comparisons above meaningful: a
// nested mark makes two values differ.
func TestRawEqualsSeesNestedMarks(t *testing.T) {
	plain := cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})
	marked := cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x").Mark(Sensitive)})
	if plain.RawEquals(marked) {
		t.Fatal("RawEquals ignores nested marks")
	}
}
