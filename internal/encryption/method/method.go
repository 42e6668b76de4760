package method

import (
	"context"
	"errors"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// Type describes one method type ("aes_gcm", "external", ...).
type Type interface {
	// Name is the type's name, the method block's first label.
	Name() string
	// Spec is the schema of the block's body.
	Spec() hcldec.Spec
	// Build makes a Method from the body's value. When the value's keys
	// are not known (the configuration is only being validated) Build
	// checks what it can and may return a nil Method.
	Build(config cty.Value) (Method, error)
}

// Method encrypts and decrypts payloads.
type Method interface {
	Encrypt(ctx context.Context, data []byte) ([]byte, error)
	Decrypt(ctx context.Context, data []byte) ([]byte, error)
}

// ErrNoDecryptionKey is returned by Decrypt when the method was given no
// decryption key: its key provider found none of its metadata beside the
// data, so the data was not encrypted with these keys.
var ErrNoDecryptionKey = errors.New("no decryption key is available for this data (it was not encrypted with this method's keys)")

// ErrAuthentication is returned by Decrypt when the data fails its
// integrity check: the key is wrong (a changed passphrase, another key
// provider's key) or the encrypted data was altered.
var ErrAuthentication = errors.New("the data failed authentication: the key is wrong (another passphrase or key) or the encrypted data was altered")
