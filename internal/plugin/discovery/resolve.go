package discovery

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
)

// ResolvedPackage is a provider package ready to launch.
type ResolvedPackage struct {
	Provider tfaddr.Provider
	// Version is the selected version; versions.Unspecified for a
	// development override, whose version is unknown.
	Version     versions.Version
	DevOverride bool
	// Dir is the unpacked package directory and Executable the provider
	// binary in it.
	Dir        string
	Executable string
	// Origin describes where the package came from, for messages.
	Origin string
}

// Hash computes the package's h1: hash, the value the dependency lock file
// records. It reads every byte of the package (hundreds of megabytes for
// large providers), so it is computed only when asked for.
func (p ResolvedPackage) Hash() (Hash, error) {
	return PackageHashV1(PackageLocalDir(p.Dir))
}

// Resolver finds packages for a configuration's provider requirements
// without a prior init: development overrides first, then the plugin cache
// and the CLI configuration's installation methods.
type Resolver struct {
	// Config is the CLI configuration; nil means none, so the implied
	// installation methods.
	Config *cliconfig.Config
	// Platform is the platform packages must be built for; the zero value
	// means CurrentPlatform.
	Platform Platform
	// UnpackDir is where packages found as zip files are unpacked, in the
	// unpacked layout. "" means the plugin cache directory when one is
	// configured, else a "terrane/providers" directory in the user's cache
	// directory. An already unpacked package there is reused.
	UnpackDir string
}

// Resolve finds a package for each required provider with a Resolver using
// the current platform; see Resolver.Resolve.
func Resolve(ctx context.Context, config *cliconfig.Config, requirements map[tfaddr.Provider]Constraints) (map[tfaddr.Provider]ResolvedPackage, diags.Diagnostics) {
	return (&Resolver{Config: config}).Resolve(ctx, requirements)
}

// Resolve finds a package for each required provider. Providers it cannot
// resolve are missing from the result, each with an error diagnostic
// saying where Terrane looked and what it found instead; a warning reports
// development overrides in effect.
func (r *Resolver) Resolve(ctx context.Context, requirements map[tfaddr.Provider]Constraints) (map[tfaddr.Provider]ResolvedPackage, diags.Diagnostics) {
	var result diags.Diagnostics
	config := r.Config
	if config == nil {
		config = &cliconfig.Config{}
	}
	installation := config.ProviderInstallation
	if installation == nil {
		installation = cliconfig.ImpliedProviderInstallation(cliconfig.Environment{})
	}
	overrides := DevOverrides(installation.DevOverrides)
	if warning := overrides.Warning(); warning != nil {
		result = append(result, *warning)
	}
	source := SourceForInstallation(installation)
	if config.PluginCacheDir != "" {
		// The cache comes first: its packages are unpacked already.
		source = append(MultiSource{{Source: NewPluginCache(config.PluginCacheDir)}}, source...)
	}
	resolved := make(map[tfaddr.Provider]ResolvedPackage, len(requirements))
	for _, provider := range sortedProviders(requirements) {
		var pkg ResolvedPackage
		var diag *diags.Diagnostic
		if dir, overridden := overrides[provider]; overridden {
			pkg, diag = resolveOverride(provider, dir)
		} else {
			pkg, diag = r.resolveFromSource(ctx, source, provider, requirements[provider])
		}
		if diag != nil {
			diag.Address = provider.String()
			result = append(result, *diag)
			continue
		}
		resolved[provider] = pkg
	}
	return resolved, result
}

func sortedProviders(requirements map[tfaddr.Provider]Constraints) []tfaddr.Provider {
	providers := make([]tfaddr.Provider, 0, len(requirements))
	for provider := range requirements {
		providers = append(providers, provider)
	}
	sort.Slice(providers, func(i, j int) bool { return providers[i].LessThan(providers[j]) })
	return providers
}

func resolveOverride(provider tfaddr.Provider, dir string) (ResolvedPackage, *diags.Diagnostic) {
	executable, err := FindExecutable(dir, provider.Type)
	if err != nil {
		diag := diags.Errorf("Invalid provider development override",
			"The CLI configuration's dev_overrides points %s at %s, but %s. Build the provider into that directory or fix the path.",
			addrs.ProviderForDisplay(provider), dir, err)
		return ResolvedPackage{}, &diag
	}
	return ResolvedPackage{Provider: provider, DevOverride: true, Dir: dir, Executable: executable, Origin: "the development override " + dir}, nil
}

