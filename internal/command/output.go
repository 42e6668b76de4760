package command

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/lang/repl"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/ui"
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
	color := ui.ColorEnabled(opts.noColor)
	writeDiags := func(ds diags.Diagnostics) {
		var warnings, errs diags.Diagnostics
		for _, d := range ds {
			if d.Severity == diags.Warning {
				warnings = append(warnings, d)
			} else {
				errs = append(errs, d)
			}
		}
		ui.WriteDiagnostics(streams.Stdout, warnings, nil, color)
		ui.WriteDiagnostics(streams.Stderr, errs, nil, color)
	}
	if ds.HasErrors() {
		writeDiags(ds)
		fmt.Fprint(streams.Stderr, "\nFor more help on using this command, run:\n  terrane output -help\n")
		return 1
	}
	// As OpenTofu's backend checks before anything else.
	if ds := workdir.CheckInstalledProviders("."); ds.HasErrors() {
		writeDiags(ds)
		return 1
	}
	var jsonInto io.Writer
	if opts.jsonInto != "" {
		f, err := os.OpenFile(opts.jsonInto, os.O_TRUNC|os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			writeDiags(diags.Diagnostics{diags.Errorf("Invalid argument",
				"Unable to open the file %q specified by -json-into for writing: %s", opts.jsonInto, err)})
			return 1
		}
		defer f.Close()
		jsonInto = f
	}
	snapshot, loadDiags := loadWorkspaceState(context.Background(), ".", opts.vars)
	if loadDiags.HasErrors() {
		ui.DiagnosticView{Color: color, ConsolidateWarnings: true}.Write(streams.Stdout, streams.Stderr, loadDiags, rootModuleSources("."))
		return 1
	}
	outputs := snapshot.State.Outputs
	var viewDiags diags.Diagnostics
	switch {
	case opts.json:
		viewDiags = writeOutputJSON(streams.Stdout, outputs, opts.name)
	case opts.raw:
		viewDiags = writeOutputRaw(streams.Stdout, outputs, opts.name)
	default:
		viewDiags = writeOutputHuman(streams.Stdout, outputs, opts.name, opts.showSensitive)
	}
	if jsonInto != nil {
		viewDiags = viewDiags.Append(writeOutputJSON(jsonInto, outputs, opts.name))
	}
	writeDiags(viewDiags)
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

// noOutputsWarning is OpenTofu's warning for a state with no outputs: in
// the human and raw forms it takes precedence over a missing name.
func noOutputsWarning() diags.Diagnostic {
	return diags.Diagnostic{Severity: diags.Warning, Summary: "No outputs found",
		Detail: "The state file either has no outputs defined, or all the defined outputs are empty. " +
			"Please define an output in your configuration with the `output` keyword and run `terrane refresh` " +
			"for it to become available. If you are using interpolation, please verify the interpolated value " +
			"is not empty. You can use the `terrane console` command to assist."}
}

func missingOutputError(name string) diags.Diagnostic {
	return diags.Errorf(fmt.Sprintf("Output %q not found", name),
		"The output variable requested could not be found in the state file. If you recently added this to "+
			"your configuration, be sure to run `terrane apply`, since the state won't be updated with new "+
			"output variables until that command is run.")
}

// writeOutputHuman lists the outputs, or shows one, as HCL values.
func writeOutputHuman(w io.Writer, outputs map[string]*states.OutputValue, name string, showSensitive bool) diags.Diagnostics {
	if len(outputs) == 0 {
		return diags.Diagnostics{noOutputsWarning()}
	}
	if name != "" {
		output, ok := outputs[name]
		if !ok {
			return diags.Diagnostics{missingOutputError(name)}
		}
		val, _ := output.Value.UnmarkDeep()
		fmt.Fprintln(w, repl.FormatValue(val, 0))
		return nil
	}
	var b strings.Builder
	for _, name := range sortedOutputNames(outputs) {
		output := outputs[name]
		if output.Sensitive && !showSensitive {
			fmt.Fprintf(&b, "%s = <sensitive>\n", name)
			continue
		}
		val, _ := output.Value.UnmarkDeep()
		fmt.Fprintf(&b, "%s = %s\n", name, repl.FormatValue(val, 0))
	}
	fmt.Fprintln(w, strings.TrimSpace(b.String()))
	return nil
}

// writeOutputRaw prints a string, number or bool output's value alone,
// with no quotes or newline, for scripts.
func writeOutputRaw(w io.Writer, outputs map[string]*states.OutputValue, name string) diags.Diagnostics {
	if len(outputs) == 0 {
		return diags.Diagnostics{noOutputsWarning()}
	}
	output, ok := outputs[name]
	if !ok {
		return diags.Diagnostics{missingOutputError(name)}
	}
	val, _ := output.Value.UnmarkDeep()
	text, err := convert.Convert(val, cty.String)
	switch {
	case err != nil:
		return diags.Diagnostics{diags.Errorf("Unsupported value for raw output",
			"The -raw option only supports strings, numbers, and boolean values, but output value %q is %s.\n\n"+
				"Use the -json option for machine-readable representations of output values that have complex types.",
			name, val.Type().FriendlyName())}
	case text.IsNull():
		return diags.Diagnostics{diags.Errorf("Unsupported value for raw output",
			"The value for output value %q is null, so -raw mode cannot print it.", name)}
	case !text.IsKnown():
		return diags.Diagnostics{diags.Errorf("Unsupported value for raw output",
			"The value for output value %q won't be known until after a successful terrane apply, so -raw mode cannot print it.", name)}
	}
	io.WriteString(w, text.AsString())
	return nil
}

// outputMeta is one output as `output -json` lists it: OpenTofu keeps the
// shape of state format 3's outputs.
type outputMeta struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type"`
	Value     json.RawMessage `json:"value"`
}

// writeOutputJSON prints one output's value as JSON, or every output with
// its type and sensitivity.
func writeOutputJSON(w io.Writer, outputs map[string]*states.OutputValue, name string) diags.Diagnostics {
	if name != "" {
		output, ok := outputs[name]
		if !ok {
			return diags.Diagnostics{missingOutputError(name)}
		}
		val, _ := output.Value.UnmarkDeep()
		encoded, err := ctyjson.Marshal(val, val.Type())
		if err != nil {
			return diags.Diagnostics{diags.Errorf("Cannot encode output", "Output %q cannot be encoded as JSON: %s.", name, err)}
		}
		fmt.Fprintln(w, string(encoded))
		return nil
	}
	rendered := make(map[string]outputMeta, len(outputs))
	for name, output := range outputs {
		val, _ := output.Value.UnmarkDeep()
		value, err := ctyjson.Marshal(val, val.Type())
		if err != nil {
			return diags.Diagnostics{diags.Errorf("Cannot encode output", "Output %q cannot be encoded as JSON: %s.", name, err)}
		}
		ty, err := ctyjson.MarshalType(val.Type())
		if err != nil {
			return diags.Diagnostics{diags.Errorf("Cannot encode output", "Output %q cannot be encoded as JSON: %s.", name, err)}
		}
		rendered[name] = outputMeta{Sensitive: output.Sensitive, Type: ty, Value: value}
	}
	encoded, err := json.MarshalIndent(rendered, "", "  ")
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot encode outputs", "%s.", err)}
	}
	fmt.Fprintln(w, string(encoded))
	return nil
}

func sortedOutputNames(outputs map[string]*states.OutputValue) []string {
	names := make([]string, 0, len(outputs))
	for name := range outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
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
