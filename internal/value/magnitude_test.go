package value

import (
	"errors"
	"math/big"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestNumberMagnitudeBounds(t *testing.T) {
	for _, tc := range []struct {
		text string
		bad  bool
	}{
		{"0", false}, {"1.5", false}, {"-1e308", false}, {"1e10000", false}, {"1e-10000", false},
		{"1e10001", true}, {"-1e99999999", true}, {"1e-10001", true}, {"123e9999", true}, {"0.0001e-9998", true}, {"12.5e9990", false},
	} {
		f, _, err := big.ParseFloat(tc.text, 10, 512, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		if got := NumberTooLarge(f); got != tc.bad {
			t.Errorf("NumberTooLarge(%s) = %t, want %t", tc.text, got, tc.bad)
		}
		doc := []byte(`{"a": [1, {"b": ` + tc.text + `}]}`)
		if err := CheckJSONNumbers(doc); (err != nil) != tc.bad || (err != nil && !errors.Is(err, ErrNumberTooLarge)) {
			t.Errorf("CheckJSONNumbers(%s) = %v, want an error: %t", doc, err, tc.bad)
		}
		v := cty.ObjectVal(map[string]cty.Value{"n": cty.ListVal([]cty.Value{cty.NumberVal(f)})})
		if err := CheckNumbers(v); (err != nil) != tc.bad {
			t.Errorf("CheckNumbers(%s) = %v, want an error: %t", tc.text, err, tc.bad)
		}
	}
}
