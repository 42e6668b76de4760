package arguments

import (
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// Validate is `terrane validate`'s command line: the view options and,
// for the early evaluation of module sources, -var and -var-file.
type Validate struct {
	View
	Vars []inputvars.VarOption
}

// ParseValidate parses `terrane validate`'s arguments. It reports the
// first problem only. A directory argument is refused: Terrane validates
// the working directory, which the global -chdir option chooses.
func ParseValidate(args []string) (*Validate, diags.Diagnostics) {
	validate := &Validate{}
	fs := newFlagSet("validate")
	fs.BoolVar(&validate.JSON, "json", false, "")
	fs.BoolVar(&validate.NoColor, "no-color", false, "")
	fs.BoolVar(&validate.CompactWarnings, "compact-warnings", false, "")
	addVarFlags(fs, &validate.Vars)
	if ds := parseFlagsRefusingHelp(fs, args); ds.HasErrors() {
		return validate, ds
	}
	switch {
	case fs.NArg() > 1:
		return validate, diags.Diagnostics{diags.Errorf("Too many command line arguments", "Expected at most one positional argument.")}
	case fs.NArg() == 1:
		return validate, diags.Diagnostics{diags.Errorf("Directory argument not supported",
			"Terrane validates the configuration in the working directory only, not %q. Use the global -chdir option instead: terrane -chdir=%s validate.", fs.Arg(0), fs.Arg(0))}
	}
	return validate, nil
}
