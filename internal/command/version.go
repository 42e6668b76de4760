package command

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"

	"github.com/terrane/terrane/internal/version"
)

func runVersion(streams Streams, args []string) int {
	fs := newFlagSet("version", streams)
	asJSON := fs.Bool("json", false, "Print the version information as JSON")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	platform := runtime.GOOS + "_" + runtime.GOARCH
	if *asJSON {
		out, _ := json.MarshalIndent(map[string]any{
			"terrane_version":     version.String(),
			"terraform_version":   version.CompatibleTerraformVersion,
			"platform":            platform,
			"provider_protocols":  version.ProviderProtocols,
			"provider_selections": map[string]string{},
			"terraform_outdated":  false,
		}, "", "  ")
		fmt.Fprintln(streams.Stdout, string(out))
		return 0
	}
	fmt.Fprintf(streams.Stdout, "Terrane v%s\non %s\n\nProvider plugin protocols: %s\nTerraform language compatibility: %s\n",
		version.String(), platform, strings.Join(version.ProviderProtocols, ", "), version.CompatibleTerraformVersion)
	return 0
}
