package objchange

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/plans"
)

func TestActionForChange(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"a": cty.String, "s": cty.Set(cty.String)})
	val := func(a cty.Value, s ...cty.Value) cty.Value {
		set := cty.SetValEmpty(cty.String)
		if len(s) > 0 {
			set = cty.SetVal(s)
		}
		return obj(map[string]cty.Value{"a": a, "s": set})
	}
	tests := map[string]struct {
		prior, planned cty.Value
		want           plans.Action
	}{
		"nothing before or after":      {cty.NullVal(ty), cty.NullVal(ty), plans.NoOp},
		"a new object":                 {cty.NullVal(ty), val(str("x")), plans.Create},
		"an object going away":         {val(str("x")), cty.NullVal(ty), plans.Delete},
		"equal objects":                {val(str("x"), str("1"), str("2")), val(str("x"), str("2"), str("1")), plans.NoOp},
		"a changed attribute":          {val(str("x")), val(str("y")), plans.Update},
		"null versus empty":            {val(nullS), val(str("")), plans.Update},
		"an unknown attribute":         {val(str("x")), val(unkS), plans.Update},
		"an unknown set element":       {val(str("x"), str("1")), val(str("x"), unkS), plans.Update},
		"only sensitivity changed":     {val(str("x")), val(str("x").Mark("sensitive")), plans.Update},
		"the same sensitive value":     {val(str("x").Mark("sensitive")), val(str("x").Mark("sensitive")), plans.NoOp},
		"a refined unknown is unknown": {val(str("x")), val(unkS.RefineNotNull()), plans.Update},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			if got := ActionForChange(test.prior, test.planned); got != test.want {
				t.Errorf("ActionForChange = %s, want %s", got, test.want)
			}
		})
	}
}
