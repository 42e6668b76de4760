package arguments

import (
	"fmt"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
)

// Import is `terrane import [options] ADDR ID`'s command line. Of the
// operation's options it sets Vars, Input, Lock and Parallelism.
type Import struct {
	Operation
	View
	// Addr is the resource instance address to import to, read by the
	// command; ID is the remote object's import ID.
	Addr, ID string
}

// ParseImport parses `terrane import`'s arguments. Unlike the other
// commands, import refuses an empty -var or -var-file.
func ParseImport(args []string) (*Import, diags.Diagnostics) {
	imp := &Import{}
	fs := newFlagSet("import")
	fs.Var(nonEmptyVarOptionFlag{vars: &imp.Vars}, "var", "")
	fs.Var(nonEmptyVarOptionFlag{vars: &imp.Vars, file: true}, "var-file", "")
	fs.BoolVar(&imp.NoColor, "no-color", false, "")
	// -input, -lock and -lock-timeout are accepted for compatibility:
	// import prompts for nothing, and records are written with
	// compare-and-swap, never locked.
	fs.BoolVar(&imp.Input, "input", true, "")
	fs.BoolVar(&imp.Lock, "lock", true, "")
	fs.Duration("lock-timeout", 0, "")
	fs.IntVar(&imp.Parallelism, "parallelism", engine.DefaultParallelism, "")
	if ds := parseFlagsRefusingHelp(fs, args); ds.HasErrors() {
		return imp, ds
	}
	if fs.NArg() != 2 {
		return imp, diags.Diagnostics{diags.Errorf("Invalid number of arguments", "The import command expects two arguments")}
	}
	imp.Addr, imp.ID = fs.Arg(0), fs.Arg(1)
	return imp, nil
}

// nonEmptyVarOptionFlag is varOptionFlag refusing an empty value.
type nonEmptyVarOptionFlag struct {
	vars *[]inputvars.VarOption
	file bool
}

func (f nonEmptyVarOptionFlag) String() string { return "" }
func (f nonEmptyVarOptionFlag) Set(text string) error {
	if text == "" {
		return fmt.Errorf("a value is required")
	}
	*f.vars = append(*f.vars, inputvars.VarOption{File: f.file, Text: text})
	return nil
}
