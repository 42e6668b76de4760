package arguments

import (
	"flag"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// StateOptions are the options every state subcommand, taint and untaint
// take: -no-color, -json (not state pull, which prints JSON already), and
// -var and -var-file for an encryption configuration that uses variables.
type StateOptions struct {
	View
	Vars []inputvars.VarOption
}

// StateList is `terrane state list [-id=ID] [ADDR...]`'s command line.
type StateList struct {
	StateOptions
	// ID lists only the instances whose object has this id.
	ID    string
	Addrs []string
}

// StateMv is `terrane state mv [-dry-run] SOURCE DESTINATION`'s command
// line.
type StateMv struct {
	StateOptions
	DryRun              bool
	Source, Destination string
}

// StatePull is `terrane state pull`'s command line.
type StatePull struct {
	StateOptions
}

// StatePush is `terrane state push [-force] FILE`'s command line.
type StatePush struct {
	StateOptions
	// Force pushes even if the lineage differs or the serial is lower.
	Force bool
	// Path is the state file, "-" for stdin.
	Path string
}

// StateReplaceProvider is `terrane state replace-provider [-auto-approve]
// FROM TO`'s command line.
type StateReplaceProvider struct {
	StateOptions
	AutoApprove bool
	From, To    string
}

// StateRm is `terrane state rm [-dry-run] ADDR...`'s command line.
type StateRm struct {
	StateOptions
	DryRun bool
	Addrs  []string
}

// StateShow is `terrane state show ADDR`'s command line.
type StateShow struct {
	StateOptions
	Addr string
}

// StateReencrypt is `terrane state reencrypt`'s command line.
type StateReencrypt struct {
	StateOptions
}

// Taint is the command line of `terrane taint` and `terrane untaint`:
// [-allow-missing] ADDR.
type Taint struct {
	StateOptions
	// AllowMissing makes a missing instance a warning, not an error.
	AllowMissing bool
	Addr         string
}

// newStateFlagSet registers the options every state command takes.
func newStateFlagSet(command string, opts *StateOptions) *flag.FlagSet {
	fs := newFlagSet(command)
	fs.BoolVar(&opts.NoColor, "no-color", false, "")
	if command != "state pull" {
		// OpenTofu's state pull has no -json flag: it already prints JSON.
		fs.BoolVar(&opts.JSON, "json", false, "")
	}
	addVarFlags(fs, &opts.Vars)
	return fs
}

// parseStateFlags runs fs.Parse for a state command; -help is refused as
// any unknown flag, the runner having printed the help already.
func parseStateFlags(fs *flag.FlagSet, command string, args []string) diags.Diagnostics {
	err := fs.Parse(args)
	if err == nil {
		return nil
	}
	summary := "Failed to parse command-line flags"
	if command == "state replace-provider" {
		summary = "Error parsing command-line flags" // as OpenTofu words it there
	}
	return diags.Diagnostics{diags.Errorf(summary, "%s", err)}
}

// ParseStateList parses `terrane state list`'s arguments.
func ParseStateList(args []string) (*StateList, diags.Diagnostics) {
	list := &StateList{}
	fs := newStateFlagSet("state list", &list.StateOptions)
	fs.StringVar(&list.ID, "id", "", "")
	ds := parseStateFlags(fs, "state list", args)
	if !ds.HasErrors() {
		list.Addrs = fs.Args()
	}
	return list, ds
}

// ParseStateMv parses `terrane state mv`'s arguments.
func ParseStateMv(args []string) (*StateMv, diags.Diagnostics) {
	mv := &StateMv{}
	fs := newStateFlagSet("state mv", &mv.StateOptions)
	fs.BoolVar(&mv.DryRun, "dry-run", false, "")
	addLockFlags(fs)
	if ds := parseStateFlags(fs, "state mv", args); ds.HasErrors() {
		return mv, ds
	}
	if fs.NArg() != 2 {
		return mv, diags.Diagnostics{diags.Errorf("Invalid number of arguments", "Exactly two arguments expected")}
	}
	mv.Source, mv.Destination = fs.Arg(0), fs.Arg(1)
	return mv, nil
}

// ParseStatePull parses `terrane state pull`'s arguments.
func ParseStatePull(args []string) (*StatePull, diags.Diagnostics) {
	pull := &StatePull{}
	fs := newStateFlagSet("state pull", &pull.StateOptions)
	if ds := parseStateFlags(fs, "state pull", args); ds.HasErrors() {
		return pull, ds
	}
	if fs.NArg() > 0 {
		return pull, diags.Diagnostics{unexpectedArgument()}
	}
	return pull, nil
}

// ParseStatePush parses `terrane state push`'s arguments.
func ParseStatePush(args []string) (*StatePush, diags.Diagnostics) {
	push := &StatePush{}
	fs := newStateFlagSet("state push", &push.StateOptions)
	fs.BoolVar(&push.Force, "force", false, "")
	addLockFlags(fs)
	if ds := parseStateFlags(fs, "state push", args); ds.HasErrors() {
		return push, ds
	}
	if fs.NArg() != 1 {
		return push, diags.Diagnostics{diags.Errorf("Invalid number of arguments", "Exactly one argument expected")}
	}
	push.Path = fs.Arg(0)
	return push, nil
}

// ParseStateReplaceProvider parses `terrane state replace-provider`'s
// arguments. The provider addresses are read by the command.
func ParseStateReplaceProvider(args []string) (*StateReplaceProvider, diags.Diagnostics) {
	replace := &StateReplaceProvider{}
	fs := newStateFlagSet("state replace-provider", &replace.StateOptions)
	fs.BoolVar(&replace.AutoApprove, "auto-approve", false, "")
	addLockFlags(fs)
	if ds := parseStateFlags(fs, "state replace-provider", args); ds.HasErrors() {
		return replace, ds
	}
	if fs.NArg() != 2 {
		return replace, diags.Diagnostics{diags.Errorf("Invalid number of arguments", "Exactly two arguments expected")}
	}
	replace.From, replace.To = fs.Arg(0), fs.Arg(1)
	return replace, nil
}

// ParseStateRm parses `terrane state rm`'s arguments.
func ParseStateRm(args []string) (*StateRm, diags.Diagnostics) {
	rm := &StateRm{}
	fs := newStateFlagSet("state rm", &rm.StateOptions)
	fs.BoolVar(&rm.DryRun, "dry-run", false, "")
	addLockFlags(fs)
	if ds := parseStateFlags(fs, "state rm", args); ds.HasErrors() {
		return rm, ds
	}
	if fs.NArg() == 0 {
		return rm, diags.Diagnostics{diags.Errorf("Invalid number of arguments", "At least one address is required")}
	}
	rm.Addrs = fs.Args()
	return rm, nil
}

// ParseStateShow parses `terrane state show`'s arguments. The address is
// read by the command.
func ParseStateShow(args []string) (*StateShow, diags.Diagnostics) {
	show := &StateShow{}
	fs := newStateFlagSet("state show", &show.StateOptions)
	if ds := parseStateFlags(fs, "state show", args); ds.HasErrors() {
		return show, ds
	}
	if fs.NArg() != 1 {
		return show, diags.Diagnostics{diags.Errorf("Invalid number of arguments", "Exactly one argument expected")}
	}
	show.Addr = fs.Arg(0)
	return show, nil
}

// ParseStateReencrypt parses `terrane state reencrypt`'s arguments.
func ParseStateReencrypt(args []string) (*StateReencrypt, diags.Diagnostics) {
	reencrypt := &StateReencrypt{}
	fs := newStateFlagSet("state reencrypt", &reencrypt.StateOptions)
	if ds := parseStateFlags(fs, "state reencrypt", args); ds.HasErrors() {
		return reencrypt, ds
	}
	if fs.NArg() > 0 {
		return reencrypt, diags.Diagnostics{diags.Errorf("Unexpected argument",
			"terrane state reencrypt takes no arguments; it rewrites the current workspace's records.")}
	}
	return reencrypt, nil
}

// ParseTaint parses `terrane taint`'s arguments. The address is read by
// the command.
func ParseTaint(args []string) (*Taint, diags.Diagnostics) { return parseTaint("taint", args) }

// ParseUntaint parses `terrane untaint`'s arguments.
func ParseUntaint(args []string) (*Taint, diags.Diagnostics) { return parseTaint("untaint", args) }

func parseTaint(command string, args []string) (*Taint, diags.Diagnostics) {
	taint := &Taint{}
	fs := newStateFlagSet(command, &taint.StateOptions)
	fs.BoolVar(&taint.AllowMissing, "allow-missing", false, "")
	addLockFlags(fs)
	if ds := parseStateFlags(fs, command, args); ds.HasErrors() {
		return taint, ds
	}
	if fs.NArg() != 1 {
		return taint, diags.Diagnostics{diags.Errorf("Invalid arguments", "The %s command expects exactly one argument.", command)}
	}
	taint.Addr = fs.Arg(0)
	return taint, nil
}
