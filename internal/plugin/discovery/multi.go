package discovery

import (
	"context"
	"errors"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/plugin/cliconfig"
)

// MultiSource consults several sources in order, each for the providers
// its installation method selects, as the CLI configuration's
// provider_installation block lists them.
type MultiSource []MultiSourceEntry

// MultiSourceEntry is one source and the providers it is used for.
type MultiSourceEntry struct {
	Source Source
	// Selects reports whether Source is to be asked about a provider; nil
	// means every provider.
	Selects func(tfaddr.Provider) bool
}

func (entry MultiSourceEntry) selects(provider tfaddr.Provider) bool {
	return entry.Selects == nil || entry.Selects(provider)
}

func (s MultiSource) String() string {
	return "the configured provider installation methods"
}

// AvailableVersions implements Source: the union of the versions every
// selecting source has. Sources that cannot be used yet (ErrSourceUnavailable)
// or do not know the provider are skipped; if no source has it, the error
// lists everywhere Terrane looked.
func (s MultiSource) AvailableVersions(ctx context.Context, provider tfaddr.Provider) (versions.List, Warnings, error) {
	notFound := &ErrProviderNotFound{Provider: provider}
	var all versions.List
	var warnings Warnings
	for _, entry := range s {
		if !entry.selects(provider) {
			continue
		}
		notFound.LookedIn = append(notFound.LookedIn, entry.Source.String())
		notFound.Sources = append(notFound.Sources, sourceForDisplay(entry.Source, provider))
		found, sourceWarnings, err := entry.Source.AvailableVersions(ctx, provider)
		warnings = append(warnings, sourceWarnings...)
		if err != nil {
			if note, skip := skippableError(err); skip {
				notFound.Notes = append(notFound.Notes, note...)
				continue
			}
			return nil, warnings, err
		}
		for _, version := range found {
			if !containsVersion(all, version) {
				all = append(all, version)
			}
		}
	}
	if len(all) == 0 {
		return nil, warnings, notFound
	}
	all.Sort()
	return all, warnings, nil
}

// sourceForDisplay names a source as OpenTofu's messages do.
func sourceForDisplay(source Source, provider tfaddr.Provider) string {
	switch source := source.(type) {
	case *FilesystemMirror:
		return source.Dir
	case *NetworkMirror:
		return "provider mirror at " + source.BaseURL.String()
	case *RegistrySource:
		return "registry " + provider.Hostname.ForDisplay()
	}
	return source.String()
}

// skippableError tells whether a source's error only means "not here", and
// what it adds to a not-found message.
func skippableError(err error) ([]string, bool) {
	var notFound *ErrProviderNotFound
	if errors.As(err, &notFound) {
		return notFound.Notes, true
	}
	var unavailable *ErrSourceUnavailable
	if errors.As(err, &unavailable) {
		return []string{unavailable.Source + " is not available: " + unavailable.Reason}, true
	}
	return nil, false
}

// PackageMeta implements Source: the package from the first selecting
// source that has the version for the platform.
func (s MultiSource) PackageMeta(ctx context.Context, provider tfaddr.Provider, version versions.Version, platform Platform) (PackageMeta, error) {
	notFound := &ErrProviderNotFound{Provider: provider, Notes: []string{"no source has version " + version.String()}}
	var unsupported *ErrPlatformNotSupported
	for _, entry := range s {
		if !entry.selects(provider) {
			continue
		}
		notFound.LookedIn = append(notFound.LookedIn, entry.Source.String())
		meta, err := entry.Source.PackageMeta(ctx, provider, version, platform)
		if err == nil {
			return meta, nil
		}
		var platformErr *ErrPlatformNotSupported
		switch {
		case errors.As(err, &platformErr):
			if unsupported == nil {
				unsupported = &ErrPlatformNotSupported{Provider: provider, Version: version, Platform: platform}
			}
			unsupported.Available = append(unsupported.Available, platformErr.Available...)
		default:
			if _, skip := skippableError(err); !skip {
				return PackageMeta{}, err
			}
		}
	}
	if unsupported != nil {
		return PackageMeta{}, unsupported
	}
	return PackageMeta{}, notFound
}

