package workdir

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

// verifiedFile remembers the h1: hashes of installed packages with a
// fingerprint of their files, so a run does not re-read every byte of every
// provider (a large provider is hundreds of megabytes) to check it against
// the lock. The fingerprint covers each file's size, modification and
// change times and inode: rewriting or replacing any file changes the
// change time, which only the system clock can set, so a changed package
// is always hashed again.
const verifiedFile = "verified-packages.json"

type verifiedPackage struct {
	Fingerprint string         `json:"fingerprint"`
	Hash        discovery.Hash `json:"hash"`
}

// verifier checks installed packages against locks, with the
// fingerprint cache of one working directory.
type verifier struct {
	path    string
	mu      sync.Mutex
	entries map[string]verifiedPackage
	changed bool
}

func newVerifier(dataDir string) *verifier {
	v := &verifier{path: filepath.Join(dataDir, verifiedFile), entries: map[string]verifiedPackage{}}
	if src, err := os.ReadFile(v.path); err == nil {
		// A damaged cache only costs time: every package is hashed again.
		_ = json.Unmarshal(src, &v.entries)
	}
	return v
}

// verify returns nil when the package in packageDir has one of the lock's
// hashes, else the diagnostic depsfile gives for a mismatch.
func (v *verifier) verify(lock *depsfile.ProviderLock, packageDir string) *diags.Diagnostic {
	hashes := lock.Hashes()
	if len(hashes) == 0 {
		return nil
	}
	before, err := packageFingerprint(packageDir)
	if err == nil && before != "" {
		v.mu.Lock()
		entry, known := v.entries[packageDir]
		v.mu.Unlock()
		if known && entry.Fingerprint == before && slices.Contains(hashes, entry.Hash) {
			return nil
		}
	}
	hash, err := discovery.PackageHashV1(discovery.PackageLocalDir(packageDir))
	if err != nil || !slices.Contains(hashes, hash) {
		// Let depsfile check every scheme and word the mismatch.
		return lock.VerifyPackage(discovery.PackageLocalDir(packageDir))
	}
	// Remember the hash only if nothing changed while it was computed.
	if after, err := packageFingerprint(packageDir); err == nil && before != "" && after == before {
		v.mu.Lock()
		v.entries[packageDir] = verifiedPackage{Fingerprint: before, Hash: hash}
		v.changed = true
		v.mu.Unlock()
	}
	return nil
}

// save writes the cache back if it changed. Failing to write it only
// costs time on the next run.
func (v *verifier) save() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.changed {
		return
	}
	src, err := json.MarshalIndent(v.entries, "", "  ")
	if err != nil {
		return
	}
	temp, err := os.CreateTemp(filepath.Dir(v.path), "."+verifiedFile+".tmp-")
	if err != nil {
		return
	}
	defer os.Remove(temp.Name())
	_, err = temp.Write(src)
	if closeErr := temp.Close(); err == nil && closeErr == nil {
		_ = os.Rename(temp.Name(), v.path)
	}
	v.changed = false
}

// packageFingerprint summarises the metadata of every file in a package.
// It returns "" when the platform gives no change times, which turns the
// cache off.
func packageFingerprint(packageDir string) (string, error) {
	root, err := filepath.EvalSymlinks(packageDir)
	if err != nil {
		return "", err
	}
	sum := sha256.New()
	fmt.Fprintf(sum, "%s\n", root)
	err = filepath.WalkDir(root, func(path string, entry fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Stat(path) // follows links, as hashing does
		if err != nil {
			return err
		}
		stamp, ok := fileStamp(info)
		if !ok {
			return errNoStamp
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(sum, "%s %d %o %d %s\n", rel, info.Size(), info.Mode(), info.ModTime().UnixNano(), stamp)
		return nil
	})
	if err == errNoStamp {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(sum.Sum(nil)), nil
}

var errNoStamp = fmt.Errorf("no file change times on this platform")
