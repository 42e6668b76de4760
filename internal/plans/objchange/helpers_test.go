package objchange

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// Short constructors keep the tables readable.
var (
	str    = cty.StringVal
	num    = cty.NumberIntVal
	nullS  = cty.NullVal(cty.String)
	nullN  = cty.NullVal(cty.Number)
	unkS   = cty.UnknownVal(cty.String)
	unkN   = cty.UnknownVal(cty.Number)
	strMap = cty.Map(cty.String)
)

func obj(attrs map[string]cty.Value) cty.Value { return cty.ObjectVal(attrs) }

// wantErrors checks that errs are exactly as many as the wanted fragments,
// each error containing its fragment (in order) and rendered with its path.
func wantErrors(t *testing.T, errs []error, want ...string) {
	t.Helper()
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(errs), len(want), renderErrors(errs))
	}
	for i, w := range want {
		got := renderError(errs[i])
		if !strings.Contains(got, w) {
			t.Errorf("error %d is %q, want it to contain %q", i, got, w)
		}
	}
}

// wantErrorsUnordered is wantErrors for checks whose errors come from map
// iteration and so have no order.
func wantErrorsUnordered(t *testing.T, errs []error, want ...string) {
	t.Helper()
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(errs), len(want), renderErrors(errs))
	}
	rendered := renderErrors(errs)
	for _, w := range want {
		if !strings.Contains(rendered, w) {
			t.Errorf("no error contains %q:\n%s", w, rendered)
		}
	}
}

func renderErrors(errs []error) string {
	var b strings.Builder
	for _, err := range errs {
		b.WriteString(renderError(err))
		b.WriteString("\n")
	}
	return b.String()
}

// renderError writes an error as the engine would show it: the path first.
func renderError(err error) string {
	if pe, ok := err.(cty.PathError); ok {
		return formatPath(pe.Path) + ": " + pe.Error()
	}
	return err.Error()
}

func formatPath(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(s.Name)
		case cty.IndexStep:
			b.WriteString("[" + describe(s.Key) + "]")
		}
	}
	return b.String()
}
