package external

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/encryption/externalprogram"
	"github.com/terrane/terrane/internal/encryption/keyprovider"
)

// Magic is the header magic the program writes.
const Magic = "OpenTofu-External-Key-Provider"

// Type is the external key provider type.
type Type struct{}

func (Type) Name() string { return "external" }

func (Type) Spec() hcldec.Spec {
	return hcldec.ObjectSpec{
		"command": &hcldec.AttrSpec{Name: "command", Type: cty.List(cty.String), Required: true},
	}
}

// Provider is a configured external key provider.
type Provider struct {
	command []string
}

func (Type) Build(config cty.Value) (keyprovider.Provider, error) {
	if !keyprovider.Known(config, "command") {
		return &Provider{}, nil
	}
	command := keyprovider.Strings(config, "command")
	if len(command) == 0 || command[0] == "" {
		return nil, keyprovider.Invalid("command", "the command must name a program, as a list such as [\"./key-program\", \"argument\"]")
	}
	return &Provider{command: command}, nil
}

// metadata is what the program stores beside the data and reads back.
type metadata struct {
	ExternalData map[string]any `json:"external_data"`
}

// output is what the program writes after its header.
type output struct {
	Keys struct {
		EncryptionKey []byte `json:"encryption_key"`
		DecryptionKey []byte `json:"decryption_key,omitempty"`
	} `json:"keys"`
	Meta metadata `json:"meta"`
}

func (p *Provider) run(ctx context.Context, input any) (*output, error) {
	var out output
	if err := externalprogram.Run(ctx, p.command, Magic, input, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

func (p *Provider) EncryptionKey(ctx context.Context) ([]byte, []byte, error) {
	// null tells the program no decryption key is wanted.
	out, err := p.run(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	if len(out.Keys.EncryptionKey) == 0 {
		return nil, nil, errors.New("the program gave no encryption_key")
	}
	meta, err := json.Marshal(out.Meta)
	if err != nil {
		return nil, nil, err
	}
	return out.Keys.EncryptionKey, meta, nil
}

func (p *Provider) DecryptionKey(ctx context.Context, raw []byte) ([]byte, error) {
	if len(raw) == 0 {
		return nil, keyprovider.ErrNoMetadata
	}
	var meta metadata
	if err := json.Unmarshal(raw, &meta); err != nil {
		return nil, errors.New("the stored metadata of the external key provider is not valid JSON")
	}
	out, err := p.run(ctx, meta)
	if err != nil {
		return nil, err
	}
	if len(out.Keys.DecryptionKey) == 0 {
		return nil, errors.New("the program gave no decryption_key for the stored metadata")
	}
	return out.Keys.DecryptionKey, nil
}
