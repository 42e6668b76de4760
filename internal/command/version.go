package command

import (
	"runtime"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/ui"
)

// runVersion is `terrane version [-json]`. As `tofu version` does, it
// reports the providers the dependency lock file selects, when there is
// one; -json writes OpenTofu's document, in which "terraform_version" is
// the OpenTofu version Terrane implements.
func runVersion(streams views.Streams, args []string) int {
	opts, argDiags := arguments.ParseVersion(args)
	if argDiags.HasErrors() {
		writeLegacyDiagnostics(streams.Stderr, argDiags, ui.ColorEnabled(opts.NoColor) && !opts.JSON)
		if opts.JSON {
			return 1
		}
		return runResultHelp
	}
	views.NewVersion(streams, opts.JSON).Show(runtime.GOOS+"_"+runtime.GOARCH, lockedProviderVersions())
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
