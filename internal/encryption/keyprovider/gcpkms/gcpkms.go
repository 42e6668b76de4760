package gcpkms

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"

	kms "cloud.google.com/go/kms/apiv1"
	"cloud.google.com/go/kms/apiv1/kmspb"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/mitchellh/go-homedir"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/oauth2"
	"google.golang.org/api/impersonate"
	"google.golang.org/api/option"

	"github.com/terrane/terrane/internal/encryption/keyprovider"
	"github.com/terrane/terrane/internal/version"
)

// MaxKeyLength is GCP KMS's limit on what it encrypts.
const MaxKeyLength = 1024

// extraClientOptions are added to every client's options: tests point the
// client at a stand-in server with them.
var extraClientOptions []option.ClientOption

// Type is the gcp_kms key provider type.
type Type struct{}

func (Type) Name() string { return "gcp_kms" }

func (Type) Spec() hcldec.Spec {
	return hcldec.ObjectSpec{
		"kms_encryption_key":                    &hcldec.AttrSpec{Name: "kms_encryption_key", Type: cty.String, Required: true},
		"key_length":                            &hcldec.AttrSpec{Name: "key_length", Type: cty.Number, Required: true},
		"credentials":                           &hcldec.AttrSpec{Name: "credentials", Type: cty.String},
		"access_token":                          &hcldec.AttrSpec{Name: "access_token", Type: cty.String},
		"impersonate_service_account":           &hcldec.AttrSpec{Name: "impersonate_service_account", Type: cty.String},
		"impersonate_service_account_delegates": &hcldec.AttrSpec{Name: "impersonate_service_account_delegates", Type: cty.List(cty.String)},
	}
}

// Provider is a configured gcp_kms key provider.
type Provider struct {
	keyName   string
	keyLength int
	client    func(context.Context) (*kms.KeyManagementClient, error)
}

// metadata is what gcp_kms stores beside the data: the key, encrypted.
type metadata struct {
	Ciphertext []byte `json:"ciphertext"`
}

func (Type) Build(config cty.Value) (keyprovider.Provider, error) {
	keyName := keyprovider.String(config, "kms_encryption_key")
	if keyName == "" && keyprovider.Known(config, "kms_encryption_key") {
		return nil, keyprovider.Invalid("kms_encryption_key", "kms_encryption_key must name a key, projects/P/locations/L/keyRings/R/cryptoKeys/K")
	}
	keyLength, err := keyprovider.Int(config, "key_length", 0)
	if err != nil {
		return nil, keyprovider.Invalid("key_length", "%s", err)
	}
	if keyprovider.Known(config, "key_length") && (keyLength < 1 || keyLength > MaxKeyLength) {
		return nil, keyprovider.Invalid("key_length", "key_length must be from 1 to %d bytes, not %d", MaxKeyLength, keyLength)
	}
	if !config.IsWhollyKnown() {
		return &Provider{}, nil
	}
	opts, err := clientOptions(config)
	if err != nil {
		return nil, err
	}
	return &Provider{keyName: keyName, keyLength: keyLength, client: clients.Get(config, newClient(opts))}, nil
}

// clientOptions mirrors the GCS backend's authentication: an access token,
// or credentials (a file path or the JSON itself), optionally impersonating
// a service account; the environment variables fill what is not set.
func clientOptions(config cty.Value) ([]option.ClientOption, error) {
	credentials := envFallback(keyprovider.String(config, "credentials"), "GOOGLE_CREDENTIALS")
	token := envFallback(keyprovider.String(config, "access_token"), "GOOGLE_OAUTH_ACCESS_TOKEN")
	impersonateAccount := envFallback(envFallback(keyprovider.String(config, "impersonate_service_account"), "GOOGLE_BACKEND_IMPERSONATE_SERVICE_ACCOUNT"), "GOOGLE_IMPERSONATE_SERVICE_ACCOUNT")
	var creds []option.ClientOption
	switch {
	case token != "":
		creds = append(creds, option.WithTokenSource(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token})))
	case credentials != "":
		contents, err := pathOrContents(credentials)
		if err != nil {
			return nil, keyprovider.Invalid("credentials", "reading the credentials: %s", err)
		}
		credType, err := credentialsType([]byte(contents))
		if err != nil {
			return nil, keyprovider.Invalid("credentials", "%s", err)
		}
		creds = append(creds, option.WithAuthCredentialsJSON(credType, []byte(contents)))
	}
	opts := []option.ClientOption{option.WithUserAgent("Terrane/" + version.Version)}
	if impersonateAccount == "" {
		return append(append(opts, creds...), extraClientOptions...), nil
	}
	source, err := impersonate.CredentialsTokenSource(context.Background(), impersonate.CredentialsConfig{
		TargetPrincipal: impersonateAccount,
		Scopes:          []string{"https://www.googleapis.com/auth/cloudkms"},
		Delegates:       keyprovider.Strings(config, "impersonate_service_account_delegates"),
	}, creds...)
	if err != nil {
		return nil, keyprovider.Invalid("impersonate_service_account", "%s", err)
	}
	return append(append(opts, option.WithTokenSource(source)), extraClientOptions...), nil
}

