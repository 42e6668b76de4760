package external

import (
	"context"
	"errors"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/encryption/externalprogram"
	"github.com/terrane/terrane/internal/encryption/keyprovider"
	"github.com/terrane/terrane/internal/encryption/method"
)

// Magic is the header magic the programs write.
const Magic = "OpenTofu-External-Encryption-Method"

// Type is the external method type.
type Type struct{}

func (Type) Name() string { return "external" }

func (Type) Spec() hcldec.Spec {
	return hcldec.ObjectSpec{
		"keys":            &hcldec.AttrSpec{Name: "keys", Type: cty.DynamicPseudoType},
		"encrypt_command": &hcldec.AttrSpec{Name: "encrypt_command", Type: cty.List(cty.String), Required: true},
		"decrypt_command": &hcldec.AttrSpec{Name: "decrypt_command", Type: cty.List(cty.String), Required: true},
	}
}

// Method is a configured external method.
type Method struct {
	keys           *keyprovider.Output
	encryptCommand []string
	decryptCommand []string
}

func (Type) Build(config cty.Value) (method.Method, error) {
	m := &Method{}
	for _, command := range []struct {
		name string
		into *[]string
	}{{"encrypt_command", &m.encryptCommand}, {"decrypt_command", &m.decryptCommand}} {
		if !keyprovider.Known(config, command.name) {
			continue
		}
		*command.into = keyprovider.Strings(config, command.name)
		if len(*command.into) == 0 || (*command.into)[0] == "" {
			return nil, keyprovider.Invalid(command.name, "the command must name a program, as a list such as [\"./encrypt\", \"argument\"]")
		}
	}
	if keys := keyprovider.Attr(config, "keys"); !keys.IsNull() {
		out, known, err := keyprovider.DecodeOutput(keys)
		if err != nil {
			return nil, keyprovider.Invalid("keys", "%s", err)
		}
		if !known {
			return nil, nil
		}
		m.keys = &out
	}
	return m, nil
}

// input is what a program reads.
type input struct {
	Key     []byte `json:"key,omitempty"`
	Payload []byte `json:"payload"`
}

// output is what a program writes after its header.
type output struct {
	Payload []byte `json:"payload"`
}

func (m *Method) Encrypt(ctx context.Context, data []byte) ([]byte, error) {
	var key []byte
	if m.keys != nil {
		if key = m.keys.EncryptionKey; len(key) == 0 {
			return nil, errors.New("the method's keys hold no encryption key")
		}
	}
	return m.run(ctx, m.encryptCommand, input{Key: key, Payload: data})
}

func (m *Method) Decrypt(ctx context.Context, data []byte) ([]byte, error) {
	var key []byte
	if m.keys != nil {
		if key = m.keys.DecryptionKey; len(key) == 0 {
			return nil, method.ErrNoDecryptionKey
		}
	}
	if len(data) == 0 {
		return nil, errors.New("there is no encrypted data to decrypt")
	}
	return m.run(ctx, m.decryptCommand, input{Key: key, Payload: data})
}

func (m *Method) run(ctx context.Context, command []string, in input) ([]byte, error) {
	var out output
	if err := externalprogram.Run(ctx, command, Magic, in, &out); err != nil {
		return nil, err
	}
	return out.Payload, nil
}
