package command

import (
	"reflect"
	"testing"
)

// TestViewFlagsFirst moves -no-color and -compact-warnings found after
// positional arguments to the front, as OpenTofu's arguments.ParseView
// accepts them there (e2etest's TestViewFlagsAfterArguments runs commands
// so).
func TestViewFlagsFirst(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want []string }{
		{[]string{"ADDR", "-no-color"}, []string{"-no-color", "ADDR"}},
		{[]string{"-raw", "NAME", "-no-color"}, []string{"-no-color", "-raw", "NAME"}},
		{[]string{"-compact-warnings", "x"}, []string{"-compact-warnings", "x"}},
		{[]string{"x", "--", "-no-color"}, []string{"x", "--", "-no-color"}},
		{[]string{"a", "b"}, []string{"a", "b"}},
	} {
		if got := viewFlagsFirst(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("viewFlagsFirst(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
