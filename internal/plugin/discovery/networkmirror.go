package discovery

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
)

// NetworkMirror is a provider network mirror: a static or dynamic HTTP
// service answering, under its base URL,
//
//	HOSTNAME/NAMESPACE/TYPE/index.json    {"versions": {"2.0.0": {}}}
//	HOSTNAME/NAMESPACE/TYPE/VERSION.json  {"archives": {"linux_amd64": {"url": "...", "hashes": ["h1:..."]}}}
//
// "terrane providers mirror" writes exactly these files beside the zips.
type NetworkMirror struct {
	BaseURL *url.URL
	Network *Network
}

// NewNetworkMirror returns the mirror at baseURL, which must be absolute.
func NewNetworkMirror(baseURL string, network *Network) (*NetworkMirror, error) {
	parsed, err := url.Parse(baseURL)
	if err != nil || !parsed.IsAbs() || parsed.Host == "" {
		return nil, fmt.Errorf("%q is not a network mirror URL: write an absolute https:// URL", baseURL)
	}
	if !strings.HasSuffix(parsed.Path, "/") {
		parsed.Path += "/"
	}
	return &NetworkMirror{BaseURL: parsed, Network: network}, nil
}

func (m *NetworkMirror) String() string { return "the network mirror " + m.BaseURL.String() }

type mirrorIndex struct {
	Versions map[string]struct{} `json:"versions"`
}

type mirrorVersion struct {
	Archives map[string]struct {
		URL    string   `json:"url"`
		Hashes []string `json:"hashes"`
	} `json:"archives"`
}

func (m *NetworkMirror) providerURL(provider tfaddr.Provider, file string) string {
	return m.BaseURL.JoinPath(provider.Hostname.String(), provider.Namespace, provider.Type, file).String()
}

// AvailableVersions implements Source.
func (m *NetworkMirror) AvailableVersions(ctx context.Context, provider tfaddr.Provider) (versions.List, Warnings, error) {
	var index mirrorIndex
	err := m.Network.GetJSON(ctx, m.providerURL(provider, "index.json"), &index)
	if errors.Is(err, ErrHTTPNotFound) {
		return nil, nil, &ErrProviderNotFound{Provider: provider, LookedIn: []string{m.String()}}
	}
	if err != nil {
		return nil, nil, err
	}
	var list versions.List
	var warnings Warnings
	for raw := range index.Versions {
		version, err := versions.ParseVersion(raw)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s lists %q for %s, which is not a version", m, raw, addrs.ProviderForDisplay(provider)))
			continue
		}
		list = append(list, version)
	}
	list.Sort()
	if len(list) == 0 {
		return nil, warnings, &ErrProviderNotFound{Provider: provider, LookedIn: []string{m.String()}}
	}
	return list, warnings, nil
}

// PackageMeta implements Source: the archive for platform, to be checked
// against the hashes the mirror lists.
func (m *NetworkMirror) PackageMeta(ctx context.Context, provider tfaddr.Provider, version versions.Version, platform Platform) (PackageMeta, error) {
	target := m.providerURL(provider, version.String()+".json")
	var answer mirrorVersion
	err := m.Network.GetJSON(ctx, target, &answer)
	if errors.Is(err, ErrHTTPNotFound) {
		return PackageMeta{}, &ErrProviderNotFound{Provider: provider, LookedIn: []string{m.String()},
			Notes: []string{"it has no version " + version.String()}}
	}
	if err != nil {
		return PackageMeta{}, err
	}
	archive, found := answer.Archives[platform.String()]
	if !found {
		unsupported := &ErrPlatformNotSupported{Provider: provider, Version: version, Platform: platform}
		for name := range answer.Archives {
			if other, err := ParsePlatform(name); err == nil {
				unsupported.Available = append(unsupported.Available, other)
			}
		}
		return PackageMeta{}, unsupported
	}
	download, err := resolveAgainst(target, archive.URL, "download_url")
	if err != nil {
		return PackageMeta{}, err
	}
	checks := PackageChecks{}
	for _, hash := range archive.Hashes {
		checks.Hashes = append(checks.Hashes, Hash(hash))
	}
	return PackageMeta{
		Provider: provider, Version: version, Platform: platform,
		Filename: StandardFilename(provider, version, platform),
		Location: PackageRemoteArchive{URL: download, Checks: checks, Origin: m.String()},
	}, nil
}
