package arguments

import (
	"flag"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// Workspace is the command line of a workspace subcommand (and of its old
// name, env): -no-color and, for an encryption configuration that uses
// variables, -var and -var-file; the options of new, select and delete;
// and the workspace named by those that take one.
type Workspace struct {
	View
	Vars []inputvars.VarOption
	// Name is the workspace new, select and delete work on.
	Name string
	// State is new's -state: a state file to check, as OpenTofu reads it.
	State string
	// OrCreate is select's -or-create.
	OrCreate bool
	// Force is delete's -force: a workspace that still tracks objects is
	// deleted too.
	Force bool
}

// ParseWorkspaceGroup parses the arguments of `terrane workspace` without
// a subcommand, which takes none: the command prints its help whatever
// they are.
func ParseWorkspaceGroup(args []string) (*Workspace, diags.Diagnostics) {
	ws := &Workspace{}
	fs := newFlagSet("workspace")
	fs.BoolVar(&ws.NoColor, "no-color", false, "")
	if err := fs.Parse(args); err != nil {
		return ws, diags.Diagnostics{flagsError(err)}
	}
	if fs.NArg() > 0 {
		return ws, diags.Diagnostics{unexpectedArgument()}
	}
	return ws, nil
}

// ParseWorkspaceShow parses `terrane workspace show`'s arguments.
func ParseWorkspaceShow(args []string) (*Workspace, diags.Diagnostics) {
	return parseWorkspace("show", args, false, nil)
}

// ParseWorkspaceList parses `terrane workspace list`'s arguments.
func ParseWorkspaceList(args []string) (*Workspace, diags.Diagnostics) {
	return parseWorkspace("list", args, false, nil)
}

// ParseWorkspaceNew parses `terrane workspace new [-state=PATH] NAME`.
func ParseWorkspaceNew(args []string) (*Workspace, diags.Diagnostics) {
	return parseWorkspace("new", args, true, func(fs *flag.FlagSet, ws *Workspace) {
		addLockFlags(fs)
		fs.StringVar(&ws.State, "state", "", "")
	})
}

// ParseWorkspaceSelect parses `terrane workspace select [-or-create] NAME`.
func ParseWorkspaceSelect(args []string) (*Workspace, diags.Diagnostics) {
	return parseWorkspace("select", args, true, func(fs *flag.FlagSet, ws *Workspace) {
		fs.BoolVar(&ws.OrCreate, "or-create", false, "")
	})
}

// ParseWorkspaceDelete parses `terrane workspace delete [-force] NAME`.
func ParseWorkspaceDelete(args []string) (*Workspace, diags.Diagnostics) {
	return parseWorkspace("delete", args, true, func(fs *flag.FlagSet, ws *Workspace) {
		addLockFlags(fs)
		fs.BoolVar(&ws.Force, "force", false, "")
	})
}

// parseWorkspace parses the options every workspace subcommand takes and
// those define adds, then checks that a NAME is given when named is set
// and no argument otherwise. As OpenTofu's parsers do, the arguments are
// checked after a flag error too, and both are reported.
func parseWorkspace(command string, args []string, named bool, define func(*flag.FlagSet, *Workspace)) (*Workspace, diags.Diagnostics) {
	ws := &Workspace{}
	fs := newFlagSet("workspace " + command)
	fs.BoolVar(&ws.NoColor, "no-color", false, "")
	addVarFlags(fs, &ws.Vars)
	if define != nil {
		define(fs, ws)
	}
	var ds diags.Diagnostics
	if err := fs.Parse(args); err != nil {
		ds = ds.Append(flagsError(err))
	}
	switch {
	case !named && fs.NArg() > 0:
		ds = ds.Append(unexpectedArgument())
	case named && fs.NArg() != 1:
		ds = ds.Append(diags.Errorf("Invalid arguments list", "Expected a single argument: NAME."))
	case named:
		ws.Name = fs.Arg(0)
	}
	return ws, ds
}
