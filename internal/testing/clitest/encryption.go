package clitest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/json"
	"hash"
	"testing"

	"golang.org/x/crypto/pbkdf2"
)

// The secrets the encryption tests look for on disk: a sensitive
// attribute, an ordinary attribute and a sensitive output all hold them.
const (
	EncSecret      = "s3cr3t-Zq81-attribute-value"
	EncDescription = "plain-Wx42-description-value"
	EncPassphrase  = "correct horse battery staple"
)

// PBKDF2Encryption is an encryption block with one pbkdf2 key provider
// and state and plan targets; extra goes inside it.
func PBKDF2Encryption(name, extra string) string {
	return `
  encryption {
    key_provider "pbkdf2" "` + name + `" {
      passphrase = var.passphrase
      iterations = 200000
    }
    method "aes_gcm" "` + name + `" {
      keys = key_provider.pbkdf2.` + name + `
    }
` + extra + `
  }
`
}

// EncryptedTargets enforces the method aes_gcm.main on state and plans.
const EncryptedTargets = `
    state {
      method   = method.aes_gcm.main
      enforced = true
    }
    plan {
      method   = method.aes_gcm.main
      enforced = true
    }
`

// AssertOpenTofuStateEnvelope checks that data is an encrypted state file
// as OpenTofu writes one: serial and lineage readable, the key provider's
// metadata under metaKey, encryption_version v0.
func AssertOpenTofuStateEnvelope(t testing.TB, data []byte, metaKey string) {
	t.Helper()
	var envelope map[string]json.RawMessage
	if err := json.Unmarshal(data, &envelope); err != nil {
		t.Fatalf("not an encrypted state file: %v\n%.200s", err, data)
	}
	for _, key := range []string{"serial", "lineage", "meta", "encrypted_data", "encryption_version"} {
		if _, ok := envelope[key]; !ok {
			t.Errorf("the encrypted state file has no %q: %.200s", key, data)
		}
	}
	if string(envelope["encryption_version"]) != `"v0"` || !bytes.Contains(envelope["meta"], []byte(`"`+metaKey+`"`)) {
		t.Errorf("the encrypted state file is not OpenTofu's envelope for %s: %.200s", metaKey, data)
	}
}

// OpenTofuDecryptState opens an encrypted state file sealed with one
// pbkdf2 key provider and aes_gcm, by the format OpenTofu documents rather
// than by Terrane's encryption package: the key is PBKDF2 of passphrase
// with the salt, iterations, hash and length the provider's metadata
// gives, and encrypted_data is the GCM nonce followed by the ciphertext.
// The envelope's serial and lineage must be the state's.
func OpenTofuDecryptState(t testing.TB, data []byte, passphrase string) []byte {
	t.Helper()
	var envelope struct {
		Serial        int64             `json:"serial"`
		Lineage       string            `json:"lineage"`
		Meta          map[string][]byte `json:"meta"`
		EncryptedData []byte            `json:"encrypted_data"`
	}
	if err := json.Unmarshal(data, &envelope); err != nil || len(envelope.Meta) != 1 {
		t.Fatalf("not an envelope with one key provider's metadata: %v\n%.200s", err, data)
	}
	var meta struct {
		Salt         []byte `json:"salt"`
		Iterations   int    `json:"iterations"`
		HashFunction string `json:"hash_function"`
		KeyLength    int    `json:"key_length"`
	}
	for _, m := range envelope.Meta {
		if err := json.Unmarshal(m, &meta); err != nil {
			t.Fatalf("pbkdf2 metadata: %v", err)
		}
	}
	hashes := map[string]func() hash.Hash{"sha256": sha256.New, "sha512": sha512.New}
	if hashes[meta.HashFunction] == nil || len(meta.Salt) == 0 || meta.Iterations == 0 {
		t.Fatalf("pbkdf2 metadata: %+v", meta)
	}
	block, err := aes.NewCipher(pbkdf2.Key([]byte(passphrase), meta.Salt, meta.Iterations, meta.KeyLength, hashes[meta.HashFunction]))
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil || len(envelope.EncryptedData) < gcm.NonceSize() {
		t.Fatalf("encrypted_data: %d bytes, %v", len(envelope.EncryptedData), err)
	}
	nonce, sealed := envelope.EncryptedData[:gcm.NonceSize()], envelope.EncryptedData[gcm.NonceSize():]
	plain, err := gcm.Open(nil, nonce, sealed, nil)
	if err != nil {
		t.Fatalf("decrypting: %v", err)
	}
	var header struct {
		Serial  int64  `json:"serial"`
		Lineage string `json:"lineage"`
	}
	if err := json.Unmarshal(plain, &header); err != nil || header.Serial != envelope.Serial || header.Lineage != envelope.Lineage {
		t.Fatalf("the envelope shows serial %d lineage %q, the state %+v (%v)", envelope.Serial, envelope.Lineage, header, err)
	}
	return plain
}
