package arguments

import (
	"testing"

	"github.com/terrane/terrane/internal/inputvars"
)

func TestParseStateCommands(t *testing.T) {
	t.Parallel()
	vars := []inputvars.VarOption{{Text: "a=1"}, {File: true, Text: "x.tfvars"}}
	opts := StateOptions{View: View{NoColor: true, JSON: true}, Vars: vars}
	common := []string{"-no-color", "-json", "-var", "a=1", "-var-file=x.tfvars"}
	with := func(args ...string) []string { return append(append([]string{}, common...), args...) }
	runParseCases(t, []parseCase{
		{name: "list defaults", parse: parseWith(ParseStateList), want: &StateList{}},
		{name: "list options", parse: parseWith(ParseStateList, with("-id=i-1", "a.b", "module.m")...),
			want: &StateList{StateOptions: opts, ID: "i-1", Addrs: []string{"a.b", "module.m"}}},
		{name: "list bad flag", parse: parseWith(ParseStateList, "-bogus"), diags: []string{bogusFlag}},
		{name: "list -help refused", parse: parseWith(ParseStateList, "--h"), diags: []string{helpRefused}},
		{name: "list keeps -json before a bad flag", parse: parseWith(ParseStateList, "-json", "-bogus"),
			want: &StateList{StateOptions: StateOptions{View: View{JSON: true}}}, diags: []string{bogusFlag}},

		{name: "mv", parse: parseWith(ParseStateMv, with("-dry-run", "-lock=false", "-lock-timeout=3s", "a.b", "a.c")...),
			want: &StateMv{StateOptions: opts, DryRun: true, Source: "a.b", Destination: "a.c"}},
		{name: "mv one argument", parse: parseWith(ParseStateMv, "a.b"), diags: []string{"Invalid number of arguments: Exactly two arguments expected"}},
		{name: "mv bad lock timeout", parse: parseWith(ParseStateMv, "-lock-timeout=x", "a", "b"),
			diags: []string{`Failed to parse command-line flags: invalid value "x" for flag -lock-timeout: parse error`}},

		{name: "pull", parse: parseWith(ParseStatePull, "-no-color"), want: &StatePull{StateOptions{View: View{NoColor: true}}}},
		{name: "pull takes no -json", parse: parseWith(ParseStatePull, "-json"),
			diags: []string{"Failed to parse command-line flags: flag provided but not defined: -json"}},
		{name: "pull argument", parse: parseWith(ParseStatePull, "x"), diags: []string{unexpectedArgs}},

		{name: "push", parse: parseWith(ParseStatePush, with("-force", "-lock=false", "-")...),
			want: &StatePush{StateOptions: opts, Force: true, Path: "-"}},
		{name: "push no file", parse: parseWith(ParseStatePush), diags: []string{"Invalid number of arguments: Exactly one argument expected"}},

		{name: "replace-provider", parse: parseWith(ParseStateReplaceProvider, with("-auto-approve", "hashicorp/a", "acme/a")...),
			want: &StateReplaceProvider{StateOptions: opts, AutoApprove: true, From: "hashicorp/a", To: "acme/a"}},
		{name: "replace-provider bad flag", parse: parseWith(ParseStateReplaceProvider, "-bogus"),
			diags: []string{"Error parsing command-line flags: flag provided but not defined: -bogus"}},
		{name: "replace-provider one argument", parse: parseWith(ParseStateReplaceProvider, "a"),
			diags: []string{"Invalid number of arguments: Exactly two arguments expected"}},

		{name: "rm", parse: parseWith(ParseStateRm, with("-dry-run", "a.b", "a.c")...),
			want: &StateRm{StateOptions: opts, DryRun: true, Addrs: []string{"a.b", "a.c"}}},
		{name: "rm nothing", parse: parseWith(ParseStateRm), diags: []string{"Invalid number of arguments: At least one address is required"}},

		{name: "show", parse: parseWith(ParseStateShow, with("a.b")...), want: &StateShow{StateOptions: opts, Addr: "a.b"}},
		{name: "show two", parse: parseWith(ParseStateShow, "a", "b"), diags: []string{"Invalid number of arguments: Exactly one argument expected"}},
		{name: "show takes no -dry-run", parse: parseWith(ParseStateShow, "-dry-run", "a"),
			diags: []string{"Failed to parse command-line flags: flag provided but not defined: -dry-run"}},

		{name: "reencrypt", parse: parseWith(ParseStateReencrypt, common...), want: &StateReencrypt{opts}},
		{name: "reencrypt argument", parse: parseWith(ParseStateReencrypt, "x"),
			diags: []string{"Unexpected argument: terrane state reencrypt takes no arguments; it rewrites the current workspace's records."}},

		{name: "taint", parse: parseWith(ParseTaint, with("-allow-missing", "-lock=false", "a.b")...),
			want: &Taint{StateOptions: opts, AllowMissing: true, Addr: "a.b"}},
		{name: "taint nothing", parse: parseWith(ParseTaint), diags: []string{"Invalid arguments: The taint command expects exactly one argument."}},
		{name: "untaint two", parse: parseWith(ParseUntaint, "a", "b"), diags: []string{"Invalid arguments: The untaint command expects exactly one argument."}},
	})
}
