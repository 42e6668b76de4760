package command

import (
	"context"
	"flag"
	"fmt"
	"io"
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
	opts, ds := parseOutputArgs(args)
	if opts.help {
		printCommandHelp(streams.Stdout, "output")
		return 0
	}
	view := views.NewOutput(streams, arguments.View{NoColor: opts.noColor, JSON: opts.json}, opts.raw, opts.showSensitive)
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
	if opts.jsonInto != "" {
		f, err := os.OpenFile(opts.jsonInto, os.O_TRUNC|os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			view.Diagnostics(diags.Diagnostics{diags.Errorf("Invalid argument",
				"Unable to open the file %q specified by -json-into for writing: %s", opts.jsonInto, err)})
			return 1
		}
		defer f.Close()
		view.JSONInto(f)
	}
	snapshot, loadDiags := loadWorkspaceState(context.Background(), ".", opts.vars)
	if loadDiags.HasErrors() {
		view.StateDiagnostics(loadDiags, rootModuleSources("."))
		return 1
	}
	viewDiags := view.Outputs(snapshot.State.Outputs, opts.name)
	view.Diagnostics(viewDiags)
	if viewDiags.HasErrors() {
		return 1
	}
	return 0
}

// outputArgs are the output command's options.
type outputArgs struct {
	name                     string
	json, raw, showSensitive bool
	noColor, help            bool
	jsonInto, statePath      string
	vars                     []inputvars.VarOption
}

func parseOutputArgs(args []string) (outputArgs, diags.Diagnostics) {
	var opts outputArgs
	var ds diags.Diagnostics
	fs := flag.NewFlagSet("output", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&opts.json, "json", false, "")
	fs.BoolVar(&opts.raw, "raw", false, "")
	fs.BoolVar(&opts.showSensitive, "show-sensitive", false, "")
	fs.BoolVar(&opts.noColor, "no-color", false, "")
	fs.StringVar(&opts.jsonInto, "json-into", "", "")
	fs.StringVar(&opts.statePath, "state", "", "")
	arguments.AddVarFlags(fs, &opts.vars)
	if err := fs.Parse(args); err == flag.ErrHelp {
		opts.help = true
		return opts, nil
	} else if err != nil {
		ds = ds.Append(diags.Errorf("Failed to parse command-line flags", "%s", err))
	}
	if opts.statePath != "" {
		// Terrane keeps state in its store, never in a local state file.
		ds = ds.Append(diags.Errorf("Unsupported option -state",
			"Terrane reads outputs from the workspace's records in its store, not from a state file, so -state=%q cannot be used. Leave it out to read the selected workspace.", opts.statePath))
	}
	if fs.NArg() > 1 {
		ds = ds.Append(diags.Errorf("Unexpected argument",
			"The output command expects exactly one argument with the name of an output variable or no arguments to show all outputs."))
	}
	if opts.json && opts.jsonInto != "" {
		ds = ds.Append(diags.Errorf("Invalid output format", "The -json and -json-into arguments are mutually exclusive"))
	}
	if opts.raw && opts.json {
		ds = ds.Append(diags.Errorf("Invalid output format", "The -raw and -json options are mutually-exclusive."))
		opts.raw, opts.json = false, false
	}
	if fs.NArg() > 0 {
		opts.name = fs.Arg(0)
	}
	if opts.raw && opts.name == "" {
		ds = ds.Append(diags.Errorf("Output name required", "You must give the name of a single output value when using the -raw option."))
	}
	return opts, ds
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
