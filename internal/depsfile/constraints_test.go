package depsfile

import (
	"testing"

	"github.com/terrane/terrane/internal/plugin/discovery"
)

func TestConstraintsString(t *testing.T) {
	for _, tc := range []struct{ written, canonical string }{
		{"", ""},
		{">= 1.0", ">= 1.0.0"},
		{"~> 5", "~> 5.0"},
		{"~> 5.1", "~> 5.1"},
		{"~> 5.1.0", "~> 5.1.0"},
		{"5.100.0", "5.100.0"},
		{"= 5.100.0", "5.100.0"},
		{"< 6, >= 5", ">= 5.0.0, < 6.0.0"},
		{"~> 5.0, >= 5.1, != 5.3.1", "~> 5.0, >= 5.1.0, != 5.3.1"},
		{">= 5.0.0, ~> 5.100.0, >= 5.0", ">= 5.0.0, ~> 5.100.0"},
		{">5.0.0-beta1,<6", "> 5.0.0-beta1, < 6.0.0"},
		{"<= 2.0.0, >= 2.0.0, 2.0.0, != 2.0.0, < 2.0.0, > 2.0.0", "> 2.0.0, >= 2.0.0, 2.0.0, <= 2.0.0, < 2.0.0, != 2.0.0"},
		{"1.0.0+b, 1.0.0+a", "1.0.0+a, 1.0.0+b"},
	} {
		spec, err := discovery.ParseConstraints(tc.written)
		if err != nil {
			t.Fatalf("%q: %v", tc.written, err)
		}
		if got := ConstraintsString(spec); got != tc.canonical {
			t.Errorf("ConstraintsString(%q) = %q, want %q", tc.written, got, tc.canonical)
		}
	}
}
