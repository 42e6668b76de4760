package command

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/workspaces"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

// workspaceCommand is what the workspace subcommands share: the project's
// records in the working directory's store.
type workspaceCommand struct {
	streams Streams
	color   bool
	project string
	current string
	service *resourceservice.Service
	closer  func() error
	vars    []arguments.VarOption
}

func (c *workspaceCommand) fail(ds ...diags.Diagnostic) int {
	ui.WriteDiagnostics(c.streams.Stderr, ds, nil, c.color)
	return 1
}

// open opens the store of the configuration in the working directory.
// Workspaces are tenancies of one store, so listing them needs the
// service rather than one workspace's records.
func (c *workspaceCommand) open() *diags.Diagnostic {
	var err error
	if c.project, err = workdir.Project(); err != nil {
		d := diags.Errorf("Invalid project", "%s.", err)
		return &d
	}
	if c.current, err = workdir.CurrentWorkspace("."); err != nil {
		d := diags.Errorf("Invalid workspace", "%s.", err)
		return &d
	}
	cipher, cipherDiags := stateCipher(".", nil, c.vars)
	if cipherDiags.HasErrors() {
		d := firstError(cipherDiags)
		return &d
	}
	if c.service, c.closer, err = workdir.OpenService(".", cipher); err != nil {
		d := firstError(diags.Diagnostics{}.Append(err))
		return &d
	}
	// The current workspace exists once any command ran in it. Only its
	// existence is checked, so workspaces encrypted with other keys can be
	// listed, selected and deleted.
	ctx := context.Background()
	exists, err := workspaces.Exists(ctx, c.service, c.project, c.current)
	if err == nil && !exists {
		_, err = recordstore.New(c.service, c.project, c.current).EnsureWorkspace(ctx)
	}
	if err != nil {
		c.close()
		d := storeError("Failed to prepare the workspace", err, fmt.Sprintf("Creating the record of workspace %q.", c.current))
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
// and opens the store.
func parseWorkspaceCommand(streams Streams, name string, args []string, wantArgs int, define func(*flag.FlagSet)) (*workspaceCommand, []string, int) {
	fs := newFlagSet("workspace "+name, streams)
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	// Terraform's locking options are accepted so that scripts keep
	// working; Terrane takes no lock to skip or wait for.
	fs.Bool("lock", true, "Accepted for compatibility; Terrane takes no state lock")
	fs.String("lock-timeout", "0s", "Accepted for compatibility; Terrane takes no state lock")
	// An encryption configuration that uses variables needs them to
	// write a new workspace's record.
	var vars []arguments.VarOption
	arguments.AddVarFlags(fs, &vars)
	if define != nil {
		define(fs)
	}
	if err := fs.Parse(args); err != nil {
		return nil, nil, 1
	}
	c := &workspaceCommand{streams: streams, color: ui.ColorEnabled(*noColor), vars: vars}
	if fs.NArg() != wantArgs {
		if wantArgs == 0 {
			return nil, nil, c.fail(diags.Errorf("Unexpected argument", "terrane workspace %s takes no arguments; got %q.", name, fs.Arg(0)))
		}
		return nil, nil, c.fail(diags.Errorf("Workspace name required", "terrane workspace %s takes one workspace name, such as: terrane workspace %s staging; got %d arguments.", name, name, fs.NArg()))
	}
	if d := c.open(); d != nil {
		return nil, nil, c.fail(*d)
	}
	return c, fs.Args(), 0
}

// runWorkspaceShow is `terrane workspace show`: the selected workspace.
func runWorkspaceShow(streams Streams, args []string) int {
	fs := newFlagSet("workspace show", streams)
	if err := fs.Parse(args); err != nil {
		return 1
	}
	name, err := workdir.CurrentWorkspace(".")
	if err != nil {
		ui.WriteDiagnostics(streams.Stderr, diags.Diagnostics{diags.Errorf("Invalid workspace", "%s.", err)}, nil, false)
		return 1
	}
	fmt.Fprintln(streams.Stdout, name)
	return 0
}

// runWorkspaceList is `terrane workspace list`: every workspace of the
// project, the selected one marked with an asterisk.
func runWorkspaceList(streams Streams, args []string) int {
	c, _, code := parseWorkspaceCommand(streams, "list", args, 0, nil)
	if c == nil {
		return code
	}
	defer c.close()
	names, err := workspaces.List(context.Background(), c.service, c.project)
	if err != nil {
		return c.fail(diags.Errorf("Failed to list workspaces", "%s.", err))
	}
	for _, name := range names {
		marker := "  "
		if name == c.current {
			marker = "* "
		}
		fmt.Fprintf(streams.Stdout, "%s%s\n", marker, name)
	}
	fmt.Fprintln(streams.Stdout)
	return 0
}

// runWorkspaceNew is `terrane workspace new NAME`: a new, empty workspace,
// which becomes the selected one.
func runWorkspaceNew(streams Streams, args []string) int {
	c, names, code := parseWorkspaceCommand(streams, "new", args, 1, nil)
	if c == nil {
		return code
	}
	defer c.close()
	name := names[0]
	ctx := context.Background()
	exists, err := workspaces.Exists(ctx, c.service, c.project, name)
	if err != nil {
		return c.fail(diags.Errorf("Failed to read workspaces", "%s.", err))
	}
	if exists {
		return c.fail(diags.Errorf("Workspace already exists", "Workspace %q already exists in project %q. Select it with \"terrane workspace select %s\".", name, c.project, name))
	}
	if d := c.createAndSelect(ctx, name, false); d != nil {
		return c.fail(*d)
	}
	fmt.Fprintf(streams.Stdout, "Created and switched to workspace %q!\n\nYou're now on a new, empty workspace. Workspaces isolate their state,\nso if you run \"terrane plan\" Terrane will not see any existing state\nfor this configuration.\n", name)
	return 0
}

// createAndSelect selects workspace name, creating its record unless it
// exists (an existing one is not read: it may be encrypted with other
// keys).
func (c *workspaceCommand) createAndSelect(ctx context.Context, name string, exists bool) *diags.Diagnostic {
	if err := workdir.SelectWorkspace(".", name); err != nil {
		d := diags.Errorf("Invalid workspace name", "%s.", err)
		return &d
	}
	if exists {
		return nil
	}
	if _, err := recordstore.New(c.service, c.project, name).EnsureWorkspace(ctx); err != nil {
		d := diags.Errorf("Failed to create workspace", "%s.", err)
		return &d
	}
	return nil
}

// runWorkspaceSelect is `terrane workspace select [-or-create] NAME`.
func runWorkspaceSelect(streams Streams, args []string) int {
	var orCreate bool
	c, names, code := parseWorkspaceCommand(streams, "select", args, 1, func(fs *flag.FlagSet) {
		fs.BoolVar(&orCreate, "or-create", false, "Create the workspace if it does not exist")
	})
	if c == nil {
		return code
	}
	defer c.close()
	name := names[0]
	ctx := context.Background()
	exists, err := workspaces.Exists(ctx, c.service, c.project, name)
	if err != nil {
		return c.fail(diags.Errorf("Failed to read workspaces", "%s.", err))
	}
	if !exists && !orCreate && name != workdir.DefaultWorkspace {
		return c.fail(diags.Errorf("Workspace doesn't exist", "Project %q has no workspace %q. Create it with \"terrane workspace new %s\", or select it with -or-create.", c.project, name, name))
	}
	if d := c.createAndSelect(ctx, name, exists); d != nil {
		return c.fail(*d)
	}
	if exists {
		fmt.Fprintf(streams.Stdout, "Switched to workspace %q.\n", name)
	} else {
		fmt.Fprintf(streams.Stdout, "Created and switched to workspace %q!\n", name)
	}
	return 0
}

// runWorkspaceDelete is `terrane workspace delete [-force] NAME`. A
// workspace that still holds resource instances is kept unless forced,
// because deleting it forgets objects that still exist.
func runWorkspaceDelete(streams Streams, args []string) int {
	var force bool
	c, names, code := parseWorkspaceCommand(streams, "delete", args, 1, func(fs *flag.FlagSet) {
		fs.BoolVar(&force, "force", false, "Delete even if the workspace holds resource instances, forgetting them")
	})
	if c == nil {
		return code
	}
	defer c.close()
	name := names[0]
	switch name {
	case workdir.DefaultWorkspace:
		return c.fail(diags.Errorf("Cannot delete the default workspace", "The default workspace always exists. To forget its resources, use \"terrane state rm\"."))
	case c.current:
		return c.fail(diags.Errorf("Cannot delete the selected workspace", "Workspace %q is selected. Select another one first, such as: terrane workspace select default.", name))
	}
	err := workspaces.Delete(context.Background(), c.service, c.project, name, force)
	var notEmpty *workspaces.NotEmptyError
	switch {
	case errors.As(err, &notEmpty):
		return c.fail(diags.Errorf("Workspace is not empty", "%s. Deleting it would make Terrane forget objects that still exist. Destroy them first (select the workspace and run \"terrane destroy\"), or delete it with -force to forget them.", capitalizeFirst(err.Error())))
	case errors.Is(err, workspaces.ErrNotFound):
		return c.fail(diags.Errorf("Workspace doesn't exist", "Project %q has no workspace %q; run \"terrane workspace list\" to see the workspaces it has.", c.project, name))
	case err != nil:
		return c.fail(diags.Errorf("Failed to delete workspace", "%s.", err))
	}
	fmt.Fprintf(streams.Stdout, "Deleted workspace %q!\n", name)
	return 0
}
