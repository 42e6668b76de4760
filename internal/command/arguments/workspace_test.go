package arguments

import (
	"testing"

	"github.com/terrane/terrane/internal/inputvars"
)

func TestParseWorkspaceCommands(t *testing.T) {
	t.Parallel()
	vars := []inputvars.VarOption{{Text: "a=1"}}
	const needName = "Invalid arguments list: Expected a single argument: NAME."
	runParseCases(t, []parseCase{
		{name: "group", parse: parseWith(ParseWorkspaceGroup), want: &Workspace{}},
		{name: "group no-color", parse: parseWith(ParseWorkspaceGroup, "-no-color"), want: &Workspace{View: View{NoColor: true}}},
		{name: "group argument", parse: parseWith(ParseWorkspaceGroup, "x"), diags: []string{unexpectedArgs}},
		// The flag error alone: the group takes no -var.
		{name: "group bad flag", parse: parseWith(ParseWorkspaceGroup, "-var=a=1", "x"),
			diags: []string{"Failed to parse command-line flags: flag provided but not defined: -var"}},

		{name: "show", parse: parseWith(ParseWorkspaceShow, "-no-color", "-var", "a=1"), want: &Workspace{View: View{NoColor: true}, Vars: vars}},
		{name: "show argument", parse: parseWith(ParseWorkspaceShow, "x"), diags: []string{unexpectedArgs}},
		{name: "list argument after a bad flag", parse: parseWith(ParseWorkspaceList, "-bogus", "x"), diags: []string{bogusFlag, unexpectedArgs}},

		{name: "new", parse: parseWith(ParseWorkspaceNew, "-state=old.tfstate", "-lock=false", "-lock-timeout=1s", "prod"),
			want: &Workspace{Name: "prod", State: "old.tfstate"}},
		{name: "new no name", parse: parseWith(ParseWorkspaceNew), diags: []string{needName}},
		{name: "new bad flag and no name", parse: parseWith(ParseWorkspaceNew, "-bogus"), diags: []string{bogusFlag, needName}},
		{name: "new two names", parse: parseWith(ParseWorkspaceNew, "a", "b"), diags: []string{needName}},

		{name: "select", parse: parseWith(ParseWorkspaceSelect, "-or-create", "prod"), want: &Workspace{Name: "prod", OrCreate: true}},
		{name: "select takes no -lock", parse: parseWith(ParseWorkspaceSelect, "-lock=false", "prod"),
			diags: []string{"Failed to parse command-line flags: flag provided but not defined: -lock"}},

		{name: "delete", parse: parseWith(ParseWorkspaceDelete, "-force", "-lock=false", "prod"), want: &Workspace{Name: "prod", Force: true}},
		{name: "delete -help refused", parse: parseWith(ParseWorkspaceDelete, "-help=1", "prod"), diags: []string{helpRefused}},
	})
}
