package value

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// MaxDecimalExponent bounds the numbers Terrane accepts from files: a
// number is written out in full decimal wherever it is shown or stored as
// text (JSON, the msgpack string form of numbers that do not fit a float64),
// so 1e9999999 would take minutes and megabytes to write each time. Numbers
// up to 1e10000 in magnitude, and down to 1e-10000, are far beyond anything
// infrastructure needs and still write out in a few milliseconds.
const MaxDecimalExponent = 10000

// maxBinaryExponent is MaxDecimalExponent in powers of two, rounded up.
const maxBinaryExponent = 33220 // ⌈10000 · log2(10)⌉

// NumberTooLarge reports whether a number's magnitude (or, for a tiny one,
// its reciprocal's) is beyond MaxDecimalExponent.
func NumberTooLarge(f *big.Float) bool {
	if f == nil || f.IsInf() || f.Sign() == 0 {
		return false
	}
	exp := f.MantExp(nil)
	return exp > maxBinaryExponent || exp < -maxBinaryExponent
}

// ErrNumberTooLarge is wrapped by the errors that report such a number.
var ErrNumberTooLarge = errors.New("number out of range")

// CheckJSONNumbers reports the first number in the JSON document src whose
// decimal exponent is beyond MaxDecimalExponent, before anything decodes
// it into a value that would take minutes to write out again. A document
// that is not valid JSON is left for the real decoder to report.
func CheckJSONNumbers(src []byte) error {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return nil
		}
		if num, ok := tok.(json.Number); ok && decimalExponentTooLarge(string(num)) {
			return fmt.Errorf("%w: %s is beyond the ±1e%d Terrane accepts", ErrNumberTooLarge, abbreviate(string(num)), MaxDecimalExponent)
		}
	}
}

// decimalExponentTooLarge looks at a JSON number's text: its exponent plus
// the digits before the point (or the zeros after it, for small numbers).
func decimalExponentTooLarge(text string) bool {
	mantissa, exponent, hasExp := strings.Cut(strings.ToLower(text), "e")
	exp := 0
	if hasExp {
		n, err := strconv.Atoi(exponent)
		if err != nil {
			return true // an exponent that does not even fit an int
		}
		exp = n
	}
	// The exponent of the leading digit: 123e4 is 1.23e6, 0.001e4 is 1e1.
	whole, frac, _ := strings.Cut(strings.TrimLeft(mantissa, "-"), ".")
	if trimmed := strings.TrimLeft(whole, "0"); trimmed != "" {
		exp += len(trimmed) - 1
	} else if digits := strings.TrimLeft(frac, "0"); digits != "" {
		exp -= len(frac) - len(digits) + 1
	}
	return exp > MaxDecimalExponent || exp < -MaxDecimalExponent
}

func abbreviate(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:20] + "…" + s[len(s)-15:]
}

// CheckNumbers reports the first number in v (at any depth) whose
// magnitude is beyond MaxDecimalExponent.
func CheckNumbers(v cty.Value) error {
	var found error
	_ = cty.Walk(v, func(path cty.Path, elem cty.Value) (bool, error) {
		if found != nil {
			return false, nil
		}
		if elem.Type() == cty.Number && elem.IsKnown() && !elem.IsNull() && !elem.IsMarked() && NumberTooLarge(elem.AsBigFloat()) {
			found = fmt.Errorf("%w: a number beyond the ±1e%d Terrane accepts", ErrNumberTooLarge, MaxDecimalExponent)
		}
		return true, nil
	})
	return found
}
