package aesgcm

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/terrane/terrane/internal/encryption/keyprovider"
	"github.com/terrane/terrane/internal/encryption/method"
)

// Type is the aes_gcm method type.
type Type struct{}

func (Type) Name() string { return "aes_gcm" }

func (Type) Spec() hcldec.Spec {
	return hcldec.ObjectSpec{
		"keys": &hcldec.AttrSpec{Name: "keys", Type: cty.DynamicPseudoType, Required: true},
		"aad":  &hcldec.AttrSpec{Name: "aad", Type: cty.List(cty.Number)},
	}
}

// Method is a configured aes_gcm method.
type Method struct {
	encryptionKey []byte
	decryptionKey []byte
	aad           []byte
}

func (Type) Build(config cty.Value) (method.Method, error) {
	m := &Method{}
	if aad := keyprovider.Attr(config, "aad"); !aad.IsNull() && aad.IsWhollyKnown() {
		if err := gocty.FromCtyValue(aad, &m.aad); err != nil {
			return nil, keyprovider.Invalid("aad", "expected a list of byte values (0 to 255): %s", err)
		}
	}
	keys, known, err := keyprovider.DecodeOutput(keyprovider.Attr(config, "keys"))
	if err != nil {
		return nil, keyprovider.Invalid("keys", "%s", err)
	}
	if !known {
		return nil, nil
	}
	for _, key := range []struct {
		what string
		key  []byte
	}{{"encryption", keys.EncryptionKey}, {"decryption", keys.DecryptionKey}} {
		if len(key.key) > 0 && !validKeyLength(len(key.key)) {
			return nil, keyprovider.Invalid("keys", "AES-GCM needs a 16, 24 or 32-byte key; the %s key has %d bytes (set the key provider's key_length)", key.what, len(key.key))
		}
	}
	m.encryptionKey, m.decryptionKey = keys.EncryptionKey, keys.DecryptionKey
	return m, nil
}

func validKeyLength(n int) bool { return n == 16 || n == 24 || n == 32 }

func (m *Method) Encrypt(_ context.Context, data []byte) ([]byte, error) {
	if len(m.encryptionKey) == 0 {
		return nil, errors.New("no encryption key is available")
	}
	gcm, err := newGCM(m.encryptionKey)
	if err != nil {
		return nil, err
	}
	out := make([]byte, gcm.NonceSize(), gcm.NonceSize()+len(data)+gcm.Overhead())
	if _, err := rand.Read(out); err != nil {
		return nil, fmt.Errorf("reading a random nonce: %w", err)
	}
	return gcm.Seal(out, out, data, m.aad), nil
}

func (m *Method) Decrypt(_ context.Context, data []byte) ([]byte, error) {
	if len(m.decryptionKey) == 0 {
		return nil, method.ErrNoDecryptionKey
	}
	gcm, err := newGCM(m.decryptionKey)
	if err != nil {
		return nil, err
	}
	if len(data) < gcm.NonceSize()+gcm.Overhead() {
		return nil, fmt.Errorf("the encrypted data is %d bytes, too short to hold a nonce and an authentication tag: it is damaged", len(data))
	}
	nonce, sealed := data[:gcm.NonceSize()], data[gcm.NonceSize():]
	plain, err := gcm.Open(nil, nonce, sealed, m.aad)
	if err != nil {
		return nil, method.ErrAuthentication
	}
	return plain, nil
}

func newGCM(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("AES: %w", err)
	}
	return cipher.NewGCM(block)
}
