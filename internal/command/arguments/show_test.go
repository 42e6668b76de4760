package arguments

import (
	"testing"

	"github.com/terrane/terrane/internal/inputvars"
)

func TestParseShow(t *testing.T) {
	t.Parallel()
	const conflicting = "Conflicting object types to show: The -state, -plan=FILENAME, -config, and -module=DIR options are mutually-exclusive, to specify which kind of object to show."
	runParseCases(t, []parseCase{
		{name: "defaults", parse: parseWith(ParseShow), want: &Show{Target: ShowState}},
		{name: "a path", parse: parseWith(ParseShow, "-json", "-no-color", "-show-sensitive", "-var-file=x.tfvars", "tfplan"),
			want: &Show{View: View{JSON: true, NoColor: true}, ShowSensitive: true, Vars: []inputvars.VarOption{{File: true, Text: "x.tfvars"}}, Target: ShowPath, Path: "tfplan"}},
		{name: "state", parse: parseWith(ParseShow, "-state"), want: &Show{Target: ShowState}},
		{name: "plan", parse: parseWith(ParseShow, "-plan=tfplan"), want: &Show{Target: ShowPlan, Path: "tfplan"}},
		{name: "config", parse: parseWith(ParseShow, "-config", "-json"), want: &Show{View: View{JSON: true}, Target: ShowConfig}},
		{name: "help", parse: parseWith(ParseShow, "-help=1"), want: &Show{View: View{Help: true}}},
		{name: "bad flag", parse: parseWith(ParseShow, "-bogus"),
			diags: []string{"Failed to parse command-line options: flag provided but not defined: -bogus"}},
		{name: "two paths", parse: parseWith(ParseShow, "a", "b"),
			diags: []string{"Too many command line arguments: Expected at most one positional argument for the legacy positional argument mode."}},
		{name: "config without json", parse: parseWith(ParseShow, "-config"),
			diags: []string{"JSON output required for configuration: The -config option requires -json to be specified."}},
		{name: "module without json", parse: parseWith(ParseShow, "-module=m"),
			diags: []string{"JSON output required for module: The -module=DIR option requires -json to be specified."}},
		{name: "module", parse: parseWith(ParseShow, "-module=m", "-json"),
			diags: []string{`Unsupported option -module: Terrane cannot show the metadata of a single module (-module=m). Use "terrane show -json -config" for the whole configuration.`}},
		{name: "target and path", parse: parseWith(ParseShow, "-state", "a"),
			diags: []string{"Unexpected command line arguments: This command does not expect any positional arguments when using a target-selection option."}},
		{name: "two targets", parse: parseWith(ParseShow, "-state", "-plan=x"), diags: []string{conflicting}},
	})
}
