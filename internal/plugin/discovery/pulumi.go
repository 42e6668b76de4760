package discovery

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// PulumiExecutablePrefix starts the name of a Pulumi resource provider's
// executable: pulumi-resource-NAME.
const PulumiExecutablePrefix = "pulumi-resource-"

// PulumiNamespace is the provider address namespace whose providers
// Terrane also looks for in Pulumi plugin directories: a configuration
// declares the Pulumi package NAME as source = "pulumi/NAME". Pulumi's
// directories know packages only by name, so no other namespace is
// matched there (hashicorp/random is not Pulumi's random).
const PulumiNamespace = "pulumi"

// IsPulumiExecutable reports whether a provider executable found by
// FindExecutable is a Pulumi resource provider, launched with Pulumi's
// handshake rather than go-plugin's.
func IsPulumiExecutable(path string) bool {
	return strings.HasPrefix(filepath.Base(path), PulumiExecutablePrefix)
}

// PulumiPluginDir is a directory in Pulumi's plugin layout, as `pulumi
// plugin install` fills it:
//
//	DIR/resource-NAME-vVERSION/pulumi-resource-NAME
//
// It offers the package NAME as the provider PulumiNamespace/NAME on any
// registry host, built for the platform Terrane runs on (Pulumi installs
// only this machine's builds).
type PulumiPluginDir struct {
	Dir string
}

// DefaultPulumiPluginDir returns Pulumi's own plugin directory:
// $PULUMI_HOME/plugins, by default ~/.pulumi/plugins; "" when there is no
// home directory.
func DefaultPulumiPluginDir() string {
	home := os.Getenv("PULUMI_HOME")
	if home == "" {
		userHome, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		home = filepath.Join(userHome, ".pulumi")
	}
	return filepath.Join(home, "plugins")
}

func (d PulumiPluginDir) String() string { return "the Pulumi plugin directory " + d.Dir }

// Selects reports whether the directory can hold provider at all.
func (d PulumiPluginDir) Selects(provider tfaddr.Provider) bool {
	return provider.Namespace == PulumiNamespace
}

// AvailableVersions implements Source.
func (d PulumiPluginDir) AvailableVersions(ctx context.Context, provider tfaddr.Provider) (versions.List, Warnings, error) {
	packages, warnings := d.packages(provider)
	if len(packages) == 0 {
		return nil, warnings, &ErrProviderNotFound{Provider: provider, LookedIn: []string{d.String()}}
	}
	return versionsOf(packages), warnings, nil
}

// PackageMeta implements Source.
func (d PulumiPluginDir) PackageMeta(ctx context.Context, provider tfaddr.Provider, version versions.Version, platform Platform) (PackageMeta, error) {
	packages, _ := d.packages(provider)
	return pickPackage(provider, packages, version, platform, d.String())
}

// packages lists the resource-NAME-vVERSION directories that hold an
// executable for provider, oldest first.
func (d PulumiPluginDir) packages(provider tfaddr.Provider) ([]PackageMeta, Warnings) {
	if !d.Selects(provider) || d.Dir == "" {
		return nil, nil
	}
	prefix := "resource-" + provider.Type + "-v"
	entries, err := os.ReadDir(d.Dir)
	if err != nil {
		return nil, nil // no directory: nothing installed there
	}
	platform := CurrentPlatform()
	var packages []PackageMeta
	var warnings Warnings
	for _, entry := range entries {
		rawVersion, ok := strings.CutPrefix(entry.Name(), prefix)
		if !ok {
			continue
		}
		path := filepath.Join(d.Dir, entry.Name())
		version, err := versions.ParseVersion(rawVersion)
		if err != nil {
			continue // another package whose name starts the same, such as resource-aws-vpc-v1.0.0
		}
		if info, err := os.Stat(path); err != nil || !info.IsDir() {
			continue // Pulumi's lock files sit beside the directories
		}
		if _, err := FindExecutable(path, provider.Type); err != nil {
			warnings = append(warnings, fmt.Sprintf("ignoring %s: %s", path, err))
			continue
		}
		packages = append(packages, PackageMeta{Provider: provider, Version: version, Platform: platform,
			Filename: StandardFilename(provider, version, platform), Location: PackageLocalDir(path)})
	}
	sortPackages(packages)
	return packages, warnings
}

// Has reports whether the directory holds a package of provider: like
// the providers of the implied local mirrors, such a provider is then not
// looked up in a registry.
func (d PulumiPluginDir) Has(provider tfaddr.Provider) bool {
	packages, _ := d.packages(provider)
	return len(packages) > 0
}

// WithPulumiPlugins routes the providers of the pulumi namespace that
// Pulumi's plugin directory holds there, and every other provider to
// source unchanged, for commands that otherwise consult one source only
// (providers lock and providers mirror).
func WithPulumiPlugins(source Source) Source {
	dir := PulumiPluginDir{Dir: DefaultPulumiPluginDir()}
	if dir.Dir == "" {
		return source
	}
	return pulumiRouted{dir: dir, rest: source}
}

type pulumiRouted struct {
	dir  PulumiPluginDir
	rest Source
}

func (r pulumiRouted) String() string { return r.rest.String() }

func (r pulumiRouted) pick(provider tfaddr.Provider) Source {
	if r.dir.Selects(provider) && r.dir.Has(provider) {
		return r.dir
	}
	return r.rest
}

func (r pulumiRouted) AvailableVersions(ctx context.Context, provider tfaddr.Provider) (versions.List, Warnings, error) {
	return r.pick(provider).AvailableVersions(ctx, provider)
}

func (r pulumiRouted) PackageMeta(ctx context.Context, provider tfaddr.Provider, version versions.Version, platform Platform) (PackageMeta, error) {
	return r.pick(provider).PackageMeta(ctx, provider, version, platform)
}