// unavailableSource stands for an installation method that needs the
// network where Terrane works offline: only init and the providers
// commands reach registries and mirrors.
type unavailableSource struct {
	description string
	reason      string
}

func (u unavailableSource) String() string { return u.description }

func (u unavailableSource) AvailableVersions(ctx context.Context, provider tfaddr.Provider) (versions.List, Warnings, error) {
	return nil, nil, &ErrSourceUnavailable{Provider: provider, Source: u.description, Reason: u.reason}
}

func (u unavailableSource) PackageMeta(ctx context.Context, provider tfaddr.Provider, version versions.Version, platform Platform) (PackageMeta, error) {
	return PackageMeta{}, &ErrSourceUnavailable{Provider: provider, Source: u.description, Reason: u.reason}
}

// SourceForInstallation builds the offline source that applies the
// installation methods of the CLI configuration in order: registries and
// network mirrors are listed but not reached. Development overrides are
// not part of it: see DevOverrides.
func SourceForInstallation(installation *cliconfig.ProviderInstallation) MultiSource {
	return SourceForInstallationOnline(installation, nil)
}

// SourceForInstallationOnline is SourceForInstallation with the direct
// and network_mirror methods reaching the network through network; with a
// nil network it works offline. Pulumi's plugin directory
// (DefaultPulumiPluginDir) comes first, for providers in the pulumi
// namespace only.
func SourceForInstallationOnline(installation *cliconfig.ProviderInstallation, network *Network) MultiSource {
	var sources MultiSource
	var impliedLocal []tfaddr.Provider
	pulumiDir := PulumiPluginDir{Dir: DefaultPulumiPluginDir()}
	if pulumiDir.Dir != "" {
		sources = append(sources, MultiSourceEntry{Source: pulumiDir, Selects: pulumiDir.Selects})
	}
	for _, method := range installation.Methods {
		entry := MultiSourceEntry{Selects: method.Matches}
		switch method.Kind {
		case cliconfig.FilesystemMirror:
			mirror := NewFilesystemMirror(method.Path)
			entry.Source = mirror
			if installation.Implied {
				impliedLocal = append(impliedLocal, mirror.Providers()...)
			}
		case cliconfig.NetworkMirror:
			entry.Source = networkMirrorSource(method.URL, network)
		case cliconfig.Direct:
			entry.Source = directSource(network)
			if installation.Implied {
				// Terraform's implied direct method skips every provider the
				// local plugin directories have, so those are taken only
				// from there.
				notLocal := excludingProviders(impliedLocal)
				entry.Selects = func(provider tfaddr.Provider) bool {
					return notLocal(provider) && !pulumiDir.Has(provider)
				}
			}
		}
		sources = append(sources, entry)
	}
	return sources
}

func networkMirrorSource(baseURL string, network *Network) Source {
	description := "the network mirror " + baseURL
	if network == nil {
		return unavailableSource{description: description,
			reason: "installing from network mirrors is not supported yet outside \"terrane init\"; run it, or use a filesystem mirror"}
	}
	mirror, err := NewNetworkMirror(baseURL, network)
	if err != nil {
		return unavailableSource{description: description, reason: err.Error()}
	}
	return mirror
}

func directSource(network *Network) Source {
	if network == nil {
		return unavailableSource{
			description: "the provider's origin registry",
			reason:      "installing from a registry is not supported yet outside \"terrane init\"; run it, or put the provider in a filesystem mirror (for example with \"terrane providers mirror DIR\") or the plugin cache",
		}
	}
	return NewRegistrySource(network)
}

func excludingProviders(excluded []tfaddr.Provider) func(tfaddr.Provider) bool {
	return func(provider tfaddr.Provider) bool {
		for _, local := range excluded {
			if local == provider {
				return false
			}
		}
		return true
	}
}
