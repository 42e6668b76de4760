package command

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sort"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/version"
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
	platform := runtime.GOOS + "_" + runtime.GOARCH
	selections := lockedProviderVersions()
	if *asJSON {
		out, _ := json.MarshalIndent(struct {
			Version            string            `json:"terraform_version"`
			Platform           string            `json:"platform"`
			ProviderSelections map[string]string `json:"provider_selections"`
		}{version.OpenTofuVersion, platform, selections}, "", "  ")
		fmt.Fprintln(streams.Stdout, string(out))
		return 0
	}
	fmt.Fprintf(streams.Stdout, "Terrane v%s\non %s\n", version.String(), platform)
	providers := make([]string, 0, len(selections))
	for provider := range selections {
		providers = append(providers, provider)
	}
	sort.Strings(providers)
	for _, provider := range providers {
		if v := selections[provider]; v == "0.0.0" {
			fmt.Fprintf(streams.Stdout, "+ provider %s (unversioned)\n", provider)
		} else {
			fmt.Fprintf(streams.Stdout, "+ provider %s v%s\n", provider, v)
		}
	}
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