func (r *Resolver) resolveFromSource(ctx context.Context, source MultiSource, provider tfaddr.Provider, constraints Constraints) (ResolvedPackage, *diags.Diagnostic) {
	available, _, err := source.AvailableVersions(ctx, provider)
	if err != nil {
		return ResolvedPackage{}, r.lookupDiagnostic(ctx, source, provider, err)
	}
	version, err := SelectVersion(available, constraints)
	if err != nil {
		diag := diags.Errorf("No provider version matches the constraints",
			"For %s, %s. Change the version constraint in required_providers, or add a matching version to a filesystem mirror.",
			addrs.ProviderForDisplay(provider), err)
		return ResolvedPackage{}, &diag
	}
	platform := r.platform()
	meta, err := source.PackageMeta(ctx, provider, version, platform)
	if err != nil {
		return ResolvedPackage{}, r.lookupDiagnostic(ctx, source, provider, err)
	}
	pkg := ResolvedPackage{Provider: provider, Version: version, Origin: meta.Location.String()}
	switch location := meta.Location.(type) {
	case PackageLocalDir:
		pkg.Dir = string(location)
		pkg.Executable, err = FindExecutable(pkg.Dir, provider.Type)
	default:
		pkg.Dir, pkg.Executable, err = r.unpack(ctx, meta)
	}
	if err != nil {
		diag := diags.Errorf("Unusable provider package", "The package of %s v%s at %s cannot be used: %s.",
			addrs.ProviderForDisplay(provider), version, meta.Location, err)
		return ResolvedPackage{}, &diag
	}
	return pkg, nil
}

func (r *Resolver) platform() Platform {
	if r.Platform == (Platform{}) {
		return CurrentPlatform()
	}
	return r.Platform
}

// unpack unpacks a zip package into the unpack directory, reusing an
// earlier unpacking of the same package.
func (r *Resolver) unpack(ctx context.Context, meta PackageMeta) (dir, executable string, err error) {
	base := r.UnpackDir
	if base == "" && r.Config != nil {
		base = r.Config.PluginCacheDir
	}
	if base == "" {
		userCache, err := os.UserCacheDir()
		if err != nil {
			return "", "", fmt.Errorf("no directory to unpack it into: %w; set plugin_cache_dir in the CLI configuration", err)
		}
		base = filepath.Join(userCache, "terrane", "providers")
	}
	dir = UnpackedDir(base, meta.Provider, meta.Version, meta.Platform)
	if executable, err := FindExecutable(dir, meta.Provider.Type); err == nil {
		return dir, executable, nil
	}
	executable, err = InstallPackage(ctx, meta, base, nil)
	return dir, executable, err
}

// lookupDiagnostic turns a failure to find a package into a diagnostic
// that lists where Terrane looked and what it found instead.
func (r *Resolver) lookupDiagnostic(ctx context.Context, source MultiSource, provider tfaddr.Provider, err error) *diags.Diagnostic {
	var notFound *ErrProviderNotFound
	var unsupported *ErrPlatformNotSupported
	var diag diags.Diagnostic
	switch {
	case errors.As(err, &unsupported):
		diag = diags.Errorf("Provider not available for this platform",
			"%s. Add a %s package of that version to a filesystem mirror, or require a version that has one.",
			diags.Capitalize(unsupported.Error()), unsupported.Platform)
	case errors.As(err, &notFound):
		var detail strings.Builder
		fmt.Fprintf(&detail, "Terrane could not find %s. It looked in:", addrs.ProviderForDisplay(provider))
		for _, place := range notFound.LookedIn {
			fmt.Fprintf(&detail, "\n - %s", place)
		}
		for _, note := range append(notFound.Notes, r.otherRegistryNote(ctx, source, provider)...) {
			fmt.Fprintf(&detail, "\n\nNote: %s.", note)
		}
		detail.WriteString("\n\nPut the provider into one of these places, or change provider_installation in the CLI configuration.")
		diag = diags.Errorf("Provider not found", "%s", detail.String())
	default:
		diag = diags.Errorf("Cannot look up provider", "Looking for %s failed: %s.", addrs.ProviderForDisplay(provider), err)
	}
	return &diag
}

// otherRegistryNote points out the same provider under the other public
// registry's hostname: mirrors made by Terraform hold
// registry.terraform.io/..., while Terrane reads "hashicorp/aws" as
// registry.opentofu.org/hashicorp/aws, as OpenTofu does.
func (r *Resolver) otherRegistryNote(ctx context.Context, source MultiSource, provider tfaddr.Provider) []string {
	other := provider
	switch provider.Hostname {
	case addrs.DefaultProviderRegistryHost:
		other.Hostname = tfaddr.DefaultProviderRegistryHost
	case tfaddr.DefaultProviderRegistryHost:
		other.Hostname = addrs.DefaultProviderRegistryHost
	default:
		return nil
	}
	if _, _, err := source.AvailableVersions(ctx, other); err != nil {
		return nil
	}
	return []string{fmt.Sprintf("%s is available there; to use it, write source = %q in required_providers", other, other.String())}
}
