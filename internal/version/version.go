// Package version holds Terrane's own version and the versions of the
// protocols and formats it speaks.
package version

// Version is Terrane's release version (semantic versioning).
const Version = "0.1.0"

// Prerelease is the pre-release label, empty for a release.
const Prerelease = "dev"

// OpenTofuVersion is the OpenTofu release whose language, formats and
// behaviour Terrane implements. It stands where OpenTofu puts its own
// version: `required_version` constraints are checked against it, it is
// sent to providers as the client's version, and the JSON formats, plan
// files and state files report it as "terraform_version".
const OpenTofuVersion = "1.12.6"

// ProviderProtocols lists the provider plugin protocol versions (major.minor)
// Terrane speaks, newest first.
var ProviderProtocols = []string{"6.11", "5.11"}

// String is the full version, such as "0.1.0-dev".
func String() string {
	if Prerelease == "" {
		return Version
	}
	return Version + "-" + Prerelease
}
