package openbao

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/encryption/keyprovider"
)

// Defaults, as OpenTofu documents them.
const (
	DefaultAddress           = "https://127.0.0.1:8200"
	DefaultTransitEnginePath = "/transit"
	DefaultKeyLength         = 32
)

// Type is the openbao key provider type.
type Type struct{}

func (Type) Name() string { return "openbao" }

func (Type) Spec() hcldec.Spec {
	return hcldec.ObjectSpec{
		"key_name":            &hcldec.AttrSpec{Name: "key_name", Type: cty.String, Required: true},
		"token":               &hcldec.AttrSpec{Name: "token", Type: cty.String},
		"address":             &hcldec.AttrSpec{Name: "address", Type: cty.String},
		"transit_engine_path": &hcldec.AttrSpec{Name: "transit_engine_path", Type: cty.String},
		"key_length":          &hcldec.AttrSpec{Name: "key_length", Type: cty.Number},
	}
}

// Provider is a configured openbao key provider.
type Provider struct {
	client      *client
	keyName     string
	keyLength   int
	transitPath string
}

// metadata is what openbao stores beside the data: the data key wrapped by
// Transit ("vault:v1:..."), as bytes.
type metadata struct {
	Ciphertext []byte `json:"ciphertext"`
}

func (Type) Build(config cty.Value) (keyprovider.Provider, error) {
	keyName := keyprovider.String(config, "key_name")
	if keyName == "" && keyprovider.Known(config, "key_name") {
		return nil, keyprovider.Invalid("key_name", "no key name found")
	}
	keyLength, err := keyprovider.Int(config, "key_length", DefaultKeyLength)
	if err != nil {
		return nil, keyprovider.Invalid("key_length", "%s", err)
	}
	if keyLength != 16 && keyLength != 32 && keyLength != 64 {
		return nil, keyprovider.Invalid("key_length", "data key length should be one of 16, 32 or 64 bytes: got %d", keyLength)
	}
	transitPath := keyprovider.String(config, "transit_engine_path")
	if transitPath == "" {
		transitPath = DefaultTransitEnginePath
	}
	address := keyprovider.String(config, "address")
	if address == "" {
		address = os.Getenv("BAO_ADDR")
	}
	if address == "" {
		address = DefaultAddress
	}
	token := keyprovider.String(config, "token")
	if token == "" {
		token = os.Getenv("BAO_TOKEN")
	}
	c, err := newClient(address, token)
	if err != nil {
		return nil, keyprovider.Invalid("address", "%s", err)
	}
	return &Provider{client: c, keyName: keyName, keyLength: keyLength, transitPath: transitPath}, nil
}

func (p *Provider) EncryptionKey(ctx context.Context) ([]byte, []byte, error) {
	data, err := p.client.write(ctx, path.Join(p.transitPath, "datakey/plaintext", p.keyName), map[string]any{"bits": p.keyLength * 8})
	if err != nil {
		return nil, nil, fmt.Errorf("generating a data key with transit key %q: %w", p.keyName, err)
	}
	key, err := plaintextOf(data)
	if err != nil {
		return nil, nil, err
	}
	wrapped, ok := data["ciphertext"].(string)
	if !ok || wrapped == "" {
		return nil, nil, fmt.Errorf("OpenBao's answer has no ciphertext (an incompatible OpenBao version?)")
	}
	meta, err := json.Marshal(metadata{Ciphertext: []byte(wrapped)})
	return key, meta, err
}

func (p *Provider) DecryptionKey(ctx context.Context, raw []byte) ([]byte, error) {
	var meta metadata
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, fmt.Errorf("the stored openbao metadata is not valid: %w", err)
		}
	}
	if len(meta.Ciphertext) == 0 {
		return nil, keyprovider.ErrNoMetadata
	}
	data, err := p.client.write(ctx, path.Join(p.transitPath, "decrypt", p.keyName), map[string]any{"ciphertext": string(meta.Ciphertext)})
	if err != nil {
		return nil, fmt.Errorf("decrypting the data key with transit key %q: %w", p.keyName, err)
	}
	return plaintextOf(data)
}

// ReusableFor reports whether a data key Transit decrypted with the current
// key_name has the current key_length.
func (p *Provider) ReusableFor(_ []byte, key []byte) bool { return len(key) == p.keyLength }
