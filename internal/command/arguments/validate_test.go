package arguments

import (
	"testing"

	"github.com/terrane/terrane/internal/inputvars"
)

func TestParseValidate(t *testing.T) {
	t.Parallel()
	runParseCases(t, []parseCase{
		{name: "defaults", parse: parseWith(ParseValidate), want: &Validate{}},
		{name: "options", parse: parseWith(ParseValidate, "-json", "-no-color", "-compact-warnings", "-var=a=1"),
			want: &Validate{View: View{JSON: true, NoColor: true, CompactWarnings: true}, Vars: []inputvars.VarOption{{Text: "a=1"}}}},
		{name: "bad flag", parse: parseWith(ParseValidate, "-json", "-bogus"), want: &Validate{View: View{JSON: true}}, diags: []string{bogusFlag}},
		{name: "help refused", parse: parseWith(ParseValidate, "--h"), diags: []string{helpRefused}},
		{name: "directory", parse: parseWith(ParseValidate, "dir"), diags: []string{
			`Directory argument not supported: Terrane validates the configuration in the working directory only, not "dir". Use the global -chdir option instead: terrane -chdir=dir validate.`}},
		{name: "two arguments", parse: parseWith(ParseValidate, "a", "b"),
			diags: []string{"Too many command line arguments: Expected at most one positional argument."}},
	})
}
