package encryption

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
)

// newFromHCL builds an Encryption from the text of an encryption block's
// body, with root variables given by vars (each declared).
func newFromHCL(t *testing.T, body string, vars map[string]cty.Value) (*Encryption, hcl.Diagnostics) {
	t.Helper()
	file, diags := hclsyntax.ParseConfig([]byte(body), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parsing the test configuration: %s", diags)
	}
	module := &config.Module{Encryption: &config.Encryption{Config: file.Body, DeclRange: hcl.Range{Filename: "main.tf"}},
		Variables: map[string]*config.Variable{}, Locals: map[string]*config.Local{}}
	for name := range vars {
		module.Variables[name] = &config.Variable{Name: name}
	}
	return New(Options{Module: module, BaseDir: t.TempDir(), Variable: func(name string) (cty.Value, hcl.Diagnostics) {
		return vars[name], nil
	}})
}

// mustNew is newFromHCL for a configuration that must be valid.
func mustNew(t *testing.T, body string, vars map[string]cty.Value) *Encryption {
	t.Helper()
	enc, diags := newFromHCL(t, body, vars)
	if diags.HasErrors() {
		t.Fatalf("configuration rejected: %s", diags)
	}
	return enc
}

// pbkdf2Config is a state and plan target using a pbkdf2 key provider with
// the given passphrase, at the lowest iteration count allowed (tests
// derive many keys).
func pbkdf2Config(name, passphrase string) string {
	return `
key_provider "pbkdf2" "` + name + `" {
  passphrase = "` + passphrase + `"
  iterations = 200000
}
method "aes_gcm" "` + name + `" {
  keys = key_provider.pbkdf2.` + name + `
}
`
}

func roundTrip(t *testing.T, target *Target, plain string) *Envelope {
	t.Helper()
	env, err := target.Encrypt(context.Background(), []byte(plain))
	if err != nil {
		t.Fatalf("encrypting: %v", err)
	}
	if strings.Contains(string(env.Data), plain) {
		t.Fatalf("the encrypted data holds the plain text")
	}
	got, index, err := target.Decrypt(context.Background(), env)
	if err != nil || string(got) != plain || index != 0 {
		t.Fatalf("decrypting: %q, method %d, %v", got, index, err)
	}
	return env
}
