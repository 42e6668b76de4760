package discovery

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
)

// RegistrySource is a provider's origin registry, reached with the
// provider registry protocol: the host's providers.v1 service lists
// versions and, per version and platform, where the package is and how to
// check it.
type RegistrySource struct {
	Network *Network
}

// NewRegistrySource returns a source asking each provider's own registry
// host (registry.opentofu.org for "hashicorp/aws").
func NewRegistrySource(network *Network) *RegistrySource {
	return &RegistrySource{Network: network}
}

func (r *RegistrySource) String() string { return "the provider's origin registry" }

// supportedProtocolMajors are the plugin protocol versions Terrane speaks.
var supportedProtocolMajors = []string{"5", "6"}

// registryVersions is the answer to GET :namespace/:type/versions.
type registryVersions struct {
	Versions []struct {
		Version   string   `json:"version"`
		Protocols []string `json:"protocols"`
	} `json:"versions"`
	Warnings []string `json:"warnings"`
}

// registryDownload is the answer to GET
// :namespace/:type/:version/download/:os/:arch.
type registryDownload struct {
	Protocols           []string `json:"protocols"`
	OS                  string   `json:"os"`
	Arch                string   `json:"arch"`
	Filename            string   `json:"filename"`
	DownloadURL         string   `json:"download_url"`
	SHASumsURL          string   `json:"shasums_url"`
	SHASumsSignatureURL string   `json:"shasums_signature_url"`
	SHASum              string   `json:"shasum"`
	SigningKeys         struct {
		GPGPublicKeys []SigningKey `json:"gpg_public_keys"`
	} `json:"signing_keys"`
}

// SigningKey is a public key a registry says signs a provider's releases.
type SigningKey struct {
	KeyID      string `json:"key_id"`
	ASCIIArmor string `json:"ascii_armor"`
}

// AvailableVersions implements Source. Versions whose protocols Terrane
// cannot speak are still listed: choosing one gives a clear error rather
// than a silent fall back to an older version.
func (r *RegistrySource) AvailableVersions(ctx context.Context, provider tfaddr.Provider) (versions.List, Warnings, error) {
	base, err := r.providerURL(provider)
	if err != nil {
		return nil, nil, err
	}
	var answer registryVersions
	err = r.Network.GetJSON(ctx, base.JoinPath("versions").String(), &answer)
	if errors.Is(err, ErrHTTPNotFound) {
		return nil, nil, &ErrProviderNotFound{Provider: provider, LookedIn: []string{"the registry " + provider.Hostname.ForDisplay()}}
	}
	if err != nil {
		return nil, nil, err
	}
	var list versions.List
	warnings := Warnings(answer.Warnings)
	for _, entry := range answer.Versions {
		version, err := versions.ParseVersion(entry.Version)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("the registry %s lists %q for %s, which is not a version", provider.Hostname.ForDisplay(), entry.Version, addrs.ProviderForDisplay(provider)))
			continue
		}
		list = append(list, version)
	}
	list.Sort()
	if len(list) == 0 {
		return nil, warnings, &ErrProviderNotFound{Provider: provider, LookedIn: []string{"the registry " + provider.Hostname.ForDisplay()},
			Notes: []string{"the registry lists no versions of it"}}
	}
	return list, warnings, nil
}

// PackageMeta implements Source. The location is a PackageRemoteArchive
// carrying the checks its download must pass.
func (r *RegistrySource) PackageMeta(ctx context.Context, provider tfaddr.Provider, version versions.Version, platform Platform) (PackageMeta, error) {
	base, err := r.providerURL(provider)
	if err != nil {
		return PackageMeta{}, err
	}
	target := base.JoinPath(version.String(), "download", platform.OS, platform.Arch).String()
	var answer registryDownload
	err = r.Network.GetJSON(ctx, target, &answer)
	if errors.Is(err, ErrHTTPNotFound) {
		return PackageMeta{}, r.platformError(ctx, provider, version, platform)
	}
	if err != nil {
		return PackageMeta{}, err
	}
	if err := checkProtocols(provider, version, answer.Protocols); err != nil {
		return PackageMeta{}, err
	}
	download, err := resolveAgainst(target, answer.DownloadURL, "download_url")
	if err != nil {
		return PackageMeta{}, err
	}
	checks := PackageChecks{SHA256: strings.ToLower(answer.SHASum), SigningKeys: answer.SigningKeys.GPGPublicKeys}
	if checks.SumsURL, err = resolveAgainst(target, answer.SHASumsURL, "shasums_url"); err != nil {
		return PackageMeta{}, err
	}
	if checks.SignatureURL, err = resolveAgainst(target, answer.SHASumsSignatureURL, "shasums_signature_url"); err != nil {
		return PackageMeta{}, err
	}
	filename := answer.Filename
	if filename == "" {
		filename = path.Base(download)
	}
	return PackageMeta{
		Provider: provider, Version: version, Platform: platform, Filename: filename,
		Location: PackageRemoteArchive{URL: download, Checks: checks, Origin: "the registry " + provider.Hostname.ForDisplay()},
	}, nil
}

