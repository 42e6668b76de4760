package discovery

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"
	svchost "github.com/hashicorp/terraform-svchost"
)

// FilesystemMirror is a directory of provider packages in either of the
// layouts Terraform uses:
//
//	unpacked: DIR/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/  (a directory, or a symlink to one)
//	packed:   DIR/HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip
//
// The packed layout is what "terraform providers mirror" writes; the plugin
// cache uses the unpacked one.
type FilesystemMirror struct {
	Dir string
	// UnpackedOnly ignores zip files, as the plugin cache does.
	UnpackedOnly bool
	// Description overrides how the mirror names itself in messages.
	Description string
}

// NewFilesystemMirror returns a source reading the mirror directory dir.
func NewFilesystemMirror(dir string) *FilesystemMirror {
	return &FilesystemMirror{Dir: dir}
}

// NewPluginCache returns a source reading the plugin cache directory dir,
// which holds unpacked packages only.
func NewPluginCache(dir string) *FilesystemMirror {
	return &FilesystemMirror{Dir: dir, UnpackedOnly: true, Description: "the plugin cache " + dir}
}

func (m *FilesystemMirror) String() string {
	if m.Description != "" {
		return m.Description
	}
	return "the filesystem mirror " + m.Dir
}

// AvailableVersions implements Source.
func (m *FilesystemMirror) AvailableVersions(ctx context.Context, provider tfaddr.Provider) (versions.List, Warnings, error) {
	packages, warnings, err := m.Packages(provider)
	if err != nil {
		return nil, warnings, err
	}
	if len(packages) == 0 {
		return nil, warnings, &ErrProviderNotFound{Provider: provider, LookedIn: []string{m.String()}}
	}
	return versionsOf(packages), warnings, nil
}

// PackageMeta implements Source.
func (m *FilesystemMirror) PackageMeta(ctx context.Context, provider tfaddr.Provider, version versions.Version, platform Platform) (PackageMeta, error) {
	packages, _, err := m.Packages(provider)
	if err != nil {
		return PackageMeta{}, err
	}
	return pickPackage(provider, packages, version, platform, m.String())
}

// Packages lists every package of provider in the mirror, sorted by
// version then platform. Entries that do not fit the layouts are skipped
// with a warning.
func (m *FilesystemMirror) Packages(provider tfaddr.Provider) ([]PackageMeta, Warnings, error) {
	var packages []PackageMeta
	var warnings Warnings
	for _, typeDir := range m.providerDirs(provider) {
		entries, err := os.ReadDir(typeDir)
		if err != nil {
			return nil, warnings, fmt.Errorf("cannot read %s: %w", typeDir, err)
		}
		for _, entry := range entries {
			path := filepath.Join(typeDir, entry.Name())
			info, err := os.Stat(path) // follows symlinks, which the layouts allow
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("ignoring %s: %s", path, err))
				continue
			}
			if info.IsDir() {
				found, dirWarnings := unpackedPackages(provider, path)
				packages, warnings = append(packages, found...), append(warnings, dirWarnings...)
				continue
			}
			if m.UnpackedOnly || strings.HasSuffix(entry.Name(), ".json") {
				// index.json and VERSION.json are the network-mirror index
				// that `providers mirror` writes beside the packed zips.
				continue
			}
			meta, err := packedPackage(provider, path)
			if err != nil {
				warnings = append(warnings, err.Error())
				continue
			}
			packages = append(packages, meta)
		}
	}
	sortPackages(packages)
	return packages, warnings, nil
}

// providerDirs returns the DIR/HOST/NAMESPACE/TYPE directories that hold
// provider. Names are compared in normalised form, so a mirror written with
// a Unicode hostname or different letter case is still found.
func (m *FilesystemMirror) providerDirs(provider tfaddr.Provider) []string {
	matchHost := func(name string) bool {
		host, err := svchost.ForComparison(name)
		return err == nil && host == provider.Hostname
	}
	matchPart := func(want string) func(string) bool {
		return func(name string) bool {
			normalized, err := tfaddr.ParseProviderPart(name)
			return err == nil && normalized == want
		}
	}
	dirs := []string{m.Dir}
	for _, match := range []func(string) bool{matchHost, matchPart(provider.Namespace), matchPart(provider.Type)} {
		dirs = matchingSubdirs(dirs, match)
	}
	return dirs
}

