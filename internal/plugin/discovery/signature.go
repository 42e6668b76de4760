package discovery

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
)

// ErrBadSignature means a checksum file's signature is not from any of the
// keys the registry gives for the provider, or cannot be read.
type ErrBadSignature struct {
	Provider tfaddr.Provider
	SumsURL  string
	KeyIDs   []string
	Err      error
}

func (e *ErrBadSignature) Error() string {
	keys := "the registry's signing keys"
	if len(e.KeyIDs) > 0 {
		keys = "any of the registry's signing keys (" + strings.Join(e.KeyIDs, ", ") + ")"
	}
	return fmt.Sprintf("the checksums of %s at %s are not signed by %s: %s; the package may have been tampered with, so it was not installed",
		addrs.ProviderForDisplay(e.Provider), e.SumsURL, keys, e.Err)
}

func (e *ErrBadSignature) Unwrap() error { return e.Err }

// checkSignature verifies a detached OpenPGP signature of a SHA256SUMS
// file against the registry's keys and returns the signing key's ID.
func checkSignature(provider tfaddr.Provider, sumsURL string, sums, signature []byte, keys []SigningKey) (string, error) {
	var keyring openpgp.EntityList
	var keyIDs []string
	for _, key := range keys {
		keyIDs = append(keyIDs, key.KeyID)
		entities, err := openpgp.ReadArmoredKeyRing(strings.NewReader(key.ASCIIArmor))
		if err != nil {
			return "", &ErrBadSignature{Provider: provider, SumsURL: sumsURL, KeyIDs: keyIDs,
				Err: fmt.Errorf("the registry's key %s cannot be read: %w", key.KeyID, err)}
		}
		keyring = append(keyring, entities...)
	}
	signer, err := openpgp.CheckDetachedSignature(keyring, bytes.NewReader(sums), bytes.NewReader(signature), nil)
	if err != nil {
		return "", &ErrBadSignature{Provider: provider, SumsURL: sumsURL, KeyIDs: keyIDs, Err: err}
	}
	return strings.ToUpper(signer.PrimaryKey.KeyIdString()), nil
}

// parseSHA256Sums reads a SHA256SUMS file ("HEX  FILENAME" per line) into
// a map from file name to lower-case hex digest.
func parseSHA256Sums(sums []byte) (map[string]string, error) {
	digests := make(map[string]string)
	scanner := bufio.NewScanner(bytes.NewReader(sums))
	for line := 1; scanner.Scan(); line++ {
		text := strings.TrimSpace(scanner.Text())
		if text == "" {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 {
			return nil, fmt.Errorf("line %d is not \"SHA256  FILENAME\"", line)
		}
		digest := strings.ToLower(fields[0])
		if decoded, err := hex.DecodeString(digest); err != nil || len(decoded) != 32 {
			return nil, fmt.Errorf("line %d does not start with a SHA-256 digest", line)
		}
		// "sha256sum -b" marks binary mode with a leading "*".
		digests[strings.TrimPrefix(fields[1], "*")] = digest
	}
	return digests, scanner.Err()
}
