package command

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/jsonstate"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang/repl"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

// runOutput is `terrane output [-json] [-raw] [NAME]`: the root output
// values the last apply recorded in the workspace. Listing all of them
// hides sensitive values; asking for one by name, or for JSON, shows it,
// as Terraform does.
func runOutput(streams Streams, args []string) int {
	fs := newFlagSet("output", streams)
	asJSON := fs.Bool("json", false, "Print the outputs as JSON")
	raw := fs.Bool("raw", false, "Print a string, number or bool output's value with no quoting or newline")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	var vars []arguments.VarOption
	arguments.AddVarFlags(fs, &vars)
	if err := fs.Parse(args); err != nil {
		return 1
	}
	color := ui.ColorEnabled(*noColor)
	fail := func(d diags.Diagnostic) int {
		ui.WriteDiagnostics(streams.Stderr, diags.Diagnostics{d}, nil, color)
		return 1
	}
	if fs.NArg() > 1 {
		return fail(diags.Errorf("Too many arguments", "terrane output takes at most one argument, the name of an output; got %d.", fs.NArg()))
	}
	if *raw && *asJSON {
		return fail(diags.Errorf("Conflicting options", "The -raw and -json options cannot be used together."))
	}
	if *raw && fs.NArg() == 0 {
		return fail(diags.Errorf("Output name required", "The -raw option prints one output: give its name, as in \"terrane output -raw NAME\"."))
	}
	snapshot, ds := loadWorkspaceState(context.Background(), ".", vars)
	if ds.HasErrors() {
		ui.WriteDiagnostics(streams.Stderr, ds, rootModuleSources("."), color)
		return 1
	}
	state := snapshot.State
	if fs.NArg() == 1 {
		return writeOneOutput(streams, state.Outputs, fs.Arg(0), *asJSON, *raw, fail)
	}
	if *asJSON {
		return writeOutputsJSON(streams.Stdout, state.Outputs, fail)
	}
	if len(state.Outputs) == 0 {
		ui.WriteDiagnostics(streams.Stderr, diags.Diagnostics{{Severity: diags.Warning, Summary: "No outputs found",
			Detail: "The workspace has no output values recorded. Declare outputs with output blocks and run \"terrane apply\" (or \"terrane refresh\") to record their values."}}, nil, color)
		return 0
	}
	names := make([]string, 0, len(state.Outputs))
	for name := range state.Outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		output := state.Outputs[name]
		if output.Sensitive {
			fmt.Fprintf(streams.Stdout, "%s = <sensitive>\n", name)
			continue
		}
		fmt.Fprintf(streams.Stdout, "%s = %s\n", name, repl.FormatValue(output.Value, 0))
	}
	return 0
}

func writeOneOutput(streams Streams, outputs map[string]*states.OutputValue, name string, asJSON, raw bool, fail func(diags.Diagnostic) int) int {
	output, ok := outputs[name]
	if !ok {
		return fail(diags.Errorf("Output \""+name+"\" not found",
			"The workspace has no output named %q. Run \"terrane output\" to list the outputs it has; an output declared since the last apply appears once \"terrane apply\" records it.", name))
	}
	val, _ := output.Value.UnmarkDeep()
	switch {
	case asJSON:
		encoded, err := ctyjson.Marshal(val, val.Type())
		if err != nil {
			return fail(diags.Errorf("Cannot encode output", "Output %q cannot be encoded as JSON: %s.", name, err))
		}
		fmt.Fprintln(streams.Stdout, string(encoded))
	case raw:
		text, err := rawOutputText(val)
		if err != nil {
			return fail(diags.Errorf("Unsupported value for raw output",
				"Output %q is %s; -raw prints only strings, numbers and bools. Use -json for other values.", name, err))
		}
		io.WriteString(streams.Stdout, text)
	default:
		fmt.Fprintln(streams.Stdout, repl.FormatValue(val, 0))
	}
	return 0
}

// rawOutputText is a primitive value as -raw prints it; the error describes
// a value it cannot print.
func rawOutputText(val cty.Value) (string, error) {
	if val.IsNull() {
		return "", fmt.Errorf("null")
	}
	switch val.Type() {
	case cty.String:
		return val.AsString(), nil
	case cty.Number:
		return val.AsBigFloat().Text('f', -1), nil
	case cty.Bool:
		if val.True() {
			return "true", nil
		}
		return "false", nil
	}
	return "", fmt.Errorf("of type %s", val.Type().FriendlyName())
}

// outputMeta is one output as `output -json` lists it, OpenTofu's
// views.OutputJSON: its fields in this order.
type outputMeta struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type"`
	Value     json.RawMessage `json:"value"`
}

func writeOutputsJSON(w io.Writer, outputs map[string]*states.OutputValue, fail func(diags.Diagnostic) int) int {
	described, err := jsonstate.NewOutputs(outputs)
	if err != nil {
		return fail(diags.Errorf("Cannot encode outputs", "%s.", err))
	}
	rendered := make(map[string]outputMeta, len(described))
	for name, output := range described {
		rendered[name] = outputMeta{Sensitive: output.Sensitive, Type: output.Type, Value: output.Value}
	}
	encoded, err := json.MarshalIndent(rendered, "", "  ")
	if err != nil {
		return fail(diags.Errorf("Cannot encode outputs", "%s.", err))
	}
	fmt.Fprintln(w, string(encoded))
	return 0
}

// loadWorkspaceState reads the current workspace's state from the store in
// dir, with the store's version of the workspace record; vars are -var and
// -var-file, for an encryption configuration that uses variables. Its
// diagnostics may point into the root module's files: print them with
// rootModuleSources(dir).
func loadWorkspaceState(ctx context.Context, dir string, vars []arguments.VarOption) (*recordstore.Snapshot, diags.Diagnostics) {
	project, err := workdir.Project()
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Invalid project", "%s.", err)}
	}
	workspace, err := workdir.CurrentWorkspace(dir)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Invalid workspace", "%s.", err)}
	}
	cipher, cipherDiags := stateCipher(dir, nil, vars)
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
