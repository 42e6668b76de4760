package arguments

import (
	"testing"
	"time"

	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
)

func TestParseLoginLogoutForceUnlock(t *testing.T) {
	t.Parallel()
	runParseCases(t, []parseCase{
		{name: "login defaults", parse: parseWith(ParseLogin), want: &Login{Input: true}},
		{name: "login options", parse: parseWith(ParseLogin, "-no-color", "-input=false", "a", "b"),
			want: &Login{View: View{NoColor: true}, Args: []string{"a", "b"}}},
		{name: "login bad flag", parse: parseWith(ParseLogin, "-bogus"), diags: []string{bogusFlag}},
		{name: "login help refused", parse: parseWith(ParseLogin, "--h"), diags: []string{helpRefused}},

		{name: "logout", parse: parseWith(ParseLogout, "-no-color", "example.com"),
			want: &Logout{View: View{NoColor: true}, Args: []string{"example.com"}}},
		{name: "logout bad flag", parse: parseWith(ParseLogout, "-input=false"),
			diags: []string{"Failed to parse command-line flags: flag provided but not defined: -input"}},

		{name: "force-unlock", parse: parseWith(ParseForceUnlock, "-force", "-no-color", "run-1"),
			want: &ForceUnlock{View: View{NoColor: true}, Force: true, Args: []string{"run-1"}}},
		{name: "force-unlock bad flag", parse: parseWith(ParseForceUnlock, "-bogus", "run-1"), diags: []string{bogusFlag}},
	})
}

func TestParseGraph(t *testing.T) {
	t.Parallel()
	runParseCases(t, []parseCase{
		{name: "defaults", parse: parseWith(ParseGraph), want: &Graph{Type: "plan"}},
		{name: "saved plan draws its apply", parse: parseWith(ParseGraph, "-plan=tfplan"), want: &Graph{Type: "apply", PlanFile: "tfplan"}},
		{name: "options", parse: parseWith(ParseGraph, "-type=plan-destroy", "-draw-cycles", "-no-color", "-module-depth=2", "-verbose", "-var=a=1"),
			want: &Graph{View: View{NoColor: true}, Type: "plan-destroy", DrawCycles: true, Vars: []inputvars.VarOption{{Text: "a=1"}}}},
		{name: "help", parse: parseWith(ParseGraph, "--h"), want: &Graph{View: View{Help: true}}},
		{name: "bad flag", parse: parseWith(ParseGraph, "-bogus"), want: &Graph{UsageError: true}, diags: []string{bogusFlag}},
		{name: "argument", parse: parseWith(ParseGraph, "dir"), want: &Graph{UsageError: true}, diags: []string{unexpectedArgs}},
		{name: "old type", parse: parseWith(ParseGraph, "-type=eval"),
			diags: []string{`Graph type no longer available: The graph type "eval" is no longer available. Use -type=plan instead to get a similar result.`}},
		{name: "unknown type", parse: parseWith(ParseGraph, "-type=x"), want: &Graph{Type: "x"},
			diags: []string{`Unsupported graph type: The -type=... argument must be either "plan", "plan-refresh-only", "plan-destroy", or "apply".`}},
	})
}

func TestParseImport(t *testing.T) {
	t.Parallel()
	const wrongCount = "Invalid number of arguments: The import command expects two arguments"
	runParseCases(t, []parseCase{
		{name: "defaults", parse: parseWith(ParseImport, "a.b", "id-1"),
			want: &Import{Operation: Operation{Input: true, Lock: true, Parallelism: engine.DefaultParallelism}, Addr: "a.b", ID: "id-1"}},
		{name: "options", parse: parseWith(ParseImport, "-var=a=1", "-var-file=x.tfvars", "-no-color", "-input=false", "-lock=false", "-lock-timeout=5s", "-parallelism=3", "a.b", "id-1"),
			want: &Import{Operation: Operation{Vars: []inputvars.VarOption{{Text: "a=1"}, {File: true, Text: "x.tfvars"}}, Parallelism: 3},
				View: View{NoColor: true}, Addr: "a.b", ID: "id-1"}},
		{name: "empty var", parse: parseWith(ParseImport, "-var=", "a.b", "id"),
			diags: []string{`Failed to parse command-line flags: invalid value "" for flag -var: a value is required`}},
		{name: "empty var-file", parse: parseWith(ParseImport, "-var-file=", "a.b", "id"),
			diags: []string{`Failed to parse command-line flags: invalid value "" for flag -var-file: a value is required`}},
		{name: "help refused", parse: parseWith(ParseImport, "--h"), diags: []string{helpRefused}},
		{name: "one argument", parse: parseWith(ParseImport, "a.b"), diags: []string{wrongCount}},
		{name: "three arguments", parse: parseWith(ParseImport, "a", "b", "c"), diags: []string{wrongCount}},
	})
}

func TestParseVersionAndJSONOnlyCommands(t *testing.T) {
	t.Parallel()
	const schemaNeedsJSON = "Output only in json is allowed: The `terrane providers schema` command requires the `-json` flag."
	runParseCases(t, []parseCase{
		{name: "version defaults", parse: parseWith(ParseVersion, "extra"), want: &Version{}},
		{name: "version options", parse: parseWith(ParseVersion, "-json", "-no-color", "-v", "-version"), want: &Version{View{NoColor: true, JSON: true}}},
		{name: "version keeps -json before a bad flag", parse: parseWith(ParseVersion, "-json", "-bogus"), want: &Version{View{JSON: true}}, diags: []string{bogusFlag}},
		{name: "version help refused", parse: parseWith(ParseVersion, "--h"), diags: []string{helpRefused}},

		{name: "metadata functions", parse: parseWith(ParseMetadataFunctions, "-json", "-no-color"), want: &MetadataFunctions{View{NoColor: true, JSON: true}}},
		{name: "metadata functions without -json", parse: parseWith(ParseMetadataFunctions),
			diags: []string{"Invalid arguments: The `terrane metadata functions` command requires the `-json` flag."}},
		{name: "metadata functions bad flag alone", parse: parseWith(ParseMetadataFunctions, "-bogus"), diags: []string{bogusFlag}},

		{name: "providers schema", parse: parseWith(ParseProvidersSchema, "-json"), want: &ProvidersSchema{View{JSON: true}}},
		{name: "providers schema without -json", parse: parseWith(ParseProvidersSchema), diags: []string{schemaNeedsJSON}},
		{name: "providers schema bad flag and no -json", parse: parseWith(ParseProvidersSchema, "-bogus"), diags: []string{bogusFlag, schemaNeedsJSON}},

		{name: "providers", parse: parseWith(ParseProviders, "-no-color"), want: &Providers{View{NoColor: true}}},
		{name: "providers argument", parse: parseWith(ParseProviders, "x"), diags: []string{unexpectedArgs}},
		{name: "providers bad flag", parse: parseWith(ParseProviders, "-bogus", "x"), diags: []string{bogusFlag}},
	})
}

func TestLockFlagsAreChecked(t *testing.T) {
	t.Parallel()
	runParseCases(t, []parseCase{
		{name: "lock", parse: parseWith(ParseStateRm, "-lock=maybe", "a.b"),
			diags: []string{`Failed to parse command-line flags: invalid boolean value "maybe" for -lock: parse error`}},
		{name: "lock-timeout", parse: parseWith(ParseWorkspaceDelete, "-lock-timeout="+time.Second.String(), "prod"), want: &Workspace{Name: "prod"}},
	})
}
