package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/stateedit"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

// stateCommand is what every state subcommand shares: its streams, colour
// choice and the current workspace's records.
type stateCommand struct {
	streams   views.Streams
	color     bool
	workspace string
	store     *recordstore.Store
	closer    func() error
	// vars are -var and -var-file options, for an encryption
	// configuration that references variables.
	vars   []inputvars.VarOption
	cipher *encryption.RecordCipher
	// view shows what the command reports, as text or -json messages.
	view *views.State
	// loadsThroughState says the command opens the state as OpenTofu's
	// state rm, mv and replace-provider do, which report a backend that
	// cannot be opened as the cause of an error loading the state.
	loadsThroughState bool
}

// parseStateFlags parses a state subcommand's options: -no-color, -var and
// -var-file (for an encryption configuration that uses variables), which
// every one takes, and those setup adds. It returns a nil command when the
// options are wrong, after printing OpenTofu's error and the command's
// help.
func parseStateFlags(streams views.Streams, name string, args []string, setup func(*flag.FlagSet)) (*stateCommand, *flag.FlagSet) {
	fs := newFlagSet(name, streams)
	fs.SetOutput(io.Discard)
	if setup != nil {
		setup(fs)
	}
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	asJSON := new(bool)
	if name != "state pull" {
		// OpenTofu's state pull has no -json flag: it already prints JSON.
		fs.BoolVar(asJSON, "json", false, "Write machine-readable JSON messages")
	}
	var vars []inputvars.VarOption
	arguments.AddVarFlags(fs, &vars)
	err := fs.Parse(args)
	c := &stateCommand{streams: streams, color: ui.ColorEnabled(*noColor) && !*asJSON, vars: vars,
		loadsThroughState: name == "state rm" || name == "state mv" || name == "state replace-provider"}
	c.view = views.NewState(streams, c.color, *asJSON)
	if err != nil {
		summary := "Failed to parse command-line flags"
		if name == "state replace-provider" {
			summary = "Error parsing command-line flags" // as OpenTofu words it there
		}
		c.usageError(name, diags.Errorf(summary, "%s", err))
		return nil, fs
	}
	return c, fs
}

// usageError prints d and the command's help, as OpenTofu does for wrong
// arguments (with -json, the error alone), and returns the exit code.
func (c *stateCommand) usageError(name string, d diags.Diagnostic) int {
	c.fail(d)
	if !c.view.JSON() {
		printCommandHelp(c.streams.Stdout, name)
	}
	return 1
}

// versionRefused checks the configuration's required_version, as
// OpenTofu's state commands do before anything else, and reports whether
// it refused the run (having said why).
func (c *stateCommand) versionRefused() bool {
	ds, sources := checkRequiredVersion(c.vars)
	if !ds.HasErrors() {
		return false
	}
	c.view.ConfigDiagnostics(ds, sources)
	return true
}

// fail prints ds and returns the exit code for a failed command.
func (c *stateCommand) fail(ds ...diags.Diagnostic) int {
	c.view.Diagnostics(ds)
	return 1
}

// writeLegacyDiagnostics writes diagnostics as OpenTofu's older commands
// do (see views.WriteLegacyDiagnostics).
func writeLegacyDiagnostics(w io.Writer, ds diags.Diagnostics, color bool) {
	views.WriteLegacyDiagnostics(w, ds, nil, color)
}

// open opens the current workspace's records in the working directory.
func (c *stateCommand) open() *diags.Diagnostic {
	if d := c.checkProviders(); d != nil {
		return d
	}
	project, err := workdir.Project()
	if err != nil {
		d := diags.Errorf("Invalid project", "%s.", err)
		return &d
	}
	if c.workspace, err = workdir.CurrentWorkspace("."); err != nil {
		d := run.CurrentWorkspaceError(err)
		return &d
	}
	if d := c.prepareCipher(); d != nil {
		return d
	}
	c.store, c.closer, err = workdir.OpenStore(".", project, c.workspace, c.cipher)
	if err != nil {
		d := firstError(diags.Diagnostics{}.Append(err))
		return &d
	}
	return nil
}

// checkProviders refuses to open the state while a provider the lock file
// selects is not installed, as OpenTofu's backend checks before anything
// else.
func (c *stateCommand) checkProviders() *diags.Diagnostic {
	ds := workdir.CheckInstalledProviders(".")
	if !ds.HasErrors() {
		return nil
	}
	d := firstError(ds)
	if c.loadsThroughState {
		d = diags.Errorf("Error loading the state",
			"Please ensure that your Terrane state exists and that you've configured it properly. You can use the \"-state\" flag to point Terrane at another state file.\n\nCause: %s: %s", d.Summary, d.Detail)
	}
	return &d
}

// prepareCipher loads the state encryption of the working directory, once.
func (c *stateCommand) prepareCipher() *diags.Diagnostic {
	if c.cipher != nil {
		return nil
	}
	cipher, ds := run.StateCipher(".", nil, c.vars, os.Environ())
	if ds.HasErrors() {
		d := firstError(ds)
		return &d
	}
	c.cipher = cipher
	return nil
}

func (c *stateCommand) close() {
	if c.closer != nil {
		c.closer()
	}
}

// load opens the store and reads the workspace's whole state.
func (c *stateCommand) load(ctx context.Context) (*recordstore.Snapshot, *diags.Diagnostic) {
	if d := c.open(); d != nil {
		return nil, d
	}
	snap, err := c.store.Load(ctx)
	if err != nil {
		d := storeError("Failed to read the state", fmt.Errorf("reading workspace %q: %w", c.workspace, err), "")
		return nil, &d
	}
	return snap, nil
}

// commit writes changes in one batch and explains a conflict by address.
func (c *stateCommand) commit(ctx context.Context, changes []recordstore.InstanceChange) *diags.Diagnostic {
	if _, err := c.store.Commit(ctx, changes); err != nil {
		d := commitFailure(err, c.workspace)
		return &d
	}
	return nil
}

// commitFailure explains a failed commit of a state command, naming the
// instance another run changed when that is why.
func commitFailure(err error, workspace string) diags.Diagnostic {
	var conflict *recordstore.ConflictError
	if errors.As(err, &conflict) {
		d := diags.Errorf("State changed by another run", "%s changed in workspace %q while this command was working on it, so nothing was written. Run the command again to work from the current state.",
			conflict.Addr, workspace)
		d.Address = conflict.Addr.String()
		return d
	}
	return diags.Errorf("Failed to write the state", "Writing workspace %q: %s. Nothing was changed.", workspace, err)
}

// firstError returns the first error of ds, for commands that report one.
func firstError(ds diags.Diagnostics) diags.Diagnostic {
	for _, d := range ds {
		if d.Severity == diags.Error {
			return d
		}
	}
	return diags.Errorf("Unknown error", "An operation failed without saying why.")
}

// parseTargets reads address arguments as OpenTofu's state commands do,
// reporting each invalid one.
func parseTargets(texts []string) ([]stateedit.Target, diags.Diagnostics) {
	var ds diags.Diagnostics
	targets := make([]stateedit.Target, 0, len(texts))
	for _, text := range texts {
		target, parseDiags := stateedit.ParseTarget(text)
		ds = ds.Append(parseDiags)
		if !parseDiags.HasErrors() {
			targets = append(targets, target)
		}
	}
	return targets, ds
}