// matchingSubdirs returns the subdirectories of parents whose names match.
func matchingSubdirs(parents []string, match func(string) bool) []string {
	var found []string
	for _, parent := range parents {
		entries, err := os.ReadDir(parent)
		if err != nil {
			continue // a missing level means the provider is not there
		}
		for _, entry := range entries {
			path := filepath.Join(parent, entry.Name())
			if info, err := os.Stat(path); err == nil && info.IsDir() && match(entry.Name()) {
				found = append(found, path)
			}
		}
	}
	return found
}

// unpackedPackages reads a VERSION directory of the unpacked layout, whose
// subdirectories are OS_ARCH package directories.
func unpackedPackages(provider tfaddr.Provider, versionDir string) ([]PackageMeta, Warnings) {
	version, err := versions.ParseVersion(filepath.Base(versionDir))
	if err != nil {
		return nil, Warnings{fmt.Sprintf("ignoring %s: the directory name is not a version: %s", versionDir, err)}
	}
	entries, err := os.ReadDir(versionDir)
	if err != nil {
		return nil, Warnings{fmt.Sprintf("ignoring %s: %s", versionDir, err)}
	}
	var packages []PackageMeta
	var warnings Warnings
	for _, entry := range entries {
		path := filepath.Join(versionDir, entry.Name())
		if info, err := os.Stat(path); err != nil || !info.IsDir() {
			continue
		}
		platform, err := ParsePlatform(entry.Name())
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("ignoring %s: %s", path, err))
			continue
		}
		packages = append(packages, PackageMeta{
			Provider: provider,
			Version:  version,
			Platform: platform,
			Filename: StandardFilename(provider, version, platform),
			Location: PackageLocalDir(path),
		})
	}
	return packages, warnings
}

// packedPackage reads a terraform-provider-TYPE_VERSION_OS_ARCH.zip file
// name of the packed layout.
func packedPackage(provider tfaddr.Provider, path string) (PackageMeta, error) {
	// Compared in lower case, as Terraform does, because case-insensitive
	// filesystems may have changed it.
	name := strings.ToLower(filepath.Base(path))
	prefix := "terraform-provider-" + provider.Type + "_"
	if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".zip") {
		return PackageMeta{}, fmt.Errorf("ignoring %s: a package file is named %sVERSION_OS_ARCH.zip", path, prefix)
	}
	parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(name, prefix), ".zip"), "_")
	if len(parts) != 3 {
		return PackageMeta{}, fmt.Errorf("ignoring %s: a package file is named %sVERSION_OS_ARCH.zip", path, prefix)
	}
	version, err := versions.ParseVersion(parts[0])
	if err != nil {
		return PackageMeta{}, fmt.Errorf("ignoring %s: %q is not a version: %w", path, parts[0], err)
	}
	platform, err := ParsePlatform(parts[1] + "_" + parts[2])
	if err != nil {
		return PackageMeta{}, fmt.Errorf("ignoring %s: %w", path, err)
	}
	return PackageMeta{
		Provider: provider,
		Version:  version,
		Platform: platform,
		Filename: name,
		Location: PackageLocalArchive(path),
	}, nil
}

// Providers lists every provider the mirror holds at least one package of.
func (m *FilesystemMirror) Providers() []tfaddr.Provider {
	var providers []tfaddr.Provider
	seen := make(map[tfaddr.Provider]bool)
	hostDirs, _ := os.ReadDir(m.Dir)
	for _, hostDir := range hostDirs {
		host, err := svchost.ForComparison(hostDir.Name())
		if err != nil {
			continue
		}
		for _, typeDir := range matchingSubdirs(matchingSubdirs([]string{filepath.Join(m.Dir, hostDir.Name())}, anyName), anyName) {
			namespace, errNamespace := tfaddr.ParseProviderPart(filepath.Base(filepath.Dir(typeDir)))
			typeName, errType := tfaddr.ParseProviderPart(filepath.Base(typeDir))
			if errNamespace != nil || errType != nil {
				continue
			}
			provider := tfaddr.NewProvider(host, namespace, typeName)
			if seen[provider] {
				continue
			}
			if packages, _, _ := m.Packages(provider); len(packages) > 0 {
				seen[provider] = true
				providers = append(providers, provider)
			}
		}
	}
	sort.Slice(providers, func(i, j int) bool { return providers[i].LessThan(providers[j]) })
	return providers
}

func anyName(string) bool { return true }
