// Package version holds Terrane's own version and the versions of the
// protocols and formats it speaks.
package version

// Version is Terrane's release version (semantic versioning).
const Version = "0.1.0"

// Prerelease is the pre-release label, empty for a release.
const Prerelease = "dev"

// CompatibleTerraformVersion is the Terraform language version Terrane
// implements; `required_version` constraints are checked against it and it
// is sent to providers as the client's version.
const CompatibleTerraformVersion = "1.11.0"

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
