package encryption

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/encryption/method"
)

const secret = "correct-horse-battery-staple"

func TestPBKDF2AESGCMRoundTrip(t *testing.T) {
	enc := mustNew(t, pbkdf2Config("main", "a passphrase of some length")+`state { method = method.aes_gcm.main }`, nil)
	env := roundTrip(t, enc.State(), secret)
	if env.Method != "method.aes_gcm.main" || len(env.Meta["key_provider.pbkdf2.main"]) == 0 {
		t.Errorf("envelope: method %q, meta %v", env.Method, env.Meta)
	}
	if enc.Plan() != nil {
		t.Errorf("the plan target is configured though no plan block is")
	}
}

func TestWrongPassphraseNamesTheKeyProvider(t *testing.T) {
	writer := mustNew(t, pbkdf2Config("main", "the first passphrase")+`state { method = method.aes_gcm.main }`, nil)
	env := roundTrip(t, writer.State(), secret)
	reader := mustNew(t, pbkdf2Config("main", "another passphrase entirely")+`state { method = method.aes_gcm.main }`, nil)
	_, _, err := reader.State().Decrypt(context.Background(), env)
	var decryptErr *DecryptError
	if !errors.As(err, &decryptErr) {
		t.Fatalf("decrypting with the wrong passphrase: %v", err)
	}
	if !errors.Is(decryptErr.Attempts[0].Err, method.ErrAuthentication) {
		t.Errorf("the failure is not an authentication failure: %v", decryptErr.Attempts[0].Err)
	}
	for _, want := range []string{"method.aes_gcm.main", "key_provider.pbkdf2.main", "wrong key"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

func TestTamperedCiphertextIsRefused(t *testing.T) {
	enc := mustNew(t, pbkdf2Config("main", "a passphrase of some length")+`state { method = method.aes_gcm.main }`, nil)
	env := roundTrip(t, enc.State(), secret)
	env.Data[len(env.Data)-1] ^= 1
	if plain, _, err := enc.State().Decrypt(context.Background(), env); err == nil || plain != nil {
		t.Fatalf("tampered data decrypted: %q, %v", plain, err)
	}
}

func TestFallbackReadsOldKeysAndWritesNew(t *testing.T) {
	old := mustNew(t, pbkdf2Config("old", "the old passphrase!")+`state { method = method.aes_gcm.old }`, nil)
	oldEnv := roundTrip(t, old.State(), secret)
	rotated := mustNew(t, pbkdf2Config("old", "the old passphrase!")+pbkdf2Config("new", "the new passphrase!")+`
state {
  method = method.aes_gcm.new
  fallback { method = method.aes_gcm.old }
}`, nil)
	plain, index, err := rotated.State().Decrypt(context.Background(), oldEnv)
	if err != nil || string(plain) != secret || index != 1 {
		t.Fatalf("reading old data: %q, method %d, %v", plain, index, err)
	}
	newEnv := roundTrip(t, rotated.State(), secret)
	if newEnv.Method != "method.aes_gcm.new" || newEnv.Meta["key_provider.pbkdf2.new"] == nil {
		t.Errorf("new data was not written with the new method: %+v", newEnv)
	}
	if _, _, err := old.State().Decrypt(context.Background(), newEnv); err == nil {
		t.Errorf("the old configuration reads data written with the new passphrase")
	}
}

func TestUnencryptedMigrationBothWays(t *testing.T) {
	to := mustNew(t, pbkdf2Config("k", "a passphrase of some length")+`
method "unencrypted" "migrate" {}
state {
  method = method.aes_gcm.k
  fallback { method = method.unencrypted.migrate }
}`, nil)
	if !to.State().ReadsPlain() || to.State().WritesPlain() {
		t.Errorf("migrating to encryption: reads plain %v, writes plain %v", to.State().ReadsPlain(), to.State().WritesPlain())
	}
	from := mustNew(t, pbkdf2Config("k", "a passphrase of some length")+`
method "unencrypted" "migrate" {}
state {
  method = method.unencrypted.migrate
  fallback { method = method.aes_gcm.k }
}`, nil)
	if !from.State().WritesPlain() {
		t.Errorf("migrating away from encryption still writes encrypted data")
	}
	for name, target := range map[string]*Target{"no state target": nil, "migrating away": from.State()} {
		if out, err := EncryptStateFile(context.Background(), target, []byte(plainStateFile)); err != nil || string(out) != plainStateFile {
			t.Errorf("%s: the state file is not written as it is: %v\n%s", name, err, out)
		}
	}
	enforcedOnly := mustNew(t, pbkdf2Config("k", "a passphrase of some length")+`state { method = method.aes_gcm.k }`, nil)
	if enforcedOnly.State().ReadsPlain() {
		t.Errorf("a target without the unencrypted method reads plain data")
	}
}

func TestConfigurationErrors(t *testing.T) {
	tests := map[string]struct {
		body string
		want string
	}{
		"short passphrase": {`key_provider "pbkdf2" "k" { passphrase = "short" }`, "too short"},
		"low iterations": {`key_provider "pbkdf2" "k" {
  passphrase = "a passphrase of some length"
  iterations = 1000
}`, "dangerously low"},
		"unknown key provider type":   {`key_provider "vault_magic" "k" {}`, `no key provider type "vault_magic"`},
		"unimplemented OpenTofu type": {`key_provider "azure_vault" "k" {}`, `does not implement OpenTofu's "azure_vault"`},
		"unknown argument":            {`key_provider "pbkdf2" "k" { pass = "x" }`, `Unsupported argument: An argument named "pass"`},
		"unknown method type":         {`method "chacha20" "m" {}`, `no method type "chacha20"`},
		"unknown method argument": {pbkdf2Config("k", "a passphrase of some length") + `
method "aes_gcm" "n" {
  keys   = key_provider.pbkdf2.k
  nonce  = "x"
}`, `An argument named "nonce"`},
		"unknown block":           {`vault {}`, `Unsupported block type: Blocks of type "vault"`},
		"unknown target argument": {`state { methods = [] }`, `An argument named "methods"`},
		"enforced in a fallback":  {"state {\n  fallback { enforced = true }\n}", `An argument named "enforced"`},
		"unknown remote block":    {"remote_state_data_sources {\n  remote \"x\" {}\n}", `Blocks of type "remote"`},
		"unknown remote argument": {"remote_state_data_sources {\n  default { enforced = true }\n}", `An argument named "enforced"`},
		"unnamed remote source":   {"remote_state_data_sources {\n  remote_state_data_source {}\n}", `Missing name for remote_state_data_source`},
		"undeclared key provider": {`method "aes_gcm" "m" { keys = key_provider.pbkdf2.nope }`, "Reference to undeclared key provider"},
		"undeclared method":       {`state { method = method.aes_gcm.nope }`, "Reference to undeclared encryption method"},
		"enforced without method": {`state { enforced = true }`, "is enforced, so it needs a method"},
		"enforced with unencrypted": {pbkdf2Config("k", "a passphrase of some length") + `
method "unencrypted" "u" {}
state {
  method = method.aes_gcm.k
  enforced = true
  fallback { method = method.unencrypted.u }
}`, "Unencrypted method is forbidden"},
		"state reference": {`key_provider "pbkdf2" "k" { passphrase = aws_instance.x.id }`, "Invalid reference in the encryption configuration"},
		"cycle": {`
key_provider "pbkdf2" "a" { chain = key_provider.pbkdf2.b }
key_provider "pbkdf2" "b" { chain = key_provider.pbkdf2.a }`, "Cycle between key providers"},
		"aes key length": {`
key_provider "pbkdf2" "k" {
  passphrase = "a passphrase of some length"
  key_length = 20
}
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.m }`, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, diags := newFromHCL(t, tc.body, nil)
			if tc.want == "" {
				return
			}
			if !diags.HasErrors() || !strings.Contains(allDiags(diags), tc.want) {
				t.Fatalf("want an error containing %q, got: %v", tc.want, diags)
			}
		})
	}
}

func allDiags(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}

func TestAESGCMKeyLengthIsCheckedWhenEncrypting(t *testing.T) {
	enc := mustNew(t, `
key_provider "pbkdf2" "k" {
  passphrase = "a passphrase of some length"
  key_length = 20
  iterations = 200000
}
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.m }`, nil)
	_, err := enc.State().Encrypt(context.Background(), []byte(secret))
	if err == nil || !strings.Contains(err.Error(), "16, 24 or 32-byte key") {
		t.Fatalf("a 20-byte key was accepted: %v", err)
	}
}

func TestVariablesLocalsAndEnvironmentMerge(t *testing.T) {
	body := `
key_provider "pbkdf2" "k" {
  passphrase = var.passphrase
  iterations = 200000
}
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
`
	enc := mustNew(t, body, map[string]cty.Value{"passphrase": cty.StringVal("a passphrase from a variable")})
	if enc.State() != nil {
		t.Fatalf("a state target exists without a state block")
	}
	env, diags := ParseEnv(`state { method = method.aes_gcm.m }`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	merged := Merge(enc.cfg, env)
	if merged.State == nil || len(merged.KeyProviders) != 1 {
		t.Fatalf("merge lost the environment's state block or the code's key provider: %+v", merged)
	}
	jsonEnv, diags := ParseEnv(`{"state": {"method": "method.aes_gcm.m", "enforced": true}}`)
	if diags.HasErrors() || jsonEnv.State == nil || !jsonEnv.State.Enforced {
		t.Fatalf("TF_ENCRYPTION in JSON: %+v, %v", jsonEnv, diags)
	}
}

func TestEncryptedMetadataAlias(t *testing.T) {
	enc := mustNew(t, `
key_provider "pbkdf2" "renamed" {
  passphrase = "a passphrase of some length"
  iterations = 200000
  encrypted_metadata_alias = "certificates"
}
method "aes_gcm" "m" { keys = key_provider.pbkdf2.renamed }
state { method = method.aes_gcm.m }`, nil)
	env := roundTrip(t, enc.State(), secret)
	if env.Meta["certificates"] == nil || len(env.Meta) != 1 {
		t.Fatalf("metadata is not stored under the alias: %v", env.Meta)
	}
}

func TestReuseDerivesOnce(t *testing.T) {
	cfg := pbkdf2Config("k", "a passphrase of some length") + `state { method = method.aes_gcm.k }`
	first := mustNew(t, cfg, nil)
	env := roundTrip(t, first.State(), secret)
	// A later run reads what the first wrote, then writes: it writes under
	// the same metadata instead of deriving a key from a new salt.
	second := mustNew(t, cfg, nil)
	if _, _, err := second.State().Decrypt(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	again, err := second.State().Encrypt(context.Background(), []byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	if string(again.Meta["key_provider.pbkdf2.k"]) != string(env.Meta["key_provider.pbkdf2.k"]) {
		t.Errorf("the second run derived a new key instead of reusing the one it read with")
	}
	// A changed iteration count is a new derivation.
	stronger := mustNew(t, strings.Replace(cfg, "200000", "210000", 1), nil)
	if _, _, err := stronger.State().Decrypt(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	fresh, err := stronger.State().Encrypt(context.Background(), []byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	if string(fresh.Meta["key_provider.pbkdf2.k"]) == string(env.Meta["key_provider.pbkdf2.k"]) {
		t.Errorf("new iteration settings reused the old derivation")
	}
}

func TestNoDiagnosticsWithoutConfiguration(t *testing.T) {
	enc, diags := New(Options{})
	if diags.HasErrors() || enc.State() != nil || enc.Plan() != nil || enc.RemoteState("x") != nil {
		t.Fatalf("an empty configuration: %v", diags)
	}
	var nilTarget *Target
	if !nilTarget.ReadsPlain() || !nilTarget.WritesPlain() {
		t.Errorf("no target must read and write plain data")
	}
	_ = hcl.Diagnostics{}
}

func TestPlanTargetReusesTheStateTargetsKey(t *testing.T) {
	cfg := pbkdf2Config("k", "a passphrase of some length") + `
state { method = method.aes_gcm.k }
plan { method = method.aes_gcm.k }`
	env := roundTrip(t, mustNew(t, cfg, nil).State(), secret)
	run := mustNew(t, cfg, nil)
	if _, _, err := run.State().Decrypt(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	planEnv, err := run.Plan().Encrypt(context.Background(), []byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	if string(planEnv.Meta["key_provider.pbkdf2.k"]) != string(env.Meta["key_provider.pbkdf2.k"]) {
		t.Errorf("the plan target derived its own key though the state target's method decrypted with one")
	}
}
