package views

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/terrane/terrane/internal/version"
)

// Version shows `terrane version`: Terrane's version, the platform and
// the providers the dependency lock file selects, as `tofu version`
// does; with -json, OpenTofu's document, in which "terraform_version" is
// the OpenTofu version Terrane implements.
type Version struct {
	streams Streams
	json    bool
}

// NewVersion is the version command's view.
func NewVersion(streams Streams, asJSON bool) *Version {
	return &Version{streams: streams, json: asJSON}
}

// Show shows the version on platform ("linux_amd64") and selections, the
// locked version of each provider by address.
func (v *Version) Show(platform string, selections map[string]string) {
	if v.json {
		out, _ := json.MarshalIndent(struct {
			Version            string            `json:"terraform_version"`
			Platform           string            `json:"platform"`
			ProviderSelections map[string]string `json:"provider_selections"`
		}{version.OpenTofuVersion, platform, selections}, "", "  ")
		fmt.Fprintln(v.streams.Stdout, string(out))
		return
	}
	fmt.Fprintf(v.streams.Stdout, "Terrane v%s\non %s\n", version.String(), platform)
	providers := make([]string, 0, len(selections))
	for provider := range selections {
		providers = append(providers, provider)
	}
	sort.Strings(providers)
	for _, provider := range providers {
		if locked := selections[provider]; locked == "0.0.0" {
			fmt.Fprintf(v.streams.Stdout, "+ provider %s (unversioned)\n", provider)
		} else {
			fmt.Fprintf(v.streams.Stdout, "+ provider %s v%s\n", provider, locked)
		}
	}
}
