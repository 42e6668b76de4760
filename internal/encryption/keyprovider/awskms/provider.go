package awskms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"
	awsbase "github.com/hashicorp/aws-sdk-go-base/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/encryption/keyprovider"
)

// Type is the aws_kms key provider type.
type Type struct{}

func (Type) Name() string { return "aws_kms" }

// Provider is a configured aws_kms key provider.
type Provider struct {
	keyID   string
	keySpec types.DataKeySpec
	client  func(context.Context) (*kms.Client, error)
}

// metadata is what aws_kms stores beside the data: the data key, encrypted
// by KMS.
type metadata struct {
	CiphertextBlob []byte `json:"ciphertext_blob"`
}

func (Type) Build(config cty.Value) (keyprovider.Provider, error) {
	if err := validate(config); err != nil {
		return nil, err
	}
	if !config.IsWhollyKnown() {
		return &Provider{}, nil
	}
	base, err := baseConfig(config)
	if err != nil {
		return nil, err
	}
	return &Provider{keyID: keyprovider.String(config, "kms_key_id"), keySpec: types.DataKeySpec(keyprovider.String(config, "key_spec")),
		client: clients.Get(config, newClient(base))}, nil
}

func (p *Provider) EncryptionKey(ctx context.Context) ([]byte, []byte, error) {
	client, err := p.client(ctx)
	if err != nil {
		return nil, nil, err
	}
	out, err := client.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{KeyId: aws.String(p.keyID), KeySpec: p.keySpec})
	if err != nil {
		return nil, nil, fmt.Errorf("generating a data key with KMS key %s: %w", p.keyID, err)
	}
	meta, err := json.Marshal(metadata{CiphertextBlob: out.CiphertextBlob})
	return out.Plaintext, meta, err
}

func (p *Provider) DecryptionKey(ctx context.Context, raw []byte) ([]byte, error) {
	var meta metadata
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, fmt.Errorf("the stored aws_kms metadata is not valid: %w", err)
		}
	}
	if len(meta.CiphertextBlob) == 0 {
		return nil, keyprovider.ErrNoMetadata
	}
	client, err := p.client(ctx)
	if err != nil {
		return nil, err
	}
	out, err := client.Decrypt(ctx, &kms.DecryptInput{KeyId: aws.String(p.keyID), CiphertextBlob: meta.CiphertextBlob})
	if err != nil {
		return nil, fmt.Errorf("decrypting the data key with KMS key %s: %w", p.keyID, err)
	}
	return out.Plaintext, nil
}

// ReusableFor reports whether a data key KMS decrypted under the current
// kms_key_id (Decrypt checks it) has the current key_spec's length.
func (p *Provider) ReusableFor(_ []byte, key []byte) bool {
	want := map[types.DataKeySpec]int{types.DataKeySpecAes256: 32, types.DataKeySpecAes128: 16}[p.keySpec]
	return want != 0 && len(key) == want
}

var clients keyprovider.ClientCache[*kms.Client]

// newClient configures AWS as the S3 backend does, then a KMS client.
func newClient(base *awsbase.Config) func(context.Context) (*kms.Client, error) {
	return func(ctx context.Context) (*kms.Client, error) {
		_, awsConfig, diags := awsbase.GetAwsConfig(ctx, base)
		if diags.HasError() {
			var msgs []string
			for _, d := range diags.Errors() {
				msgs = append(msgs, strings.TrimSpace(d.Summary()+": "+d.Detail()))
			}
			return nil, errors.New("configuring AWS: " + strings.Join(msgs, "; "))
		}
		return kms.NewFromConfig(awsConfig), nil
	}
}
