package discovery

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
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

// MirrorPackages copies the package of one provider version for each
// platform into dir in the packed layout a filesystem mirror reads, and
// updates the network mirror index files beside them (index.json and
// VERSION.json with each archive's h1: and zh: hashes), so dir can be used
// as a filesystem_mirror or served over HTTPS as a network_mirror.
func MirrorPackages(ctx context.Context, source Source, network *Network, provider tfaddr.Provider, version versions.Version, platforms []Platform, dir string) error {
	typeDir := filepath.Join(dir, provider.Hostname.ForDisplay(), provider.Namespace, provider.Type)
	if err := os.MkdirAll(typeDir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w", typeDir, err)
	}
	archives := map[string]mirrorArchive{}
	for _, platform := range platforms {
		filename := StandardFilename(provider, version, platform)
		target := filepath.Join(typeDir, filename)
		err := withFetchedPackage(ctx, source, network, provider, version, platform, func(fetched *FetchedPackage) error {
			return writeArchive(fetched.Meta.Location, target)
		})
		if err != nil {
			return err
		}
		h1, err := PackageHashV1(PackageLocalArchive(target))
		if err != nil {
			return err
		}
		zh, err := PackageHashZip(PackageLocalArchive(target))
		if err != nil {
			return err
		}
		archives[platform.String()] = mirrorArchive{URL: filename, Hashes: []string{string(h1), string(zh)}}
	}
	return updateMirrorIndex(typeDir, version, archives)
}

type mirrorArchive struct {
	URL    string   `json:"url"`
	Hashes []string `json:"hashes"`
}

// updateMirrorIndex merges archives into VERSION.json and the version into
// index.json, keeping what earlier runs wrote for other platforms and
// versions.
func updateMirrorIndex(typeDir string, version versions.Version, archives map[string]mirrorArchive) error {
	versionFile := filepath.Join(typeDir, version.String()+".json")
	var versionDoc struct {
		Archives map[string]mirrorArchive `json:"archives"`
	}
	if err := readJSONIfExists(versionFile, &versionDoc); err != nil {
		return err
	}
	if versionDoc.Archives == nil {
		versionDoc.Archives = map[string]mirrorArchive{}
	}
	for platform, archive := range archives {
		versionDoc.Archives[platform] = archive
	}
	if err := writeJSON(versionFile, versionDoc); err != nil {
		return err
	}
	indexFile := filepath.Join(typeDir, "index.json")
	var index struct {
		Versions map[string]struct{} `json:"versions"`
	}
	if err := readJSONIfExists(indexFile, &index); err != nil {
		return err
	}
	if index.Versions == nil {
		index.Versions = map[string]struct{}{}
	}
	index.Versions[version.String()] = struct{}{}
	return writeJSON(indexFile, index)
}

func readJSONIfExists(path string, into any) error {
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(src, into); err != nil {
		return fmt.Errorf("%s is not a valid mirror index (%s); delete it and mirror again", path, err)
	}
	return nil
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
