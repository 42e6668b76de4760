package command

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sort"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/version"
)

// runVersion is `terrane version [-json]`. As `tofu version` does, it
// reports the providers the dependency lock file selects, when there is
// one; -json writes OpenTofu's document, in which "terraform_version" is
// the OpenTofu version Terrane implements.
func runVersion(streams Streams, args []string) int {
	opts, argDiags := arguments.ParseVersion(args)
	if argDiags.HasErrors() {
		writeLegacyDiagnostics(streams.Stderr, argDiags, ui.ColorEnabled(opts.NoColor) && !opts.JSON)
		if opts.JSON {
			return 1
		}
		return runResultHelp
	}
	platform := runtime.GOOS + "_" + runtime.GOARCH
	selections := lockedProviderVersions()
	if opts.JSON {
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
