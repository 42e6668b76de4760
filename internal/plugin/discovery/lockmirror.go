package discovery

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// PlatformHashes fetches and verifies the package of one provider version
// for each platform and returns what "providers lock" records: every
// package's h1: hash and the zh: hashes of signed checksum files (or a
// mirror's listed hashes), sorted. A nil network means local sources only.
func PlatformHashes(ctx context.Context, source Source, network *Network, provider tfaddr.Provider, version versions.Version, platforms []Platform) ([]Hash, error) {
	var hashes []Hash
	for _, platform := range platforms {
		err := withFetchedPackage(ctx, source, network, provider, version, platform, func(fetched *FetchedPackage) error {
			h1, err := PackageHashV1(fetched.Meta.Location)
			if err != nil {
				return err
			}
			hashes = append(hashes, h1)
			hashes = append(hashes, fetched.SignedHashes...)
			if archive, ok := fetched.Meta.Location.(PackageLocalArchive); ok {
				zh, err := PackageHashZip(archive)
				if err != nil {
					return err
				}
				hashes = append(hashes, zh)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return dedupeHashes(hashes), nil
}

// withFetchedPackage finds, downloads and verifies one package and hands
// it to use, removing any download afterwards.
func withFetchedPackage(ctx context.Context, source Source, network *Network, provider tfaddr.Provider, version versions.Version, platform Platform, use func(*FetchedPackage) error) error {
	meta, err := source.PackageMeta(ctx, provider, version, platform)
	if err != nil {
		return err
	}
	if network == nil {
		network = &Network{}
	}
	fetched, err := network.Fetch(ctx, meta)
	if err != nil {
		return err
	}
	defer fetched.Close()
	return use(fetched)
}

// MirrorPackage fetches and verifies one package and places it in dir in
// the packed layout a filesystem mirror reads,
// DIR/HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip. It
// returns how the package was verified. Placing it can fail apart from
// fetching it: placeErr tells which.
func MirrorPackage(ctx context.Context, network *Network, meta PackageMeta, dir string) (auth string, fetchErr, placeErr error) {
	if network == nil {
		network = &Network{}
	}
	fetched, err := network.Fetch(ctx, meta)
	if err != nil {
		return "", err, nil
	}
	defer fetched.Close()
	typeDir := filepath.Join(dir, meta.Provider.Hostname.ForDisplay(), meta.Provider.Namespace, meta.Provider.Type)
	if err := os.MkdirAll(typeDir, 0o755); err != nil {
		return fetched.Authentication, nil, err
	}
	target := filepath.Join(typeDir, StandardFilename(meta.Provider, meta.Version, meta.Platform))
	return fetched.Authentication, nil, writeArchive(fetched.Meta.Location, target)
}

// UpdateMirrorIndexes writes, for every provider whose packages dir holds
// in the packed layout, the network mirror index files beside them:
// index.json listing the versions and VERSION.json listing each
// platform's archive with its h1: and zh: hashes. They are rebuilt from
// what the directory holds, so packages placed before keep their entries
// and dir can be served over HTTPS as a network_mirror.
func UpdateMirrorIndexes(dir string) error {
	if _, err := os.Lstat(dir); err != nil {
		return fmt.Errorf("cannot search %s: %w", dir, err)
	}
	mirror := NewFilesystemMirror(dir)
	for _, provider := range mirror.Providers() {
		packages, _, err := mirror.Packages(provider)
		if err != nil {
			return err
		}
		byVersion := map[string]map[string]mirrorArchive{}
		typeDir := ""
		for _, meta := range packages {
			archive, ok := meta.Location.(PackageLocalArchive)
			if !ok {
				continue // only archives can be served by a network mirror
			}
			typeDir = filepath.Dir(string(archive))
			h1, err := PackageHashV1(archive)
			if err != nil {
				return fmt.Errorf("failed to determine a hash value for %s v%s on %s: %w", provider, meta.Version, meta.Platform, err)
			}
			zh, err := PackageHashZip(archive)
			if err != nil {
				return err
			}
			if byVersion[meta.Version.String()] == nil {
				byVersion[meta.Version.String()] = map[string]mirrorArchive{}
			}
			byVersion[meta.Version.String()][meta.Platform.String()] = mirrorArchive{URL: filepath.Base(string(archive)), Hashes: []string{string(h1), string(zh)}}
		}
		if typeDir == "" {
			continue
		}
		if err := writeMirrorIndex(typeDir, byVersion); err != nil {
			return fmt.Errorf("failed to write an updated JSON index for %s: %w", provider, err)
		}
	}
	return nil
}

type mirrorArchive struct {
	URL    string   `json:"url"`
	Hashes []string `json:"hashes"`
}

func writeMirrorIndex(typeDir string, byVersion map[string]map[string]mirrorArchive) error {
	index := struct {
		Versions map[string]struct{} `json:"versions"`
	}{Versions: map[string]struct{}{}}
	for version, archives := range byVersion {
		index.Versions[version] = struct{}{}
		doc := struct {
			Archives map[string]mirrorArchive `json:"archives"`
		}{Archives: archives}
		if err := writeJSON(filepath.Join(typeDir, version+".json"), doc); err != nil {
			return err
		}
	}
	return writeJSON(filepath.Join(typeDir, "index.json"), index)
}

func writeJSON(path string, value any) error {
	src, err := json.MarshalIndent(value, "", "  ")
	if err != nil {
		return err
	}
	temp := path + ".tmp"
	if err := os.WriteFile(temp, append(src, '\n'), 0o644); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return os.Rename(temp, path)
}

// writeArchive puts a package at target as a zip: a zip is copied, an
// unpacked directory zipped.
func writeArchive(location PackageLocation, target string) error {
	temp := target + ".tmp"
	out, err := os.Create(temp)
	if err != nil {
		return fmt.Errorf("cannot create %s: %w", target, err)
	}
	switch location := location.(type) {
	case PackageLocalArchive:
		err = copyFile(string(location), out)
	case PackageLocalDir:
		err = zipDir(string(location), out)
	default:
		err = fmt.Errorf("cannot mirror a package at %s", location)
	}
	if closeErr := out.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		os.Remove(temp)
		return err
	}
	return os.Rename(temp, target)
}

func copyFile(path string, out io.Writer) error {
	in, err := os.Open(path)
	if err != nil {
		return err
	}
	defer in.Close()
	_, err = io.Copy(out, in)
	return err
}

// zipDir writes a package directory as a zip, keeping executable bits.
func zipDir(dir string, out io.Writer) error {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	writer := zip.NewWriter(out)
	err = filepath.WalkDir(root, func(path string, entry fs.DirEntry, err error) error {
		if err != nil || entry.IsDir() {
			return err
		}
		info, err := entry.Info()
		if err != nil {
			return err
		}
		header, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		relative, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		header.Name, header.Method = filepath.ToSlash(relative), zip.Deflate
		w, err := writer.CreateHeader(header)
		if err != nil {
			return err
		}
		return copyFile(path, w)
	})
	if err != nil {
		return err
	}
	return writer.Close()
}
