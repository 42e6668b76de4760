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
