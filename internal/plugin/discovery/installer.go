package discovery

import (
	"context"
	"fmt"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
)

// ProviderInstaller installs providers into a working directory the way
// init does: from the plugin cache when it already holds a package the
// lock file accepts, otherwise from the source (downloading and verifying
// remote packages), through the cache when there is one.
type ProviderInstaller struct {
	// Source finds packages, typically SourceForInstallationOnline.
	Source Source
	// Network fetches remote packages; nil means none can be fetched.
	Network *Network
	// CacheDir is the plugin cache, or "".
	CacheDir string
	// TargetDir is the working directory's provider directory, such as
	// .terrane/providers.
	TargetDir string
	// Platform is what packages are for; the zero value means
	// CurrentPlatform.
	Platform Platform
	// CacheWithoutLockedHashes lets a cached package be used when the lock
	// file records no hash for the provider yet (the CLI configuration's
	// plugin_cache_may_break_dependency_lock_file). Without it such a
	// package is fetched again, so the lock file gets the registry's
	// signed hashes.
	CacheWithoutLockedHashes bool
}

// InstalledProvider is a provider package ready to launch.
type InstalledProvider struct {
	Provider tfaddr.Provider
	Version  versions.Version
	Platform Platform
	// Dir is the package's directory under TargetDir and Executable the
	// provider binary in it.
	Dir, Executable string
	// Hashes are what the lock file should record for this version: the
	// hashes it had already, the package's h1: hash and the signed zh:
	// hashes of every platform, sorted.
	Hashes []Hash
	// FromCache is true when the plugin cache supplied the package.
	FromCache bool
	// Authentication says how the package was verified, such as "signed
	// by key 0C0AF313E5FD9F80".
	Authentication string
	Warnings       Warnings
}

// Ensure selects the version of provider to use and installs it: the
// locked version when there is one that still meets the constraints and
// upgrade is false, else the newest version meeting them. locked is
// versions.Unspecified when the lock file has no entry; lockedHashes are
// its hashes, which the package must match when the locked version is
// kept.
func (i *ProviderInstaller) Ensure(ctx context.Context, provider tfaddr.Provider, constraints Constraints, locked versions.Version, lockedHashes []Hash, upgrade bool) (InstalledProvider, error) {
	keepLocked := locked != versions.Unspecified && !upgrade && versions.MeetingConstraints(constraints).Has(locked)
	if keepLocked {
		return i.Install(ctx, provider, locked, lockedHashes)
	}
	available, warnings, err := i.Source.AvailableVersions(ctx, provider)
	if err != nil {
		return InstalledProvider{Warnings: warnings}, err
	}
	version, err := SelectVersion(available, constraints)
	if err != nil {
		return InstalledProvider{Warnings: warnings}, fmt.Errorf("for %s, %w", addrs.ProviderForDisplay(provider), err)
	}
	var acceptable []Hash
	if version.Same(locked) {
		acceptable = lockedHashes
	}
	installed, err := i.Install(ctx, provider, version, acceptable)
	installed.Warnings = append(warnings, installed.Warnings...)
	return installed, err
}

// Install installs one version of provider. When acceptable (the lock
// file's hashes) is not empty the package must match one of them.
func (i *ProviderInstaller) Install(ctx context.Context, provider tfaddr.Provider, version versions.Version, acceptable []Hash) (InstalledProvider, error) {
	platform := i.platform()
	if installed, ok, err := i.installFromCache(ctx, provider, version, platform, acceptable); ok || err != nil {
		return installed, err
	}
	meta, err := i.Source.PackageMeta(ctx, provider, version, platform)
	if err != nil {
		return InstalledProvider{}, err
	}
	if _, isRemote := meta.Location.(PackageRemoteArchive); isRemote && i.Network == nil {
		return InstalledProvider{}, fmt.Errorf("%s v%s is at %s, which cannot be fetched without the network", addrs.ProviderForDisplay(provider), version, meta.Location)
	}
	network := i.Network
	if network == nil {
		network = &Network{}
	}
	fetched, err := network.Fetch(ctx, meta)
	if err != nil {
		return InstalledProvider{}, err
	}
	defer fetched.Close()
	h1, err := PackageHashV1(fetched.Meta.Location)
	if err != nil {
		return InstalledProvider{}, err
	}
	if err := checkLocked(fetched.Meta, h1, acceptable); err != nil {
		return InstalledProvider{}, err
	}
	installed := InstalledProvider{Provider: provider, Version: version, Platform: platform,
		Authentication: fetched.Authentication, Warnings: fetched.Warnings}
	installed.Dir, installed.Executable, err = i.unpack(ctx, fetched.Meta)
	if err != nil {
		return InstalledProvider{}, err
	}
	installed.Hashes = dedupeHashes(append(append(fetched.SignedHashes, h1), acceptable...))
	return installed, nil
}

