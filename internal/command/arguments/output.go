package arguments

import (
	"errors"
	"flag"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// Output is `terrane output [options] [NAME]`'s command line.
type Output struct {
	View
	// Name is the one output to show; empty for all of them.
	Name          string
	Raw           bool
	ShowSensitive bool
	// JSONInto is a file that also receives the -json form.
	JSONInto string
	// StatePath is -state, which Terrane refuses: outputs are read from
	// the workspace's records.
	StatePath string
	Vars      []inputvars.VarOption
}

// ParseOutput parses `terrane output`'s arguments. Every problem is
// reported, as OpenTofu's parser reports them; -raw with -json leaves
// both unset.
func ParseOutput(args []string) (*Output, diags.Diagnostics) {
	out := &Output{}
	var ds diags.Diagnostics
	fs := newFlagSet("output")
	fs.BoolVar(&out.JSON, "json", false, "")
	fs.BoolVar(&out.Raw, "raw", false, "")
	fs.BoolVar(&out.ShowSensitive, "show-sensitive", false, "")
	fs.BoolVar(&out.NoColor, "no-color", false, "")
	fs.StringVar(&out.JSONInto, "json-into", "", "")
	fs.StringVar(&out.StatePath, "state", "", "")
	addVarFlags(fs, &out.Vars)
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		out.Help = true
		return out, nil
	} else if err != nil {
		ds = ds.Append(flagsError(err))
	}
	if out.StatePath != "" {
		// Terrane keeps state in its store, never in a local state file.
		ds = ds.Append(diags.Errorf("Unsupported option -state",
			"Terrane reads outputs from the workspace's records in its store, not from a state file, so -state=%q cannot be used. Leave it out to read the selected workspace.", out.StatePath))
	}
	if fs.NArg() > 1 {
		ds = ds.Append(diags.Errorf("Unexpected argument",
			"The output command expects exactly one argument with the name of an output variable or no arguments to show all outputs."))
	}
	if out.JSON && out.JSONInto != "" {
		ds = ds.Append(diags.Errorf("Invalid output format", "The -json and -json-into arguments are mutually exclusive"))
	}
	if out.Raw && out.JSON {
		ds = ds.Append(diags.Errorf("Invalid output format", "The -raw and -json options are mutually-exclusive."))
		out.Raw, out.JSON = false, false
	}
	if fs.NArg() > 0 {
		out.Name = fs.Arg(0)
	}
	if out.Raw && out.Name == "" {
		ds = ds.Append(diags.Errorf("Output name required", "You must give the name of a single output value when using the -raw option."))
	}
	return out, ds
}