// credentialsType reads the kind of a credentials file from its "type",
// as the GCS backend accepts every kind Google's tools write.
func credentialsType(contents []byte) (option.CredentialsType, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(contents, &head); err != nil {
		return "", fmt.Errorf("the credentials are neither valid JSON nor the path of a file")
	}
	for _, known := range []option.CredentialsType{option.ServiceAccount, option.AuthorizedUser, option.ImpersonatedServiceAccount, option.ExternalAccount} {
		if string(known) == head.Type {
			return known, nil
		}
	}
	return "", fmt.Errorf("the credentials are of type %q; expected service_account, authorized_user, impersonated_service_account or external_account", head.Type)
}

// pathOrContents reads poc when it names a file, and returns it otherwise.
func pathOrContents(poc string) (string, error) {
	path, err := homedir.Expand(poc)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(path); err == nil {
		contents, err := os.ReadFile(path)
		return string(contents), err
	}
	return poc, nil
}

func envFallback(val, env string) string {
	if val != "" {
		return val
	}
	return os.Getenv(env)
}

func (p *Provider) EncryptionKey(ctx context.Context) ([]byte, []byte, error) {
	key := make([]byte, p.keyLength)
	if _, err := rand.Read(key); err != nil {
		return nil, nil, fmt.Errorf("generating a key: %w", err)
	}
	client, err := p.client(ctx)
	if err != nil {
		return nil, nil, err
	}
	out, err := client.Encrypt(ctx, &kmspb.EncryptRequest{Name: p.keyName, Plaintext: key})
	if err != nil {
		return nil, nil, fmt.Errorf("encrypting the key with %s: %w", p.keyName, err)
	}
	meta, err := json.Marshal(metadata{Ciphertext: out.GetCiphertext()})
	return key, meta, err
}

func (p *Provider) DecryptionKey(ctx context.Context, raw []byte) ([]byte, error) {
	var meta metadata
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, fmt.Errorf("the stored gcp_kms metadata is not valid: %w", err)
		}
	}
	if len(meta.Ciphertext) == 0 {
		return nil, keyprovider.ErrNoMetadata
	}
	client, err := p.client(ctx)
	if err != nil {
		return nil, err
	}
	out, err := client.Decrypt(ctx, &kmspb.DecryptRequest{Name: p.keyName, Ciphertext: meta.Ciphertext})
	if err != nil {
		return nil, fmt.Errorf("decrypting the key with %s: %w", p.keyName, err)
	}
	return out.GetPlaintext(), nil
}

// ReusableFor reports whether a key KMS decrypted with the current
// kms_encryption_key (Decrypt names it) has the current key_length.
func (p *Provider) ReusableFor(_ []byte, key []byte) bool { return len(key) == p.keyLength }

var clients keyprovider.ClientCache[*kms.KeyManagementClient]

func newClient(opts []option.ClientOption) func(context.Context) (*kms.KeyManagementClient, error) {
	return func(ctx context.Context) (*kms.KeyManagementClient, error) {
		client, err := kms.NewKeyManagementClient(ctx, opts...)
		if err != nil {
			return nil, fmt.Errorf("connecting to Google Cloud KMS: %w", err)
		}
		return client, nil
	}
}
