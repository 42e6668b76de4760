package discovery

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
)

// PackageRemoteArchive is a package zip at a URL, with the checks its
// download must pass before anything uses it.
type PackageRemoteArchive struct {
	URL    string
	Checks PackageChecks
	// Origin names the registry or mirror, for messages.
	Origin string
}

func (p PackageRemoteArchive) String() string   { return p.URL }
func (PackageRemoteArchive) isPackageLocation() {}

// PackageChecks are what a downloaded package is verified against.
type PackageChecks struct {
	// SHA256 is the zip's digest as the registry states it (hex), or "".
	SHA256 string
	// SumsURL and SignatureURL locate the release's SHA256SUMS file and
	// its detached signature, which must come from one of SigningKeys.
	SumsURL, SignatureURL string
	SigningKeys           []SigningKey
	// Hashes are the h1:/zh: hashes a network mirror lists for the
	// package; the download must match one.
	Hashes []Hash
}

// FetchedPackage is a remote package downloaded and verified.
type FetchedPackage struct {
	// Meta is the package with Location the downloaded zip.
	Meta PackageMeta
	// SignedHashes are the zh: hashes of every platform's package listed
	// in a signed SHA256SUMS file (or a mirror's hashes), which the lock
	// file records so other platforms can verify their own packages.
	SignedHashes []Hash
	// Authentication says how the package was verified, for messages, such
	// as "signed by key 1234ABCD".
	Authentication string
	Warnings       Warnings
	tempDir        string
}

// Close removes the downloaded file.
func (f *FetchedPackage) Close() error {
	if f == nil || f.tempDir == "" {
		return nil
	}
	return os.RemoveAll(f.tempDir)
}

// ErrChecksumMismatch means a package's content is not what the registry,
// mirror or lock file says it should be.
type ErrChecksumMismatch struct {
	Provider tfaddr.Provider
	Version  versions.Version
	Location string
	// Want are the acceptable hashes and Got the package's own.
	Want, Got []Hash
	// Against names what gave Want, such as "the registry's SHA256SUMS".
	Against string
}

func (e *ErrChecksumMismatch) Error() string {
	return fmt.Sprintf("the package of %s v%s from %s has checksum %s, but %s expects %s; it may have been corrupted or tampered with, so it was not installed",
		addrs.ProviderForDisplay(e.Provider), e.Version, e.Location, joinHashes(e.Got), e.Against, joinHashes(e.Want))
}

// Fetch downloads a remote package into a temporary directory and verifies
// it: against the registry's signed SHA256SUMS (the signature first, then
// the zip's digest) or the mirror's hashes. Local packages are returned as
// they are. Close the result when done with it.
func (n *Network) Fetch(ctx context.Context, meta PackageMeta) (*FetchedPackage, error) {
	remote, isRemote := meta.Location.(PackageRemoteArchive)
	if !isRemote {
		return &FetchedPackage{Meta: meta, Authentication: "from " + meta.Location.String()}, nil
	}
	fetched := &FetchedPackage{Meta: meta}
	signedDigest, err := n.verifySums(ctx, meta, remote.Checks, fetched)
	if err != nil {
		return nil, err
	}
	tempDir, err := os.MkdirTemp("", "terrane-provider-")
	if err != nil {
		return nil, fmt.Errorf("cannot make a download directory: %w", err)
	}
	fetched.tempDir = tempDir
	archive := filepath.Join(tempDir, filepath.Base(meta.Filename))
	if err := n.downloadTo(ctx, remote.URL, archive); err != nil {
		fetched.Close()
		return nil, err
	}
	fetched.Meta.Location = PackageLocalArchive(archive)
	if err := verifyDigests(meta, remote, archive, signedDigest); err != nil {
		fetched.Close()
		return nil, err
	}
	return fetched, nil
}

func (n *Network) downloadTo(ctx context.Context, target, archive string) error {
	file, err := os.Create(archive)
	if err != nil {
		return fmt.Errorf("cannot create %s: %w", archive, err)
	}
	err = n.download(ctx, target, file)
	if closeErr := file.Close(); err == nil {
		err = closeErr
	}
	return err
}

