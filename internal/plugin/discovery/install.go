package discovery

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
)

// UnpackedDir returns where a package lives in a directory of the unpacked
// layout: BASE/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH.
func UnpackedDir(baseDir string, provider tfaddr.Provider, version versions.Version, platform Platform) string {
	return filepath.Join(baseDir, provider.Hostname.ForDisplay(), provider.Namespace, provider.Type, version.String(), platform.String())
}

// FindExecutable returns the provider's executable in a package directory:
// a regular, executable file whose name starts with
// terraform-provider-TYPE (such as terraform-provider-aws_v5.100.0_x5),
// following Terraform's rule, or else one named pulumi-resource-TYPE, a
// Pulumi resource provider (see IsPulumiExecutable). When several match,
// the first by name wins.
func FindExecutable(dir, typeName string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("cannot read package directory: %w", err)
	}
	prefix := "terraform-provider-" + typeName
	pulumiName := PulumiExecutablePrefix + typeName
	isTerraform := func(name string) bool { return strings.HasPrefix(name, prefix) }
	isPulumi := func(name string) bool { return strings.TrimSuffix(name, ".exe") == pulumiName }
	var notExecutable []string
	for _, matches := range []func(string) bool{isTerraform, isPulumi} {
		path, rejected := firstExecutable(dir, entries, matches)
		if path != "" {
			return path, nil
		}
		notExecutable = append(notExecutable, rejected...)
	}
	if len(notExecutable) > 0 {
		return "", fmt.Errorf("%s in %s is not executable; make it executable with chmod +x", strings.Join(notExecutable, ", "), dir)
	}
	return "", fmt.Errorf("%s contains no file named %s* or %s, the provider's executable", dir, prefix, pulumiName)
}

// firstExecutable returns the first entry (by name) that matches and is an
// executable regular file, and the matching names that are not executable.
func firstExecutable(dir string, entries []os.DirEntry, matches func(string) bool) (string, []string) {
	var notExecutable []string
	for _, entry := range entries { // ReadDir sorts by name
		name := entry.Name()
		if !matches(name) || (runtime.GOOS == "windows" && !strings.HasSuffix(name, ".exe")) {
			continue
		}
		path := filepath.Join(dir, name)
		info, err := os.Stat(path) // a symlink to the binary is fine
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if runtime.GOOS != "windows" && info.Mode().Perm()&0o111 == 0 {
			notExecutable = append(notExecutable, name)
			continue
		}
		return path, nil
	}
	return "", notExecutable
}

// Installer installs packages found through a source.
type Installer struct {
	Source Source
}

// Install finds the package of provider at version for platform and
// installs it under targetDir (such as .terrane/providers) in the unpacked
// layout, returning the provider executable's path.
func (i Installer) Install(ctx context.Context, provider tfaddr.Provider, version versions.Version, platform Platform, targetDir string) (string, error) {
	meta, err := i.Source.PackageMeta(ctx, provider, version, platform)
	if err != nil {
		return "", err
	}
	return InstallPackage(ctx, meta, targetDir, nil)
}

// InstallPackage installs one package into targetDir's unpacked layout and
// returns the provider executable's path. A zip is unpacked; a directory is
// linked (or copied where links are not possible), as Terraform links
// packages from its plugin cache. When acceptable is not empty the package
// must match one of those hashes (from the dependency lock file) before
// anything is written. An existing installation of the same package is
// replaced.
func InstallPackage(ctx context.Context, meta PackageMeta, targetDir string, acceptable []Hash) (string, error) {
	if len(acceptable) > 0 {
		matched, err := MatchesAnyHash(meta.Location, acceptable)
		if err != nil {
			return "", err
		}
		if !matched {
			return "", fmt.Errorf("the package %s for %s v%s does not match any checksum the dependency lock file records (%s); it may have been changed or be a different build",
				meta.Location, addrs.ProviderForDisplay(meta.Provider), meta.Version, joinHashes(acceptable))
		}
	}
	finalDir := UnpackedDir(targetDir, meta.Provider, meta.Version, meta.Platform)
	if err := os.MkdirAll(filepath.Dir(finalDir), 0o755); err != nil {
		return "", fmt.Errorf("cannot create %s: %w", filepath.Dir(finalDir), err)
	}
	var err error
	switch location := meta.Location.(type) {
	case PackageLocalArchive:
		err = unzipPackage(ctx, string(location), finalDir)
	case PackageLocalDir:
		err = linkPackage(string(location), finalDir)
	default:
		err = fmt.Errorf("cannot install a package from %s", meta.Location)
	}
	if err != nil {
		return "", fmt.Errorf("installing %s v%s into %s: %w", addrs.ProviderForDisplay(meta.Provider), meta.Version, finalDir, err)
	}
	return FindExecutable(finalDir, meta.Provider.Type)
}

// InstallThroughCache installs a package the way init does with a plugin
// cache: the package is unpacked into cacheDir unless the cache has it
// already, and targetDir links to the cached copy, so working directories
// share one copy of each provider. With cacheDir "" it is InstallPackage.
// acceptable is checked against whichever copy is used.
func InstallThroughCache(ctx context.Context, meta PackageMeta, cacheDir, targetDir string, acceptable []Hash) (string, error) {
	if cacheDir == "" {
		return InstallPackage(ctx, meta, targetDir, acceptable)
	}
	cachedDir := UnpackedDir(cacheDir, meta.Provider, meta.Version, meta.Platform)
	if _, err := FindExecutable(cachedDir, meta.Provider.Type); err != nil {
		if _, err := InstallPackage(ctx, meta, cacheDir, acceptable); err != nil {
			return "", err
		}
	}
	cached := meta
	cached.Location = PackageLocalDir(cachedDir)
	return InstallPackage(ctx, cached, targetDir, acceptable)
}

func joinHashes(hashes []Hash) string {
	names := make([]string, len(hashes))
	for i, hash := range hashes {
		names[i] = string(hash)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// linkPackage makes finalDir a symlink to the package directory, or a copy
// of it when symlinks cannot be made.
func linkPackage(sourceDir, finalDir string) error {
	absolute, err := filepath.Abs(sourceDir)
	if err != nil {
		return err
	}
	if same, _ := samePath(absolute, finalDir); same {
		return nil // already installed in place, as when targetDir is the mirror
	}
	if err := removeExisting(finalDir); err != nil {
		return err
	}
	if err := os.Symlink(absolute, finalDir); err == nil {
		return nil
	}
	return replaceWithTemp(finalDir, func(tempDir string) error {
		return os.CopyFS(tempDir, os.DirFS(absolute))
	})
}

// samePath reports whether two paths name the same directory.
func samePath(a, b string) (bool, error) {
	infoA, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	infoB, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(infoA, infoB), nil
}

// removeExisting removes a previous installation at path, whether a link
// or a directory.
func removeExisting(path string) error {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if info.Mode()&os.ModeSymlink != 0 {
		return os.Remove(path)
	}
	return os.RemoveAll(path)
}

// replaceWithTemp fills a temporary directory next to finalDir and then
// renames it into place, so an interrupted install never leaves a
// half-written package where a later run would trust it.
func replaceWithTemp(finalDir string, fill func(tempDir string) error) error {
	tempDir, err := os.MkdirTemp(filepath.Dir(finalDir), "."+filepath.Base(finalDir)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tempDir) // a no-op after the rename succeeds
	if err := fill(tempDir); err != nil {
		return err
	}
	if err := removeExisting(finalDir); err != nil {
		return err
	}
	return os.Rename(tempDir, finalDir)
}