// platformError explains a missing download: the version does not exist,
// or exists for other platforms, which the versions list names.
func (r *RegistrySource) platformError(ctx context.Context, provider tfaddr.Provider, version versions.Version, platform Platform) error {
	base, err := r.providerURL(provider)
	if err != nil {
		return err
	}
	var answer struct {
		Versions []struct {
			Version   string `json:"version"`
			Platforms []struct {
				OS   string `json:"os"`
				Arch string `json:"arch"`
			} `json:"platforms"`
		} `json:"versions"`
	}
	if err := r.Network.GetJSON(ctx, base.JoinPath("versions").String(), &answer); err != nil {
		return err
	}
	for _, entry := range answer.Versions {
		listed, err := versions.ParseVersion(entry.Version)
		if err != nil || !listed.Same(version) {
			continue
		}
		unsupported := &ErrPlatformNotSupported{Provider: provider, Version: version, Platform: platform}
		for _, p := range entry.Platforms {
			unsupported.Available = append(unsupported.Available, Platform{OS: p.OS, Arch: p.Arch})
		}
		return unsupported
	}
	return &ErrProviderNotFound{Provider: provider, LookedIn: []string{"the registry " + provider.Hostname.ForDisplay()},
		Notes: []string{"it has no version " + version.String()}}
}

// providerURL is the providers.v1 service URL of the provider's host
// joined with NAMESPACE/TYPE/.
func (r *RegistrySource) providerURL(provider tfaddr.Provider) (*url.URL, error) {
	if r.Network == nil {
		return nil, &ErrSourceUnavailable{Provider: provider, Source: r.String(), Reason: "the network is not used here"}
	}
	base, err := r.Network.DiscoverService(provider.Hostname, "providers.v1", "a provider registry")
	if err != nil {
		return nil, err
	}
	return base.JoinPath(provider.Namespace, provider.Type), nil
}

// ErrProtocolIncompatible means the chosen version speaks only plugin
// protocols Terrane does not.
type ErrProtocolIncompatible struct {
	Provider  tfaddr.Provider
	Version   versions.Version
	Protocols []string
}

func (e *ErrProtocolIncompatible) Error() string {
	return fmt.Sprintf("%s v%s speaks plugin protocol %s, but Terrane speaks 5 and 6; require a version built for protocol 5 or 6",
		addrs.ProviderForDisplay(e.Provider), e.Version, strings.Join(e.Protocols, ", "))
}

// checkProtocols accepts a package speaking protocol 5 or 6, or one whose
// registry does not say (the protocols field is optional).
func checkProtocols(provider tfaddr.Provider, version versions.Version, protocols []string) error {
	if len(protocols) == 0 {
		return nil
	}
	for _, protocol := range protocols {
		major, _, _ := strings.Cut(strings.TrimSpace(protocol), ".")
		for _, supported := range supportedProtocolMajors {
			if major == supported {
				return nil
			}
		}
	}
	return &ErrProtocolIncompatible{Provider: provider, Version: version, Protocols: protocols}
}

// resolveAgainst resolves a possibly relative URL from a registry answer.
func resolveAgainst(base, ref, field string) (string, error) {
	if ref == "" {
		if field == "download_url" {
			return "", fmt.Errorf("the registry answer at %s has no %s", base, field)
		}
		return "", nil
	}
	baseURL, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	refURL, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("the registry answer at %s has an invalid %s %q: %w", base, field, ref, err)
	}
	return baseURL.ResolveReference(refURL).String(), nil
}
