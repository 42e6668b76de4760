package pbkdf2

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"hash"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/pbkdf2"

	"github.com/terrane/terrane/internal/encryption/keyprovider"
)

// Limits and defaults, as OpenTofu documents them.
const (
	MinimumPassphraseLength = 16
	MinimumIterations       = 200000
	DefaultIterations       = 600000
	DefaultKeyLength        = 32
	DefaultSaltLength       = 32
	DefaultHashFunction     = "sha512"
)

var hashFunctions = map[string]func() hash.Hash{
	"sha256": sha256.New,
	"sha512": sha512.New,
}

// Type is the pbkdf2 key provider type.
type Type struct{}

func (Type) Name() string { return "pbkdf2" }

func (Type) Spec() hcldec.Spec {
	return hcldec.ObjectSpec{
		"passphrase":    &hcldec.AttrSpec{Name: "passphrase", Type: cty.String},
		"chain":         &hcldec.AttrSpec{Name: "chain", Type: cty.DynamicPseudoType},
		"key_length":    &hcldec.AttrSpec{Name: "key_length", Type: cty.Number},
		"iterations":    &hcldec.AttrSpec{Name: "iterations", Type: cty.Number},
		"salt_length":   &hcldec.AttrSpec{Name: "salt_length", Type: cty.Number},
		"hash_function": &hcldec.AttrSpec{Name: "hash_function", Type: cty.String},
	}
}

// Metadata is what pbkdf2 stores beside the data: everything the
// derivation needs except the passphrase.
type Metadata struct {
	Salt         []byte `json:"salt"`
	Iterations   int    `json:"iterations"`
	HashFunction string `json:"hash_function"`
	KeyLength    int    `json:"key_length"`
}

// Provider is a configured pbkdf2 key provider.
type Provider struct {
	passphrase   []byte
	chain        *keyprovider.Output
	keyLength    int
	iterations   int
	saltLength   int
	hashFunction string
}

func (Type) Build(config cty.Value) (keyprovider.Provider, error) {
	p := &Provider{passphrase: []byte(keyprovider.String(config, "passphrase")), hashFunction: DefaultHashFunction}
	var err error
	if p.keyLength, err = keyprovider.Int(config, "key_length", DefaultKeyLength); err != nil {
		return nil, keyprovider.Invalid("key_length", "%s", err)
	}
	if p.iterations, err = keyprovider.Int(config, "iterations", DefaultIterations); err != nil {
		return nil, keyprovider.Invalid("iterations", "%s", err)
	}
	if p.saltLength, err = keyprovider.Int(config, "salt_length", DefaultSaltLength); err != nil {
		return nil, keyprovider.Invalid("salt_length", "%s", err)
	}
	if name := keyprovider.String(config, "hash_function"); name != "" {
		p.hashFunction = name
	}
	if err := p.checkSource(config); err != nil {
		return nil, err
	}
	switch {
	case p.keyLength <= 0:
		return nil, keyprovider.Invalid("key_length", "the key length must be larger than zero")
	case p.iterations < MinimumIterations:
		return nil, keyprovider.Invalid("iterations", "%d iterations is dangerously low; use at least %d (the default is %d)", p.iterations, MinimumIterations, DefaultIterations)
	case p.saltLength <= 0:
		return nil, keyprovider.Invalid("salt_length", "the salt length must be larger than zero")
	case hashFunctions[p.hashFunction] == nil:
		return nil, keyprovider.Invalid("hash_function", "%q is not a supported hash function; use \"sha256\" or \"sha512\"", p.hashFunction)
	}
	return p, nil
}

