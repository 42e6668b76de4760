package arguments

import "github.com/terrane/terrane/internal/diags"

// MetadataFunctions is `terrane metadata functions -json`'s command line.
type MetadataFunctions struct {
	View
}

// ParseMetadataFunctions parses `terrane metadata functions`'s arguments:
// -json is required. Positional arguments are ignored, as OpenTofu ignores
// them.
func ParseMetadataFunctions(args []string) (*MetadataFunctions, diags.Diagnostics) {
	metadata := &MetadataFunctions{}
	fs := newFlagSet("metadata functions")
	fs.BoolVar(&metadata.JSON, "json", false, "")
	fs.BoolVar(&metadata.NoColor, "no-color", false, "")
	if ds := parseFlagsRefusingHelp(fs, args); ds.HasErrors() {
		return metadata, ds
	}
	if !metadata.JSON {
		return metadata, diags.Diagnostics{diags.Errorf("Invalid arguments",
			"The `terrane metadata functions` command requires the `-json` flag.")}
	}
	return metadata, nil
}
