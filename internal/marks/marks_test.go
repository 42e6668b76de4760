package marks

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestContains(t *testing.T) {
	tests := map[string]struct {
		val  cty.Value
		want bool
	}{
		"plain":    {cty.StringVal("a"), false},
		"top":      {cty.StringVal("a").Mark(Sensitive), true},
		"nested":   {cty.ListVal([]cty.Value{cty.StringVal("a").Mark(Sensitive)}), true},
		"deep obj": {cty.ObjectVal(map[string]cty.Value{"x": cty.TupleVal([]cty.Value{cty.True.Mark(Sensitive)})}), true},
		"other":    {cty.StringVal("a").Mark("other"), false},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Contains(test.val, Sensitive); got != test.want {
				t.Errorf("Contains(%#v) = %v, want %v", test.val, got, test.want)
			}
		})
	}
}

func TestStoredEphemeral(t *testing.T) {
	val := cty.ObjectVal(map[string]cty.Value{
		"kept":    cty.StringVal("k"),
		"nulled":  cty.NullVal(cty.String).Mark(Ephemeral),
		"leaking": cty.StringVal("secret").Mark(Ephemeral),
		"hidden":  cty.StringVal("s").Mark(Sensitive),
	})
	got := StoredEphemeral(val)
	if len(got) != 1 || !got[0].Equals(cty.GetAttrPath("leaking")) {
		t.Errorf("StoredEphemeral = %#v, want only .leaking", got)
	}
	if got := StoredEphemeral(cty.StringVal("x").Mark(Ephemeral)); len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("a wholly ephemeral value: %#v", got)
	}
	if got := StoredEphemeral(cty.UnknownVal(cty.String).Mark(Ephemeral)); len(got) != 1 {
		t.Errorf("an unknown ephemeral value: %#v", got)
	}
}
