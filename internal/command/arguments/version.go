package arguments

import "github.com/terrane/terrane/internal/diags"

// Version is `terrane version`'s command line.
type Version struct {
	View
}

// ParseVersion parses `terrane version [-json]`'s arguments; positional
// arguments are ignored, as OpenTofu ignores them.
func ParseVersion(args []string) (*Version, diags.Diagnostics) {
	version := &Version{}
	fs := newFlagSet("version")
	fs.BoolVar(&version.NoColor, "no-color", false, "")
	fs.BoolVar(&version.JSON, "json", false, "")
	// -v and -version brought the command line here; they mean nothing
	// more to it.
	fs.Bool("v", true, "")
	fs.Bool("version", true, "")
	return version, parseFlagsRefusingHelp(fs, args)
}
