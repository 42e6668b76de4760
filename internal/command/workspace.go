package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/workspaces"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

// workspaceCommand is what the workspace subcommands share: the project's
// records in the working directory's store.
type workspaceCommand struct {
	name    string // show, list, new, select or delete
	streams views.Streams
	color   bool
	project string
	current string
	// overridden is set when TF_WORKSPACE chose the current workspace.
	overridden bool
	service    *resourceservice.Service
	closer     func() error
	vars       []inputvars.VarOption
}

// fail writes ds as OpenTofu's workspace commands do: errors on stderr,
// warnings on stdout, each followed by an empty line.
func (c *workspaceCommand) fail(ds ...diags.Diagnostic) int {
	c.diagnostics(ds...)
	return 1
}

func (c *workspaceCommand) diagnostics(ds ...diags.Diagnostic) {
	c.view().Diagnostics(ds...)
}

// view shows what the command reports.
func (c *workspaceCommand) view() *views.Workspace {
	return views.NewWorkspace(c.streams, c.color)
}

// open opens the store of the configuration in the working directory.
// Workspaces are tenancies of one store, so listing them needs the
// service rather than one workspace's records.
func (c *workspaceCommand) open() *diags.Diagnostic {
	// As OpenTofu's backend checks before anything else; workspace show
	// reads only the selection, and opens no backend.
	if c.name != "show" {
		if ds := workdir.CheckInstalledProviders("."); ds.HasErrors() {
			d := firstError(ds)
			return &d
		}
	}
	var err error
	if c.project, err = workdir.Project(); err != nil {
		d := diags.Errorf("Invalid project", "%s.", err)
		return &d
	}
	if c.current, err = workdir.CurrentWorkspace("."); err != nil {
		// As OpenTofu's workspace commands word it.
		d := diags.Errorf("Error getting the current workspace", "Failed getting the current workspace: %s", err)
		if !errors.Is(err, workdir.ErrInvalidWorkspaceEnv) {
			d = run.CurrentWorkspaceError(err)
		}
		return &d
	}
	c.overridden = os.Getenv(workdir.WorkspaceEnvVar) != ""
	cipher, cipherDiags := run.StateCipher(".", nil, c.vars, os.Environ())
	if cipherDiags.HasErrors() {
		d := firstError(cipherDiags)
		return &d
	}
	if c.service, c.closer, err = workdir.OpenService(".", cipher); err != nil {
		d := firstError(diags.Diagnostics{}.Append(err))
		return &d
	}
	return nil
}

func (c *workspaceCommand) close() {
	if c.closer != nil {
		c.closer()
	}
}

// parseWorkspaceCommand parses flags, checks for exactly wantArgs names
// and opens the store. Wrong arguments print OpenTofu's error and the
// command's help.
func parseWorkspaceCommand(streams views.Streams, name string, args []string, wantArgs int, define func(*flag.FlagSet)) (*workspaceCommand, []string, int) {
	fs := newFlagSet("workspace "+name, streams)
	fs.SetOutput(io.Discard)
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	// An encryption configuration that uses variables needs them to
	// write a new workspace's record.
	var vars []inputvars.VarOption
	arguments.AddVarFlags(fs, &vars)
	if define != nil {
		define(fs)
	}
	err := fs.Parse(args)
	c := &workspaceCommand{name: name, streams: streams, color: ui.ColorEnabled(*noColor), vars: vars}
	// As OpenTofu's parsers do, the arguments are checked after a flag
	// error too, and both are reported.
	var ds diags.Diagnostics
	if err != nil {
		ds = ds.Append(diags.Errorf("Failed to parse command-line flags", "%s", err))
	}
	switch {
	case wantArgs == 0 && fs.NArg() > 0:
		ds = ds.Append(diags.Errorf("Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?"))
	case wantArgs == 1 && fs.NArg() != 1:
		ds = ds.Append(diags.Errorf("Invalid arguments list", "Expected a single argument: NAME."))
	}
	if len(ds) > 0 {
		c.diagnostics(ds...)
		printCommandHelp(streams.Stdout, "workspace "+name)
		return nil, nil, 1
	}
	c.warnWhenUsedAsEnv()
	if d := c.open(); d != nil {
		return nil, nil, c.fail(*d)
	}
	return c, fs.Args(), 0
}

