package discovery

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// Platform is an operating system and architecture a package is built for.
type Platform struct {
	OS   string
	Arch string
}

// CurrentPlatform is the platform Terrane runs on, the one whose packages
// it can launch.
func CurrentPlatform() Platform {
	return Platform{OS: runtime.GOOS, Arch: runtime.GOARCH}
}

// ParsePlatform parses the OS_ARCH form used in package names and
// directory layouts, such as linux_amd64.
func ParsePlatform(raw string) (Platform, error) {
	osName, arch, found := strings.Cut(raw, "_")
	if !found || osName == "" || arch == "" || strings.Contains(arch, "_") {
		return Platform{}, fmt.Errorf("%q is not a platform: write OS_ARCH, such as linux_amd64", raw)
	}
	for _, part := range []string{osName, arch} {
		for _, r := range part {
			if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
				return Platform{}, fmt.Errorf("%q is not a platform: OS and architecture are lowercase letters and digits, such as linux_amd64", raw)
			}
		}
	}
	return Platform{OS: osName, Arch: arch}, nil
}

// ParsePlatformOption parses a platform given on the command line as
// OpenTofu does: two words separated by an underscore, neither holding
// whitespace. It is more lenient than ParsePlatform ("nonsense_" passes):
// a platform no package has simply finds nothing.
func ParsePlatformOption(raw string) (Platform, error) {
	parts := strings.Split(raw, "_")
	switch {
	case len(parts) != 2:
		return Platform{}, fmt.Errorf("must be two words separated by an underscore")
	case strings.ContainsAny(parts[0], " \t\n\r"):
		return Platform{}, fmt.Errorf("OS portion must not contain whitespace")
	case strings.ContainsAny(parts[1], " \t\n\r"):
		return Platform{}, fmt.Errorf("architecture portion must not contain whitespace")
	}
	return Platform{OS: parts[0], Arch: parts[1]}, nil
}

// String returns the OS_ARCH form.
func (p Platform) String() string {
	return p.OS + "_" + p.Arch
}

// PackageLocation is where a package's content is: PackageLocalArchive or
// PackageLocalDir.
type PackageLocation interface {
	String() string
	isPackageLocation()
}

// PackageLocalArchive is a package as a zip file on this machine.
type PackageLocalArchive string

// PackageLocalDir is a package already unpacked into a directory.
type PackageLocalDir string

func (p PackageLocalArchive) String() string   { return string(p) }
func (p PackageLocalDir) String() string       { return string(p) }
func (PackageLocalArchive) isPackageLocation() {}
func (PackageLocalDir) isPackageLocation()     {}

// PackageMeta describes one package: a build of one provider version for
// one platform, and where it is.
type PackageMeta struct {
	Provider tfaddr.Provider
	Version  versions.Version
	Platform Platform
	// Filename is the package's standard zip name,
	// terraform-provider-TYPE_VERSION_OS_ARCH.zip, even when it is unpacked.
	Filename string
	Location PackageLocation
}

// StandardFilename returns the zip name a package is published under.
func StandardFilename(provider tfaddr.Provider, version versions.Version, platform Platform) string {
	return fmt.Sprintf("terraform-provider-%s_%s_%s.zip", provider.Type, version, platform)
}

// Warnings are problems a source met that did not stop it, such as entries
// in a mirror directory it could not make sense of.
type Warnings []string

// Source is a place that offers provider packages.
type Source interface {
	// AvailableVersions lists the versions of provider the source has, for
	// any platform, sorted oldest first. A source that does not know the
	// provider returns an *ErrProviderNotFound.
	AvailableVersions(ctx context.Context, provider tfaddr.Provider) (versions.List, Warnings, error)
	// PackageMeta returns the package of a version for a platform. A source
	// that has the version but not for that platform returns an
	// *ErrPlatformNotSupported.
	PackageMeta(ctx context.Context, provider tfaddr.Provider, version versions.Version, platform Platform) (PackageMeta, error)
	// String describes the source for messages that list where Terrane
	// looked, such as "the filesystem mirror /opt/mirror".
	String() string
}
