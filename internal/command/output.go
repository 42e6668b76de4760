package command

import (
	"context"
	"fmt"
	"os"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/workdir"
)

// runOutput is `terrane output [options] [NAME]`: the root output values
// the last apply recorded in the workspace, as OpenTofu's output command
// shows them. Listing all of them hides sensitive values (unless
// -show-sensitive); asking for one by name, -json and -raw show it.
func runOutput(streams views.Streams, args []string) int {
	opts, ds := arguments.ParseOutput(args)
	if opts.Help {
		printCommandHelp(streams.Stdout, "output")
		return 0
	}
	view := views.NewOutput(streams, opts.View, opts.Raw, opts.ShowSensitive)
	if ds.HasErrors() {
		view.Diagnostics(ds)
		view.HelpPrompt()
		return 1
	}
	// As OpenTofu's backend checks before anything else.
	if ds := workdir.CheckInstalledProviders("."); ds.HasErrors() {
		view.Diagnostics(ds)
		return 1
	}
	if opts.JSONInto != "" {
		f, err := os.OpenFile(opts.JSONInto, os.O_TRUNC|os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			view.Diagnostics(diags.Diagnostics{diags.Errorf("Invalid argument",
				"Unable to open the file %q specified by -json-into for writing: %s", opts.JSONInto, err)})
			return 1
		}
		defer f.Close()
		view.JSONInto(f)
	}
	snapshot, loadDiags := loadWorkspaceState(context.Background(), ".", opts.Vars)
	if loadDiags.HasErrors() {
		view.StateDiagnostics(loadDiags, rootModuleSources("."))
		return 1
	}
	viewDiags := view.Outputs(snapshot.State.Outputs, opts.Name)
	view.Diagnostics(viewDiags)
	if viewDiags.HasErrors() {
		return 1
	}
	return 0
}

// loadWorkspaceState reads the current workspace's state from the store in
// dir, with the store's version of the workspace record; vars are -var and
// -var-file, for an encryption configuration that uses variables. Its
// diagnostics may point into the root module's files: print them with
// rootModuleSources(dir).
func loadWorkspaceState(ctx context.Context, dir string, vars []inputvars.VarOption) (*recordstore.Snapshot, diags.Diagnostics) {
	project, err := workdir.Project()
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Invalid project", "%s.", err)}
	}
	workspace, err := workdir.CurrentWorkspace(dir)
	if err != nil {
		return nil, diags.Diagnostics{run.CurrentWorkspaceError(err)}
	}
	cipher, cipherDiags := run.StateCipher(dir, nil, vars, os.Environ())
	if cipherDiags.HasErrors() {
		return nil, cipherDiags
	}
	store, closeStore, err := workdir.OpenStore(dir, project, workspace, cipher)
	if err != nil {
		return nil, diags.Diagnostics{firstError(diags.Diagnostics{}.Append(err))}
	}
	defer closeStore()
	snapshot, err := store.Load(ctx)
	if err != nil {
		return nil, diags.Diagnostics{storeError("Failed to read the state", fmt.Errorf("reading workspace %q: %w", workspace, err), "")}
	}
	return snapshot, nil
}