// warnWhenUsedAsEnv warns, as OpenTofu does, when a workspace command was
// run under its old name, env.
func (c *workspaceCommand) warnWhenUsedAsEnv() {
	if c.streams.Name == "env" || strings.HasPrefix(c.streams.Name, "env ") {
		c.diagnostics(diags.Warnf(`The "terrane env" family of commands is deprecated`, "%s",
			"\"Workspace\" is now the preferred term for what earlier Terrane versions called \"environment\", to reduce ambiguity caused by the latter term colliding with other concepts.\n\nThe \"terrane workspace\" commands should be used instead. \"terrane env\" will be removed in a future Terrane version."))
	}
}

// runWorkspaceGroup is `terrane workspace` (and `terrane env`) without a
// subcommand: its help, after an error for any argument.
func runWorkspaceGroup(streams views.Streams, args []string) int {
	fs := newFlagSet("workspace", streams)
	fs.SetOutput(io.Discard)
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	err := fs.Parse(args)
	c := &workspaceCommand{streams: streams, color: ui.ColorEnabled(*noColor)}
	switch {
	case err != nil:
		c.diagnostics(diags.Errorf("Failed to parse command-line flags", "%s", err))
	case fs.NArg() > 0:
		c.diagnostics(diags.Errorf("Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?"))
	default:
		c.warnWhenUsedAsEnv()
	}
	return runResultHelp
}

// list returns the project's workspaces as OpenTofu lists them: "default"
// first, whether or not it was ever used, then the others by name.
func (c *workspaceCommand) list(ctx context.Context) ([]string, *diags.Diagnostic) {
	names, err := workspaces.List(ctx, c.service, c.project)
	if err != nil {
		d := diags.Errorf("Error loading workspaces", "Listing workspaces failed: %s", err)
		return nil, &d
	}
	var others []string
	for _, name := range names {
		if name != workdir.DefaultWorkspace {
			others = append(others, name)
		}
	}
	sort.Strings(others)
	return append([]string{workdir.DefaultWorkspace}, others...), nil
}

// validWorkspaceName is OpenTofu's rule (nothing a URL path would
// escape), then Terrane's own, which its store's tenancies need.
func validWorkspaceName(name string) bool {
	return name == url.PathEscape(name) && workdir.ValidName(name)
}

func invalidWorkspaceName(name string) diags.Diagnostic {
	return diags.Errorf("Invalid workspace name",
		"The workspace name %q is not allowed. The name must contain only URL safe characters, and no path separators.", name)
}

func workspaceDoesNotExist(name string) diags.Diagnostic {
	return diags.Errorf(fmt.Sprintf("Workspace %q doesn't exist", name),
		"You can create this workspace with the \"new\" subcommand \nor include the \"-or-create\" flag with the \"select\" subcommand.")
}

// runWorkspaceShow is `terrane workspace show`: the selected workspace.
func runWorkspaceShow(streams views.Streams, args []string) int {
	c, _, code := parseWorkspaceCommand(streams, "show", args, 0, nil)
	if c == nil {
		return code
	}
	defer c.close()
	c.view().Current(c.current)
	return 0
}

// runWorkspaceList is `terrane workspace list`: every workspace of the
// project, the selected one marked with an asterisk.
func runWorkspaceList(streams views.Streams, args []string) int {
	c, _, code := parseWorkspaceCommand(streams, "list", args, 0, nil)
	if c == nil {
		return code
	}
	defer c.close()
	names, d := c.list(context.Background())
	if d != nil {
		return c.fail(*d)
	}
	c.view().List(names, c.current, c.overridden)
	return 0
}

