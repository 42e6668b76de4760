package command

import (
	"io"
	"runtime"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
)

// runVersion is `terrane version [-json]`. As `tofu version` does, it
// reports the providers the dependency lock file selects, when there is
// one; -json writes OpenTofu's document, in which "terraform_version" is
// the OpenTofu version Terrane implements.
func runVersion(streams views.Streams, args []string) int {
	fs := newFlagSet("version", streams)
	fs.SetOutput(io.Discard)
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	asJSON := fs.Bool("json", false, "Print the version information as JSON")
	// -v and -version brought the command line here; they mean nothing
	// more to it.
	fs.Bool("v", true, "version")
	fs.Bool("version", true, "version")
	if err := fs.Parse(args); err != nil {
		writeLegacyDiagnostics(streams.Stderr, diags.Diagnostics{diags.Errorf("Failed to parse command-line flags", "%s", err)},
			ui.ColorEnabled(*noColor) && !*asJSON)
		if *asJSON {
			return 1
		}
		return runResultHelp
	}
	views.NewVersion(streams, *asJSON).Show(runtime.GOOS+"_"+runtime.GOARCH, lockedProviderVersions())
	return 0
}

// lockedProviderVersions are the provider versions the working directory's
// lock file selects; empty when there is no readable lock file, which is
// no error here: the command only informs.
func lockedProviderVersions() map[string]string {
	out := map[string]string{}
	locks, ds := depsfile.LoadFile(depsfile.FileName)
	if ds.HasErrors() || locks == nil {
		return out
	}
	for provider, lock := range locks.AllProviders() {
		out[provider.String()] = lock.Version().String()
	}
	return out
}