// verifySums fetches and checks the signed SHA256SUMS file, returning the
// digest it gives for this package ("" when the package has no such file,
// as from a network mirror).
func (n *Network) verifySums(ctx context.Context, meta PackageMeta, checks PackageChecks, fetched *FetchedPackage) (string, error) {
	fetched.SignedHashes = append(fetched.SignedHashes, checks.Hashes...)
	if checks.SumsURL == "" {
		if len(checks.Hashes) > 0 {
			fetched.Authentication = "checksum listed by the mirror"
		}
		return "", nil
	}
	sums, err := n.getDocument(ctx, checks.SumsURL)
	if err != nil {
		return "", fmt.Errorf("fetching the checksums of %s v%s: %w", addrs.ProviderForDisplay(meta.Provider), meta.Version, err)
	}
	switch {
	case len(checks.SigningKeys) == 0:
		// The OpenTofu registry serves some providers whose authors never
		// published a key; OpenTofu installs those with a warning.
		fetched.Warnings = append(fetched.Warnings, fmt.Sprintf("the registry gives no signing key for %s, so its checksums could not be authenticated", addrs.ProviderForDisplay(meta.Provider)))
		fetched.Authentication = "unsigned"
	case checks.SignatureURL == "":
		return "", &ErrBadSignature{Provider: meta.Provider, SumsURL: checks.SumsURL, Err: fmt.Errorf("the registry gives no signature URL")}
	default:
		signature, err := n.getDocument(ctx, checks.SignatureURL)
		if err != nil {
			return "", fmt.Errorf("fetching the checksum signature of %s v%s: %w", addrs.ProviderForDisplay(meta.Provider), meta.Version, err)
		}
		keyID, err := checkSignature(meta.Provider, checks.SumsURL, sums, signature, checks.SigningKeys)
		if err != nil {
			return "", err
		}
		fetched.Authentication = "signed by key " + keyID
	}
	digests, err := parseSHA256Sums(sums)
	if err != nil {
		return "", fmt.Errorf("the checksum file %s is malformed: %w", checks.SumsURL, err)
	}
	digest, listed := digests[meta.Filename]
	if !listed {
		return "", fmt.Errorf("the checksum file %s does not list %s; the registry's release is incomplete", checks.SumsURL, meta.Filename)
	}
	for _, other := range sortedValues(digests) {
		fetched.SignedHashes = append(fetched.SignedHashes, Hash(HashSchemeZip+other))
	}
	return digest, nil
}

// verifyDigests checks the downloaded zip against the registry's stated
// digest, the signed checksum file and the mirror's hashes.
func verifyDigests(meta PackageMeta, remote PackageRemoteArchive, archive, signedDigest string) error {
	got, err := fileSHA256(archive)
	if err != nil {
		return err
	}
	gotHash := []Hash{Hash(HashSchemeZip + got)}
	for _, expected := range []struct{ digest, against string }{
		{remote.Checks.SHA256, remote.Origin + "'s download answer"},
		{signedDigest, "the release's SHA256SUMS file"},
	} {
		if expected.digest != "" && expected.digest != got {
			return &ErrChecksumMismatch{Provider: meta.Provider, Version: meta.Version, Location: remote.URL,
				Want: []Hash{Hash(HashSchemeZip + expected.digest)}, Got: gotHash, Against: expected.against}
		}
	}
	if len(remote.Checks.Hashes) == 0 {
		return nil
	}
	matched, err := MatchesAnyHash(PackageLocalArchive(archive), remote.Checks.Hashes)
	if err != nil {
		return err
	}
	if !matched {
		if h1, err := PackageHashV1(PackageLocalArchive(archive)); err == nil {
			gotHash = append([]Hash{h1}, gotHash...)
		}
		return &ErrChecksumMismatch{Provider: meta.Provider, Version: meta.Version, Location: remote.URL,
			Want: remote.Checks.Hashes, Got: gotHash, Against: remote.Origin}
	}
	return nil
}

func fileSHA256(path string) (string, error) {
	file, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer file.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, file); err != nil {
		return "", fmt.Errorf("cannot read %s: %w", path, err)
	}
	return hex.EncodeToString(sum.Sum(nil)), nil
}

func sortedValues(digests map[string]string) []string {
	values := make([]string, 0, len(digests))
	for _, digest := range digests {
		values = append(values, digest)
	}
	sort.Strings(values)
	return values
}

// dedupeHashes sorts hashes and drops repeats, the lock file's order.
func dedupeHashes(hashes []Hash) []Hash {
	sorted := append([]Hash(nil), hashes...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	var out []Hash
	for _, hash := range sorted {
		if len(out) == 0 || out[len(out)-1] != hash {
			out = append(out, hash)
		}
	}
	return out
}
