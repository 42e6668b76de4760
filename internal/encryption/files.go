package encryption

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Version is the encryption_version OpenTofu writes in its envelopes.
const Version = "v0"

// fileEnvelope is OpenTofu's encrypted state and plan file: JSON whose
// encrypted_data is the method's output (base64, as encoding/json writes
// []byte) and whose meta holds each key provider's metadata. State files
// also keep their serial and lineage readable.
type fileEnvelope struct {
	Serial            *int64            `json:"serial,omitempty"`
	Lineage           string            `json:"lineage,omitempty"`
	Meta              map[string][]byte `json:"meta"`
	EncryptedData     []byte            `json:"encrypted_data"`
	EncryptionVersion string            `json:"encryption_version"`
}

// IsEncryptedFile reports whether data is an encrypted state or plan file:
// JSON carrying an encryption_version.
func IsEncryptedFile(data []byte) bool {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return false
	}
	var probe struct {
		Version string `json:"encryption_version"`
	}
	return json.Unmarshal(trimmed, &probe) == nil && probe.Version != ""
}

func parseFileEnvelope(data []byte) (*fileEnvelope, error) {
	var env fileEnvelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("the encrypted file is not valid JSON: %w", err)
	}
	if env.EncryptionVersion != Version {
		return nil, fmt.Errorf("the file is encrypted in envelope version %q; only %q is supported", env.EncryptionVersion, Version)
	}
	return &env, nil
}

// ErrNotEncryptedFile is returned when a target refuses unencrypted data.
var ErrNotEncryptedFile = errors.New("it is not encrypted")

// decryptFile returns what data holds, decrypting it with t when it is an
// encrypted file (what names the kind of file, for errors), and the
// envelope it was in (nil for a plain file).
func decryptFile(ctx context.Context, t *Target, data []byte, allowPlain bool, what, advice string) ([]byte, *fileEnvelope, error) {
	if !IsEncryptedFile(data) {
		if allowPlain || t.ReadsPlain() {
			return data, nil, nil
		}
		return nil, nil, fmt.Errorf("%w, and the %s target's method chain has no unencrypted method to read it with (%s)", ErrNotEncryptedFile, t.name, advice)
	}
	if t == nil {
		return nil, nil, fmt.Errorf("it is an encrypted %s, and no encryption is configured to decrypt it: add the encryption configuration it was written with", what)
	}
	env, err := parseFileEnvelope(data)
	if err != nil {
		return nil, nil, err
	}
	plain, _, err := t.Decrypt(ctx, &Envelope{Meta: env.Meta, Data: env.EncryptedData})
	return plain, env, err
}

// stateHeader is what a state file and the envelope of an encrypted one
// both show: the serial and the lineage.
type stateHeader struct {
	Serial  *int64 `json:"serial"`
	Lineage string `json:"lineage"`
}

// DecryptStateFile returns the state file data holds, decrypting it with
// t when it is an encrypted state file. Unencrypted data is returned as it
// is when allowPlain or t allows reading it (no target, or the unencrypted
// method in its chain). The decrypted state's serial and lineage must be
// those the envelope shows.
func DecryptStateFile(ctx context.Context, t *Target, data []byte, allowPlain bool) ([]byte, error) {
	plain, env, err := decryptFile(ctx, t, data, allowPlain, "state file", "add one as a fallback to migrate")
	if err != nil || env == nil {
		return plain, err
	}
	var inner stateHeader
	if err := json.Unmarshal(plain, &inner); err != nil {
		return nil, fmt.Errorf("the decrypted data is not a state file: %w", err)
	}
	if env.Serial != nil && inner.Serial != nil && *env.Serial != *inner.Serial {
		return nil, fmt.Errorf("the envelope shows serial %d but the encrypted state has serial %d: the file was tampered with", *env.Serial, *inner.Serial)
	}
	if env.Lineage != "" && env.Lineage != inner.Lineage {
		return nil, fmt.Errorf("the envelope shows lineage %q but the encrypted state has lineage %q: the file was tampered with", env.Lineage, inner.Lineage)
	}
	return plain, nil
}

// EncryptStateFile encrypts a state file's bytes with t's primary method
// into OpenTofu's envelope, which keeps the state's serial and lineage
// readable, returning them as they are when t is nil or writes plain data.
// DecryptStateFile reads what it writes.
func EncryptStateFile(ctx context.Context, t *Target, state []byte) ([]byte, error) {
	if t.WritesPlain() {
		return state, nil
	}
	var header stateHeader
	if err := json.Unmarshal(state, &header); err != nil {
		return nil, fmt.Errorf("the data to encrypt is not a state file: %w", err)
	}
	env, err := t.Encrypt(ctx, state)
	if err != nil {
		return nil, err
	}
	// Serial and lineage are written even when zero or empty, as OpenTofu
	// writes them; plan files have neither, hence not fileEnvelope.
	return json.Marshal(struct {
		stateHeader
		Meta              map[string][]byte `json:"meta"`
		EncryptedData     []byte            `json:"encrypted_data"`
		EncryptionVersion string            `json:"encryption_version"`
	}{header, env.Meta, env.Data, Version})
}

// EncryptPlanFile encrypts a plan file's bytes with t's primary method,
// returning them as they are when t is nil or writes plain data.
func EncryptPlanFile(ctx context.Context, t *Target, plan []byte) ([]byte, error) {
	if t.WritesPlain() {
		return plan, nil
	}
	env, err := t.Encrypt(ctx, plan)
	if err != nil {
		return nil, err
	}
	return json.Marshal(fileEnvelope{Meta: env.Meta, EncryptedData: env.Data, EncryptionVersion: Version})
}

// DecryptPlanFile returns the plan file data holds, decrypting it with t
// when it is encrypted.
func DecryptPlanFile(ctx context.Context, t *Target, data []byte) ([]byte, error) {
	plain, env, err := decryptFile(ctx, t, data, false, "plan file", "add one as a fallback, or make the plan again")
	if err != nil || env == nil {
		return plain, err
	}
	if !bytes.HasPrefix(plain, []byte("PK")) {
		return nil, errors.New("the decrypted data is not a plan file")
	}
	return plain, nil
}
