package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/marks"
)

func TestEvalCount(t *testing.T) {
	tests := []struct {
		expr         string
		allowUnknown bool
		excludable   string
		want         int
		wantKnown    bool
		wantErr      string
	}{
		{expr: `length(var.zones)`, want: 2, wantKnown: true},
		{expr: `"3"`, want: 3, wantKnown: true},
		{expr: `0`, want: 0, wantKnown: true},
		{expr: `-1`, wantErr: "must be greater than or equal to zero"},
		{expr: `1.5`, wantErr: "value must be a whole number"},
		{expr: `null`, wantErr: `The given "count" argument value is null`},
		// OpenTofu allows a sensitive count: the number is not the secret.
		{expr: `length(var.secret)`, want: len("hunter2"), wantKnown: true},
		{expr: `length(var.ports)`, wantErr: "use the -target option to first apply only the resources that the count depends on"},
		{expr: `length(var.ports)`, excludable: `module.a["x"].thing.b`, wantErr: `use the planning option -exclude=module.a\[\"x\"\].thing.b to first apply without this object`},
		{expr: `length(var.token)`, wantErr: "Ephemeral values, or values derived from ephemeral values, cannot be used as count arguments."},
		{expr: `length(var.token)`, allowUnknown: true, wantErr: "cannot be used as count arguments"},
		{expr: `length(var.ports)`, allowUnknown: true},
		{expr: `"many"`, wantErr: `Invalid expression value: a number is required.`},
	}
	scope := &Scope{Data: exampleData()}
	for _, test := range tests {
		t.Run(test.expr, func(t *testing.T) {
			got, known, diags := scope.EvalCount(parseExpr(t, test.expr), Unknowns{Allow: test.allowUnknown, Excludable: test.excludable})
			if test.wantErr != "" {
				if !strings.Contains(diags.Error(), test.wantErr) {
					t.Fatalf("error %q does not contain %q", diags.Error(), test.wantErr)
				}
				if !strings.Contains(diags.Error(), "main.tf:1,") {
					t.Fatalf("error %q does not point at the expression", diags.Error())
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if got != test.want || known != test.wantKnown {
				t.Fatalf("got %d (known %v), want %d (known %v)", got, known, test.want, test.wantKnown)
			}
		})
	}
}

func TestEvalForEach(t *testing.T) {
	tests := []struct {
		expr         string
		allowUnknown bool
		excludable   string
		want         map[string]cty.Value
		wantErr      string
	}{
		{expr: `toset(var.zones)`, want: map[string]cty.Value{"a": cty.StringVal("a"), "b": cty.StringVal("b")}},
		{expr: `{x = 1, y = var.pending}`, want: map[string]cty.Value{"x": cty.NumberIntVal(1), "y": cty.UnknownVal(cty.String).RefineNotNull()}},
		{expr: `{}`, want: map[string]cty.Value{}},
		{expr: `var.zones`, wantErr: "must be a map, or set of strings, and you have provided a value of type list of string"},
		{expr: `toset([1])`, wantErr: "supports sets of strings, but you have provided a set containing type number"},
		{expr: `null`, wantErr: `the given "for_each" argument value is null`},
		{expr: `toset([var.secret])`, wantErr: "cannot be used as for_each arguments"},
		{expr: `toset([var.pending])`, wantErr: "The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply"},
		{expr: `toset([var.pending])`, excludable: "thing.b", wantErr: "use the planning option -exclude=thing.b to first apply"},
		{expr: `{(var.pending) = 1}`, wantErr: "The \"for_each\" value includes keys or set values from resource attributes"},
		{expr: `toset([var.token])`, wantErr: "Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments."},
		{expr: `{a = var.token}`, want: map[string]cty.Value{"a": cty.StringVal("tok").Mark(marks.Ephemeral)}},
		{expr: `toset([var.pending])`, allowUnknown: true},
	}
	scope := &Scope{Data: exampleData()}
	for _, test := range tests {
		t.Run(test.expr, func(t *testing.T) {
			got, known, diags := scope.EvalForEach(parseExpr(t, test.expr), Unknowns{Allow: test.allowUnknown, Excludable: test.excludable})
			if test.wantErr != "" {
				if !strings.Contains(diags.Error(), test.wantErr) {
					t.Fatalf("error %q does not contain %q", diags.Error(), test.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if known != (test.want != nil) {
				t.Fatalf("known = %v", known)
			}
			if len(got) != len(test.want) {
				t.Fatalf("got %#v, want %#v", got, test.want)
			}
			for k, v := range test.want {
				if !got[k].RawEquals(v) {
					t.Fatalf("[%s] = %#v, want %#v", k, got[k], v)
				}
			}
		})
	}
}
