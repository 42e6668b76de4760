package discovery

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/dirhash"
)

// Hash is a package checksum as the dependency lock file records it: a
// scheme, a colon and the value, such as "h1:..." or "zh:...".
type Hash string

// The hash schemes of the dependency lock file.
const (
	// HashSchemeV1 ("h1:") hashes a package's content, so a zip and the
	// directory it unpacks to have the same h1 hash.
	HashSchemeV1 = "h1:"
	// HashSchemeZip ("zh:") is the SHA-256 of the zip file itself, the
	// value registries publish in their SHA256SUMS files.
	HashSchemeZip = "zh:"
)

// Scheme returns the hash's scheme with its colon, such as "h1:".
func (h Hash) Scheme() string {
	if scheme, _, found := strings.Cut(string(h), ":"); found {
		return scheme + ":"
	}
	return ""
}

// PackageHashV1 computes the h1: hash of a package, from its directory or
// its zip: the dirhash "Hash1" of its files, which the zip and the unpacked
// directory share.
func PackageHashV1(location PackageLocation) (Hash, error) {
	switch location := location.(type) {
	case PackageLocalDir:
		// dirhash walks the tree without following a symlinked root, and
		// the plugin cache and mirrors often hold exactly that.
		dir, err := filepath.EvalSymlinks(string(location))
		if err != nil {
			return "", fmt.Errorf("cannot hash package %s: %w", location, err)
		}
		sum, err := dirhash.HashDir(dir, "", dirhash.Hash1)
		if err != nil {
			return "", fmt.Errorf("cannot hash package %s: %w", location, err)
		}
		return Hash(sum), nil
	case PackageLocalArchive:
		sum, err := dirhash.HashZip(string(location), dirhash.Hash1)
		if err != nil {
			return "", fmt.Errorf("cannot hash package %s: %w", location, err)
		}
		return Hash(sum), nil
	default:
		return "", fmt.Errorf("cannot hash a package at %s", location)
	}
}

// PackageHashZip computes the zh: hash of a zip package: the SHA-256 of
// the file, in hexadecimal.
func PackageHashZip(archive PackageLocalArchive) (Hash, error) {
	file, err := os.Open(string(archive))
	if err != nil {
		return "", fmt.Errorf("cannot hash package %s: %w", archive, err)
	}
	defer file.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, file); err != nil {
		return "", fmt.Errorf("cannot hash package %s: %w", archive, err)
	}
	return Hash(HashSchemeZip + hex.EncodeToString(sum.Sum(nil))), nil
}

// MatchesAnyHash reports whether the package at location has one of the
// given hashes. Only schemes that apply are checked: a directory can match
// only h1: hashes, a zip h1: or zh: ones.
func MatchesAnyHash(location PackageLocation, acceptable []Hash) (bool, error) {
	var computed []Hash
	for _, want := range acceptable {
		var got Hash
		var err error
		switch {
		case want.Scheme() == HashSchemeV1:
			got, err = cachedHash(&computed, HashSchemeV1, func() (Hash, error) { return PackageHashV1(location) })
		case want.Scheme() == HashSchemeZip:
			archive, isArchive := location.(PackageLocalArchive)
			if !isArchive {
				continue
			}
			got, err = cachedHash(&computed, HashSchemeZip, func() (Hash, error) { return PackageHashZip(archive) })
		default:
			continue
		}
		if err != nil {
			return false, err
		}
		if got == want {
			return true, nil
		}
	}
	return false, nil
}

// cachedHash computes a hash of the given scheme once per MatchesAnyHash.
func cachedHash(computed *[]Hash, scheme string, compute func() (Hash, error)) (Hash, error) {
	for _, hash := range *computed {
		if hash.Scheme() == scheme {
			return hash, nil
		}
	}
	hash, err := compute()
	if err != nil {
		return "", err
	}
	*computed = append(*computed, hash)
	return hash, nil
}
