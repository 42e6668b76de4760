package addrs

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"
)

// InstanceKey tells apart the instances of a resource, module call or
// provider configuration that uses count (IntKey) or for_each (StringKey).
// An object without either has NoKey.
type InstanceKey interface {
	instanceKeySigil()
	UniqueKeyer

	// String returns the key in index syntax, like [3] or ["a"]; NoKey is "".
	String() string

	// Value returns the key as count.index or each.key would see it.
	Value() cty.Value
}

// NoKey is the key of an object that has neither count nor for_each.
var NoKey InstanceKey

// IntKey is the key of one instance of an object with count.
type IntKey int

// StringKey is the key of one instance of an object with for_each.
type StringKey string

func (IntKey) instanceKeySigil()    {}
func (StringKey) instanceKeySigil() {}
func (IntKey) uniqueKeySigil()      {}
func (StringKey) uniqueKeySigil()   {}

// UniqueKey implements UniqueKeyer.
func (k IntKey) UniqueKey() UniqueKey { return k }

// UniqueKey implements UniqueKeyer.
func (k StringKey) UniqueKey() UniqueKey { return k }

func (k IntKey) String() string { return "[" + strconv.Itoa(int(k)) + "]" }

func (k StringKey) String() string { return "[" + quoteHCLString(string(k)) + "]" }

// Value returns the key as a number.
func (k IntKey) Value() cty.Value { return cty.NumberIntVal(int64(k)) }

// Value returns the key as a string.
func (k StringKey) Value() cty.Value { return cty.StringVal(string(k)) }

// instanceKeyString prints key, allowing for NoKey.
func instanceKeyString(key InstanceKey) string {
	if key == NoKey {
		return ""
	}
	return key.String()
}

// ParseInstanceKey converts an index value, as written between brackets in an
// address, into an instance key. Whole numbers become IntKey and strings
// become StringKey; anything else is an error.
func ParseInstanceKey(key cty.Value) (InstanceKey, error) {
	switch {
	case key.IsNull() || !key.IsKnown():
		return NoKey, fmt.Errorf("instance key must not be null or unknown")
	case key.Type() == cty.String:
		return StringKey(key.AsString()), nil
	case key.Type() == cty.Number:
		var index int
		if err := gocty.FromCtyValue(key, &index); err != nil {
			return NoKey, fmt.Errorf("invalid number instance key: %w", err)
		}
		if index < 0 {
			return NoKey, fmt.Errorf("instance key must not be negative")
		}
		return IntKey(index), nil
	default:
		return NoKey, fmt.Errorf("instance key must be a string or a whole number, not %s", key.Type().FriendlyName())
	}
}

// instanceKeyFromTraverser reads an index step of a traversal as a key.
func instanceKeyFromTraverser(step hcl.Traverser) (InstanceKey, hcl.Diagnostics) {
	index, ok := step.(hcl.TraverseIndex)
	if !ok {
		return NoKey, nil
	}
	key, err := ParseInstanceKey(index.Key)
	if err != nil {
		rng := index.SrcRange
		return NoKey, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid instance key",
			Detail:   fmt.Sprintf("The index of an instance must be a string or a whole number: %s.", err),
			Subject:  &rng,
		}}
	}
	return key, nil
}

// quoteHCLString writes s as an HCL quoted string literal, escaping what the
// HCL parser would otherwise read as an escape or a template sequence, so
// that the result parses back to exactly s.
func quoteHCLString(s string) string {
	var buf strings.Builder
	buf.Grow(len(s) + 2)
	buf.WriteByte('"')
	for i, r := range s {
		switch r {
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		case '\t':
			buf.WriteString(`\t`)
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '$', '%':
			buf.WriteRune(r)
			if strings.HasPrefix(s[i+1:], "{") {
				buf.WriteRune(r) // "${" would start an interpolation; "$${" is literal
			}
		default:
			if !unicode.IsPrint(r) {
				if r > 0xffff {
					fmt.Fprintf(&buf, `\U%08x`, r)
				} else {
					fmt.Fprintf(&buf, `\u%04x`, r)
				}
				continue
			}
			buf.WriteRune(r)
		}
	}
	buf.WriteByte('"')
	return buf.String()
}
