package arguments

import (
	"testing"

	"github.com/terrane/terrane/internal/inputvars"
)

func TestParseOutput(t *testing.T) {
	t.Parallel()
	const rawAndJSON = "Invalid output format: The -raw and -json options are mutually-exclusive."
	runParseCases(t, []parseCase{
		{name: "defaults", parse: parseWith(ParseOutput), want: &Output{}},
		{name: "options", parse: parseWith(ParseOutput, "-no-color", "-show-sensitive", "-json-into=out.json", "-var=a=1", "name"),
			want: &Output{View: View{NoColor: true}, ShowSensitive: true, JSONInto: "out.json", Vars: []inputvars.VarOption{{Text: "a=1"}}, Name: "name"}},
		{name: "json", parse: parseWith(ParseOutput, "-json"), want: &Output{View: View{JSON: true}}},
		{name: "raw", parse: parseWith(ParseOutput, "-raw", "name"), want: &Output{Raw: true, Name: "name"}},
		{name: "help", parse: parseWith(ParseOutput, "--h"), want: &Output{View: View{Help: true}}},
		{name: "bad flag", parse: parseWith(ParseOutput, "-bogus"), diags: []string{bogusFlag}},
		{name: "two names", parse: parseWith(ParseOutput, "a", "b"),
			diags: []string{"Unexpected argument: The output command expects exactly one argument with the name of an output variable or no arguments to show all outputs."}},
		{name: "raw without a name", parse: parseWith(ParseOutput, "-raw"),
			diags: []string{"Output name required: You must give the name of a single output value when using the -raw option."}},
		{name: "raw and json", parse: parseWith(ParseOutput, "-raw", "-json", "x"), want: &Output{Name: "x"}, diags: []string{rawAndJSON}},
		{name: "json and json-into", parse: parseWith(ParseOutput, "-json", "-json-into=x"),
			diags: []string{"Invalid output format: The -json and -json-into arguments are mutually exclusive"}},
		{name: "every problem", parse: parseWith(ParseOutput, "-state=s", "-raw", "-json", "a", "b"), diags: []string{
			`Unsupported option -state: Terrane reads outputs from the workspace's records in its store, not from a state file, so -state="s" cannot be used. Leave it out to read the selected workspace.`,
			"Unexpected argument: The output command expects exactly one argument with the name of an output variable or no arguments to show all outputs.",
			rawAndJSON,
		}},
	})
}