// runWorkspaceNew is `terrane workspace new [-state=PATH] NAME`: a new,
// empty workspace (or one holding a copy of a state file), which becomes
// the selected one.
func runWorkspaceNew(streams views.Streams, args []string) int {
	var statePath string
	c, names, code := parseWorkspaceCommand(streams, "new", args, 1, func(fs *flag.FlagSet) {
		addLockFlags(fs)
		fs.StringVar(&statePath, "state", "", "Copy an existing state file into the new workspace")
	})
	if c == nil {
		return code
	}
	defer c.close()
	name := names[0]
	if !validWorkspaceName(name) {
		return c.fail(invalidWorkspaceName(name))
	}
	if c.overridden && c.current != name {
		return c.fail(diags.Errorf("The workspace is overridden using the TF_WORKSPACE environment variable",
			"To create a new workspace, either unset this environment variable or update it to match the workspace name you are trying to create, and then run this command again."))
	}
	ctx := context.Background()
	existing, d := c.list(ctx)
	if d != nil {
		return c.fail(*d)
	}
	if slices.Contains(existing, name) {
		return c.fail(diags.Errorf(fmt.Sprintf("Workspace %q already exists", name), "A workspace having the given name already exists"))
	}
	if d := c.createAndSelect(ctx, name); d != nil {
		return c.fail(*d)
	}
	c.view().Created(name)
	if statePath == "" {
		return 0
	}
	return c.copyStateInto(ctx, name, statePath)
}

// createAndSelect creates workspace name's record and selects it.
func (c *workspaceCommand) createAndSelect(ctx context.Context, name string) *diags.Diagnostic {
	if _, err := recordstore.New(c.service, c.project, name).EnsureWorkspace(ctx); err != nil {
		d := diags.Errorf("Error getting the state manager", "Failed getting state manager for workspace %s: %s", name, err)
		return &d
	}
	return c.selectWorkspace(name)
}

func (c *workspaceCommand) selectWorkspace(name string) *diags.Diagnostic {
	if err := workdir.SelectWorkspace(".", name); err != nil {
		d := diags.Errorf("Error selecting the new workspace", "Failed selecting the new workspace %s: %s", name, err)
		return &d
	}
	return nil
}

// runWorkspaceSelect is `terrane workspace select [-or-create] NAME`.
func runWorkspaceSelect(streams views.Streams, args []string) int {
	var orCreate bool
	c, names, code := parseWorkspaceCommand(streams, "select", args, 1, func(fs *flag.FlagSet) {
		fs.BoolVar(&orCreate, "or-create", false, "Create the workspace if it does not exist")
	})
	if c == nil {
		return code
	}
	defer c.close()
	if c.overridden {
		return c.fail(diags.Errorf("The selected workspace is overridden using the TF_WORKSPACE environment variable",
			"To select a new workspace, either update this environment variable or unset it and then run this command again."))
	}
	name := names[0]
	if !validWorkspaceName(name) {
		return c.fail(invalidWorkspaceName(name))
	}
	ctx := context.Background()
	existing, d := c.list(ctx)
	if d != nil {
		return c.fail(*d)
	}
	if name == c.current {
		return 0
	}
	if !slices.Contains(existing, name) {
		if !orCreate {
			return c.fail(workspaceDoesNotExist(name))
		}
		if d := c.createAndSelect(ctx, name); d != nil {
			return c.fail(*d)
		}
		c.view().Created(name)
		return 0
	}
	if d := c.selectWorkspace(name); d != nil {
		d.Summary, d.Detail = "Error setting workspace", strings.Replace(d.Detail, "Failed selecting the new workspace "+name, "Could not set the requested workspace", 1)
		return c.fail(*d)
	}
	c.view().Switched(name)
	return 0
}
