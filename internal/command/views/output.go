package views

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang/repl"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/ui"
)

// Output shows the root module's output values as OpenTofu's output
// command does: all of them, or one by name, as HCL values for people,
// as JSON (-json, and beside the text with -json-into), or one value
// alone for scripts (-raw). Listing all of them hides sensitive values
// unless -show-sensitive.
type Output struct {
	streams       Streams
	options       arguments.View
	raw           bool
	showSensitive bool
	// into receives the JSON form beside the others under -json-into.
	into io.Writer
}

// NewOutput is the output command's view with options; raw shows one
// value alone.
func NewOutput(streams Streams, options arguments.View, raw, showSensitive bool) *Output {
	return &Output{streams: streams, options: options, raw: raw, showSensitive: showSensitive}
}

// JSONInto writes the JSON form to w as well, as -json-into asks.
func (v *Output) JSONInto(w io.Writer) { v.into = w }

// Diagnostics writes warnings to stdout and errors to stderr, as
// OpenTofu's output command writes them.
func (v *Output) Diagnostics(ds diags.Diagnostics) {
	var warnings, errs diags.Diagnostics
	for _, d := range ds {
		if d.Severity == diags.Warning {
			warnings = append(warnings, d)
		} else {
			errs = append(errs, d)
		}
	}
	color := ui.ColorEnabled(v.options.NoColor)
	ui.WriteDiagnostics(v.streams.Stdout, warnings, nil, color)
	ui.WriteDiagnostics(v.streams.Stderr, errs, nil, color)
}

// HelpPrompt follows the errors in a command line.
func (v *Output) HelpPrompt() {
	fmt.Fprint(v.streams.Stderr, "\nFor more help on using this command, run:\n  terrane output -help\n")
}

// StateDiagnostics shows why the state could not be read; they may quote
// the files in sources.
func (v *Output) StateDiagnostics(ds diags.Diagnostics, sources ui.Sources) {
	ui.DiagnosticView{Color: ui.ColorEnabled(v.options.NoColor), ConsolidateWarnings: true}.Write(v.streams.Stdout, v.streams.Stderr, ds, sources)
}

// Outputs shows outputs, or only the one called name when it is not
// empty. Its diagnostics are what could not be shown (a name with no
// output, a value -raw cannot print).
func (v *Output) Outputs(outputs map[string]*states.OutputValue, name string) diags.Diagnostics {
	var ds diags.Diagnostics
	switch {
	case v.options.JSON:
		ds = writeOutputJSON(v.streams.Stdout, outputs, name)
	case v.raw:
		ds = writeOutputRaw(v.streams.Stdout, outputs, name)
	default:
		ds = writeOutputHuman(v.streams.Stdout, outputs, name, v.showSensitive)
	}
	if v.into != nil {
		ds = ds.Append(writeOutputJSON(v.into, outputs, name))
	}
	return ds
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
