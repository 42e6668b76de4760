package discovery

import (
	"sort"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// sortPackages orders packages by version, then platform.
func sortPackages(packages []PackageMeta) {
	sort.SliceStable(packages, func(i, j int) bool {
		a, b := packages[i], packages[j]
		if !a.Version.Same(b.Version) {
			return a.Version.LessThan(b.Version)
		}
		return a.Platform.String() < b.Platform.String()
	})
}

// versionsOf returns the distinct versions of packages, oldest first.
func versionsOf(packages []PackageMeta) versions.List {
	var list versions.List
	for _, meta := range packages {
		if !containsVersion(list, meta.Version) {
			list = append(list, meta.Version)
		}
	}
	list.Sort()
	return list
}

func containsVersion(list versions.List, version versions.Version) bool {
	for _, have := range list {
		if have.Same(version) {
			return true
		}
	}
	return false
}

// pickPackage returns the package of version for platform among packages,
// or says why there is none.
func pickPackage(provider tfaddr.Provider, packages []PackageMeta, version versions.Version, platform Platform, where string) (PackageMeta, error) {
	var platforms []Platform
	for _, meta := range packages {
		if !meta.Version.Same(version) {
			continue
		}
		if meta.Platform == platform {
			return meta, nil
		}
		platforms = append(platforms, meta.Platform)
	}
	if len(platforms) == 0 {
		return PackageMeta{}, &ErrProviderNotFound{Provider: provider, LookedIn: []string{where},
			Notes: []string{"it has no version " + version.String()}}
	}
	return PackageMeta{}, &ErrPlatformNotSupported{Provider: provider, Version: version, Platform: platform, Available: platforms}
}
