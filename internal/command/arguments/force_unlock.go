package arguments

import "github.com/terrane/terrane/internal/diags"

// ForceUnlock is `terrane force-unlock [-force] RUN_ID`'s command line.
type ForceUnlock struct {
	View
	// Force releases the claims without asking.
	Force bool
	// Args are the positional arguments: the command takes exactly one,
	// the run ID, and says so itself.
	Args []string
}

// ParseForceUnlock parses `terrane force-unlock`'s options.
func ParseForceUnlock(args []string) (*ForceUnlock, diags.Diagnostics) {
	unlock := &ForceUnlock{}
	fs := newFlagSet("force-unlock")
	fs.BoolVar(&unlock.Force, "force", false, "")
	fs.BoolVar(&unlock.NoColor, "no-color", false, "")
	ds := parseFlagsRefusingHelp(fs, args)
	unlock.Args = fs.Args()
	return unlock, ds
}