// checkLocked compares a package with the lock file's hashes, naming both
// sides when they differ.
func checkLocked(meta PackageMeta, h1 Hash, acceptable []Hash) error {
	if len(acceptable) == 0 {
		return nil
	}
	matched, err := MatchesAnyHash(meta.Location, acceptable)
	if err != nil || matched {
		return err
	}
	got := []Hash{h1}
	if archive, ok := meta.Location.(PackageLocalArchive); ok {
		if zh, err := PackageHashZip(archive); err == nil {
			got = append(got, zh)
		}
	}
	return &ErrChecksumMismatch{Provider: meta.Provider, Version: meta.Version, Location: meta.Location.String(),
		Want: acceptable, Got: got, Against: "the dependency lock file"}
}

// installFromCache links a cached package into TargetDir when the cache
// has one the lock file accepts.
func (i *ProviderInstaller) installFromCache(ctx context.Context, provider tfaddr.Provider, version versions.Version, platform Platform, acceptable []Hash) (InstalledProvider, bool, error) {
	if i.CacheDir == "" {
		return InstalledProvider{}, false, nil
	}
	cachedDir := UnpackedDir(i.CacheDir, provider, version, platform)
	if _, err := FindExecutable(cachedDir, provider.Type); err != nil {
		return InstalledProvider{}, false, nil
	}
	if len(acceptable) == 0 && !i.CacheWithoutLockedHashes {
		return InstalledProvider{}, false, nil
	}
	if len(acceptable) > 0 {
		if matched, err := MatchesAnyHash(PackageLocalDir(cachedDir), acceptable); err != nil || !matched {
			// A cached copy the lock file rejects is fetched afresh, which
			// replaces it in the cache if the new copy checks out.
			return InstalledProvider{}, false, nil
		}
	}
	cached := PackageMeta{Provider: provider, Version: version, Platform: platform,
		Filename: StandardFilename(provider, version, platform), Location: PackageLocalDir(cachedDir)}
	executable, err := InstallPackage(ctx, cached, i.TargetDir, nil)
	if err != nil {
		return InstalledProvider{}, false, err
	}
	installed := InstalledProvider{Provider: provider, Version: version, Platform: platform, FromCache: true,
		Dir: UnpackedDir(i.TargetDir, provider, version, platform), Executable: executable, Authentication: "from the plugin cache"}
	h1, err := PackageHashV1(PackageLocalDir(cachedDir))
	if err != nil {
		return InstalledProvider{}, false, err
	}
	installed.Hashes = dedupeHashes(append([]Hash{h1}, acceptable...))
	return installed, true, nil
}

// unpack installs a verified local package into TargetDir, through the
// cache when there is one.
func (i *ProviderInstaller) unpack(ctx context.Context, meta PackageMeta) (dir, executable string, err error) {
	if i.CacheDir != "" {
		if _, err := InstallPackage(ctx, meta, i.CacheDir, nil); err != nil {
			return "", "", err
		}
		meta.Location = PackageLocalDir(UnpackedDir(i.CacheDir, meta.Provider, meta.Version, meta.Platform))
	}
	executable, err = InstallPackage(ctx, meta, i.TargetDir, nil)
	return UnpackedDir(i.TargetDir, meta.Provider, meta.Version, meta.Platform), executable, err
}

func (i *ProviderInstaller) platform() Platform {
	if i.Platform == (Platform{}) {
		return CurrentPlatform()
	}
	return i.Platform
}
