package repl

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/marks"
)

func TestFormatValue(t *testing.T) {
	tests := []struct {
		val  cty.Value
		want string
	}{
		{cty.StringVal("a\"b"), `"a\"b"`},
		{cty.NumberFloatVal(0.1), `0.1`},
		{cty.NumberIntVal(-7), `-7`},
		{cty.NullVal(cty.Map(cty.Number)), `tomap(null) /* of number */`},
		{cty.NullVal(cty.Object(map[string]cty.Type{"a": cty.Bool})), `null /* object */`},
		{cty.UnknownVal(cty.String).Mark(marks.Sensitive), `(known after apply)`},
		{cty.ListVal([]cty.Value{cty.StringVal("x").Mark(marks.Sensitive)}), "tolist([\n  (sensitive value),\n])"},
		{cty.StringVal("x").Mark("other"), `"x"`},
		{cty.ListValEmpty(cty.String), `tolist([])`},
		{cty.MapValEmpty(cty.String), `tomap({})`},
		{cty.TupleVal([]cty.Value{cty.StringVal("a\nb")}), "[\n  <<-EOT\n  a\n  b\n  EOT,\n]"},
	}
	for _, test := range tests {
		if got := FormatValue(test.val, 0); got != test.want {
			t.Errorf("FormatValue(%#v)\ngot  %q\nwant %q", test.val, got, test.want)
		}
	}
}

func TestTypeString(t *testing.T) {
	tests := []struct {
		ty   cty.Type
		want string
	}{
		{cty.String, "string"},
		{cty.DynamicPseudoType, "dynamic"},
		{cty.Set(cty.Number), "set(number)"},
		{cty.EmptyObject, "object({})"},
		{cty.Map(cty.Object(map[string]cty.Type{"b": cty.Bool, "a": cty.String})), "map(\n    object({\n        a: string,\n        b: bool,\n    }),\n)"},
	}
	for _, test := range tests {
		if got := TypeString(test.ty); got != test.want {
			t.Errorf("TypeString(%#v)\ngot  %q\nwant %q", test.ty, got, test.want)
		}
	}
}

func TestNeedsMoreInput(t *testing.T) {
	tests := map[string]bool{
		"1 + 2\n":                     false,
		"[\n":                         true,
		"{ a = [1,\n":                 true,
		"{ a = [1] }\n":               false,
		"upper(\n":                    true,
		"\"${\n":                      true,
		"<<EOT\nhello\n":              true,
		"<<EOT\nhello\nEOT\n":         false,
		"\"[ not a bracket\"\n":       false,
		"\"%{ for x in [1] }${x}\"\n": false, // an error, not unfinished input
	}
	for src, want := range tests {
		if got := NeedsMoreInput(src); got != want {
			t.Errorf("NeedsMoreInput(%q) = %v, want %v", src, got, want)
		}
	}
}
