package arguments

import (
	"reflect"
	"slices"
	"testing"

	"github.com/terrane/terrane/internal/diags"
)

// parseCase is one command line given to a parser: the struct it must
// return (unless nil) and its diagnostics, each as "Summary: Detail".
type parseCase struct {
	name  string
	parse func() (any, diags.Diagnostics)
	want  any
	diags []string
}

// parseWith calls parse with args, for a table of parseCase.
func parseWith[T any](parse func([]string) (*T, diags.Diagnostics), args ...string) func() (any, diags.Diagnostics) {
	return func() (any, diags.Diagnostics) { return parse(args) }
}

func runParseCases(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, ds := c.parse()
			var texts []string
			for _, d := range ds {
				texts = append(texts, d.Summary+": "+d.Detail)
			}
			if !slices.Equal(texts, c.diags) {
				t.Errorf("diagnostics:\n got %q\nwant %q", texts, c.diags)
			}
			if c.want != nil && !reflect.DeepEqual(got, c.want) {
				t.Errorf("parsed:\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// Texts shared by many parsers' cases.
const (
	bogusFlag      = "Failed to parse command-line flags: flag provided but not defined: -bogus"
	helpRefused    = "Failed to parse command-line flags: flag: help requested"
	unexpectedArgs = "Unexpected argument: Too many command line arguments. Did you mean to use -chdir?"
)