// checkSource reads the passphrase or the chained keys: exactly one is
// required.
func (p *Provider) checkSource(config cty.Value) error {
	chain := keyprovider.Attr(config, "chain")
	hasChain := !chain.IsNull()
	switch {
	case len(p.passphrase) == 0 && !hasChain:
		return keyprovider.Invalid("passphrase", "a passphrase (or a chain to another key provider) is required")
	case len(p.passphrase) > 0 && hasChain:
		return keyprovider.Invalid("chain", "passphrase and chain are mutually exclusive; give one")
	case len(p.passphrase) > 0 && len(p.passphrase) < MinimumPassphraseLength:
		return keyprovider.Invalid("passphrase", "the passphrase is too short: use at least %d characters", MinimumPassphraseLength)
	case !hasChain:
		return nil
	}
	out, known, err := keyprovider.DecodeOutput(chain)
	if err != nil {
		return keyprovider.Invalid("chain", "%s", err)
	}
	if known {
		p.chain = &out
	}
	return nil
}

// secret is the passphrase this provider derives from: its own, or the
// chained provider's encryption or decryption key.
func (p *Provider) secret(decrypting bool) ([]byte, error) {
	if p.chain == nil {
		return p.passphrase, nil
	}
	key, what := p.chain.EncryptionKey, "encryption"
	if decrypting {
		key, what = p.chain.DecryptionKey, "decryption"
	}
	if len(key) == 0 {
		return nil, fmt.Errorf("the chained key provider gave no %s key", what)
	}
	if len(key) < MinimumPassphraseLength {
		return nil, fmt.Errorf("the chained key provider's %s key is too short (%d bytes; at least %d are needed)", what, len(key), MinimumPassphraseLength)
	}
	return key, nil
}

func (p *Provider) EncryptionKey(context.Context) ([]byte, []byte, error) {
	secret, err := p.secret(false)
	if err != nil {
		return nil, nil, err
	}
	meta := Metadata{Salt: make([]byte, p.saltLength), Iterations: p.iterations, HashFunction: p.hashFunction, KeyLength: p.keyLength}
	if _, err := rand.Read(meta.Salt); err != nil {
		return nil, nil, fmt.Errorf("reading %d random bytes for the salt: %w", p.saltLength, err)
	}
	encoded, err := json.Marshal(meta)
	if err != nil {
		return nil, nil, err
	}
	return derive(secret, meta), encoded, nil
}

func (p *Provider) DecryptionKey(_ context.Context, raw []byte) ([]byte, error) {
	meta, err := parseMetadata(raw)
	if err != nil {
		return nil, err
	}
	secret, err := p.secret(true)
	if err != nil {
		return nil, err
	}
	return derive(secret, meta), nil
}

// ReusableFor reports whether meta was made with this provider's current
// iterations, hash, key and salt lengths: then deriving with its salt is
// as strong as deriving with a new one.
func (p *Provider) ReusableFor(raw, _ []byte) bool {
	meta, err := parseMetadata(raw)
	return err == nil && meta.Iterations == p.iterations && meta.HashFunction == p.hashFunction &&
		meta.KeyLength == p.keyLength && len(meta.Salt) == p.saltLength
}

func parseMetadata(raw []byte) (Metadata, error) {
	var meta Metadata
	if len(raw) == 0 {
		return meta, keyprovider.ErrNoMetadata
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		return meta, fmt.Errorf("the stored pbkdf2 metadata is not valid: %w", err)
	}
	switch {
	case len(meta.Salt) == 0 || meta.Iterations == 0 || meta.HashFunction == "" || meta.KeyLength == 0:
		return meta, keyprovider.ErrNoMetadata
	case meta.Iterations < 0 || meta.KeyLength < 0:
		return meta, fmt.Errorf("the stored pbkdf2 metadata is not valid: %d iterations, key length %d", meta.Iterations, meta.KeyLength)
	case hashFunctions[meta.HashFunction] == nil:
		return meta, fmt.Errorf("the stored pbkdf2 metadata names an unknown hash function %q", meta.HashFunction)
	}
	return meta, nil
}

func derive(secret []byte, meta Metadata) []byte {
	return pbkdf2.Key(secret, meta.Salt, meta.Iterations, meta.KeyLength, hashFunctions[meta.HashFunction])
}
