package depsfile

import (
	"fmt"
	"strings"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

// VerifyPackage checks an installed package against the lock: its h1:
// hash (and zh: hash, for a zip) must be one the lock records. It returns
// nil when the lock records no hashes, as a lock written by hand may not.
// A mismatch is an error naming the package's hash and the recorded ones.
func (l *ProviderLock) VerifyPackage(location discovery.PackageLocation) *diags.Diagnostic {
	if len(l.hashes) == 0 {
		return nil
	}
	matched, err := discovery.MatchesAnyHash(location, l.hashes)
	if err != nil {
		diag := diags.Errorf("Cannot verify provider package",
			"Checking %s v%s at %s against the dependency lock file failed: %s. Run terrane init to reinstall it.",
			addrs.ProviderForDisplay(l.provider), l.version, location, err)
		diag.Address = l.provider.String()
		return &diag
	}
	if matched {
		return nil
	}
	actual, err := discovery.PackageHashV1(location)
	actualText := string(actual)
	if err != nil {
		actualText = "unknown (" + err.Error() + ")"
	}
	recorded := make([]string, len(l.hashes))
	for i, hash := range l.hashes {
		recorded[i] = "\n  - " + string(hash)
	}
	diag := diags.Errorf("Provider package does not match the dependency lock file",
		"The package of %s v%s at %s has the checksum %s, which is not one of those %s records:%s\n\n"+
			"The package may have been changed since it was installed, or be a different build of that version. "+
			"If you trust this package (a provider you rebuilt, say), remove its block from %s and run terrane init to record the new checksum; otherwise reinstall it from a trusted source with terrane init.",
		addrs.ProviderForDisplay(l.provider), l.version, location, actualText, FileName, strings.Join(recorded, ""), FileName)
	diag.Address = l.provider.String()
	return &diag
}

// String describes the lock on one line, for logs.
func (l *ProviderLock) String() string {
	return fmt.Sprintf("%s v%s (%d hashes)", l.provider, l.version, len(l.hashes))
}
