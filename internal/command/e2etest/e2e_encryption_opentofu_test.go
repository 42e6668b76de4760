package e2etest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha512"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
	"golang.org/x/crypto/pbkdf2"
)

// openTofuEncryptedState encrypts a state file the way OpenTofu's
// documentation specifies, written here from the format rather than with
// Terrane's encryption package: the key is PBKDF2-HMAC-SHA512 of the
// passphrase (600,000 iterations, a random 32-byte salt, 32 bytes long),
// the state is sealed with AES-256-GCM under a random 12-byte nonce that
// precedes the ciphertext, and the envelope is JSON that keeps serial and
// lineage readable, holds the key provider's metadata (itself JSON,
// base64-encoded) under "key_provider.pbkdf2.NAME", the base64 of nonce
// and ciphertext as encrypted_data, and encryption_version "v0".
func openTofuEncryptedState(t *testing.T, plain []byte, metaKey, passphrase string) []byte {
	t.Helper()
	var header struct {
		Serial  int64  `json:"serial"`
		Lineage string `json:"lineage"`
	}
	if err := json.Unmarshal(plain, &header); err != nil {
		t.Fatal(err)
	}
	salt := make([]byte, 32)
	if _, err := rand.Read(salt); err != nil {
		t.Fatal(err)
	}
	key := pbkdf2.Key([]byte(passphrase), salt, 600000, 32, sha512.New)
	block, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	nonce := make([]byte, gcm.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		t.Fatal(err)
	}
	meta, err := json.Marshal(map[string]any{"salt": salt, "iterations": 600000, "hash_function": "sha512", "key_length": 32})
	if err != nil {
		t.Fatal(err)
	}
	envelope, err := json.Marshal(map[string]any{
		"serial": header.Serial, "lineage": header.Lineage,
		"meta":               map[string][]byte{metaKey: meta},
		"encrypted_data":     gcm.Seal(nonce, nonce, plain, nil),
		"encryption_version": "v0",
	})
	if err != nil {
		t.Fatal(err)
	}
	return envelope
}

// openTofuEncryption is the encryption block of the OpenTofu project the
// state comes from: OpenTofu's defaults for pbkdf2.
const openTofuEncryption = `
  encryption {
    key_provider "pbkdf2" "tofu" {
      passphrase = var.passphrase
    }
    method "aes_gcm" "tofu" {
      keys = key_provider.pbkdf2.tofu
    }
    state {
      method = method.aes_gcm.tofu
    }
  }
`

func TestPushOpenTofuEncryptedStateThenApply(t *testing.T) {
	t.Parallel()
	// The objects and a plain state of them, as an OpenTofu project would
	// have: applied, then pulled.
	p := newE2EProjectEnv(t, encryptionConfig(""), "TF_VAR_passphrase="+clitest.EncPassphrase)
	p.mustRun("apply", "-auto-approve")
	plain := []byte(p.mustRun("state", "pull"))
	encrypted := openTofuEncryptedState(t, plain, "key_provider.pbkdf2.tofu", clitest.EncPassphrase)
	if strings.Contains(string(encrypted), clitest.EncSecret) {
		t.Fatal("the test's encrypted state holds the secret")
	}
	statePath := filepath.Join(t.TempDir(), "terraform.tfstate")
	if err := os.WriteFile(statePath, encrypted, 0o600); err != nil {
		t.Fatal(err)
	}

	// Moving in: a new store, the OpenTofu project's encryption block.
	for name := range storeFiles(t, p.dir) {
		if err := os.Remove(filepath.Join(p.dir, ".terrane", name)); err != nil {
			t.Fatal(err)
		}
	}
	p.write(encryptionConfig(openTofuEncryption))

	p.setenv("TF_VAR_passphrase", "not the passphrase of that state")
	_, stderr, code := p.run("state", "push", statePath)
	if code == 0 {
		t.Fatalf("pushing with the wrong passphrase succeeded")
	}
	clitest.AssertContains(t, "push with the wrong passphrase", stderr, "Cannot decrypt state file", "key_provider.pbkdf2.tofu", "wrong key")
	p.setenv("TF_VAR_passphrase", clitest.EncPassphrase)
	// As OpenTofu's, state list of a workspace with no state is an error.
	if stdout, stderr, code := p.run("state", "list"); code == 0 || strings.TrimSpace(stdout) != "" || !strings.Contains(stderr, "No state file was found") {
		t.Fatalf("a refused push wrote records: exit %d, %q %q", code, stdout, stderr)
	}

	p.mustRun("state", "push", statePath)
	if got := p.mustRun("state", "list"); strings.Count(got, "\n") != 3 {
		t.Fatalf("state list after the push:\n%s", got)
	}
	if out := p.mustRun("plan"); !strings.Contains(out, "No changes") {
		t.Fatalf("the pushed state does not match the objects:\n%s", out)
	}
	p.write(strings.Replace(encryptionConfig(openTofuEncryption), clitest.EncDescription, clitest.EncDescription+"-moved-in", 1))
	out := p.mustRun("apply", "-auto-approve")
	clitest.AssertContains(t, "apply after the push", out, "3 changed")
	assertNoSecrets(t, storeFiles(t, p.dir), clitest.EncSecret, clitest.EncDescription)

	// A tampered file is refused: one flipped bit of its ciphertext.
	var envelope map[string]any
	if err := json.Unmarshal(encrypted, &envelope); err != nil {
		t.Fatal(err)
	}
	data := []byte(envelope["encrypted_data"].(string))
	data[len(data)/2] ^= 'A' ^ 'B'
	envelope["encrypted_data"] = string(data)
	tampered, _ := json.Marshal(envelope)
	if err := os.WriteFile(statePath, tampered, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := p.run("state", "push", "-force", statePath); code == 0 {
		t.Fatalf("a tampered state file was pushed")
	} else {
		clitest.AssertContains(t, "push of a tampered file", stderr, "Cannot decrypt state file")
	}
}

// TestRemoteStateReadsOpenTofuEncryptedStateFile reads the outputs of
// another project's OpenTofu-encrypted state file with
// terraform_remote_state, decrypted by the data source's own
// remote_state_data_source target, whose key provider stores its metadata
// under the alias the other project uses.
func TestRemoteStateReadsOpenTofuEncryptedStateFile(t *testing.T) {
	t.Parallel()
	plain := []byte(`{"version":4,"terraform_version":"1.9.0","serial":7,"lineage":"3f0c7b0e-network","outputs":{"greeting":{"value":"hello from the network project","type":"string"}},"resources":[]}`)
	statePath := filepath.Join(t.TempDir(), "network.tfstate")
	if err := os.WriteFile(statePath, openTofuEncryptedState(t, plain, "certificates", "the network passphrase"), 0o600); err != nil {
		t.Fatal(err)
	}
	reader := `
terraform {
  encryption {
    key_provider "pbkdf2" "network" {
      passphrase               = "the network passphrase"
      encrypted_metadata_alias = "certificates"
    }
    method "aes_gcm" "network" {
      keys = key_provider.pbkdf2.network
    }
    remote_state_data_sources {
      remote_state_data_source "net" {
        method = method.aes_gcm.network
      }
    }
  }
}

data "terraform_remote_state" "net" {
  backend = "local"
  config  = { path = "` + statePath + `" }
}

data "terraform_remote_state" "unconfigured" {
  backend = "local"
  config  = { path = "` + statePath + `" }
}

output "greeting" {
  value = data.terraform_remote_state.net.outputs.greeting
}
`
	p := newE2EProjectEnv(t, reader, "TF_VAR_passphrase="+clitest.EncPassphrase)
	_, stderr, code := p.run("plan")
	if code == 0 {
		t.Fatalf("a data source without a remote_state_data_source target (nor a default) read an encrypted state file")
	}
	clitest.AssertContains(t, "the unconfigured data source", stderr, "data.terraform_remote_state.unconfigured", "encrypted state file", "no encryption is configured")

	// The named target alone, for the one data source it names.
	withoutUnconfigured := strings.Replace(reader, `data "terraform_remote_state" "unconfigured" {
  backend = "local"
  config  = { path = "`+statePath+`" }
}`, "", 1)
	p.write(withoutUnconfigured)
	out := p.mustRun("apply", "-auto-approve")
	clitest.AssertContains(t, "apply with the named target", out, `greeting = "hello from the network project"`)

	// The default target, for every data source.
	p.write(strings.Replace(reader, `remote_state_data_source "net"`, "default", 1))
	out = p.mustRun("apply", "-auto-approve")
	clitest.AssertContains(t, "apply with the default target", out, `greeting = "hello from the network project"`)
}

// TestInitTakesInOpenTofuEncryptedState: an OpenTofu project with state
// encryption keeps terraform.tfstate encrypted. Plans see it (and refuse
// to plan over it) and init takes it in, both decrypting it with the state
// target the project's encryption block configures.
func TestInitTakesInOpenTofuEncryptedState(t *testing.T) {
	t.Parallel()
	p := newE2EProjectEnv(t, encryptionConfig(""), "TF_VAR_passphrase="+clitest.EncPassphrase)
	p.mustRun("apply", "-auto-approve")
	plain := []byte(p.mustRun("state", "pull"))
	for name := range storeFiles(t, p.dir) {
		if err := os.Remove(filepath.Join(p.dir, ".terrane", name)); err != nil {
			t.Fatal(err)
		}
	}
	clitest.WriteFile(t, filepath.Join(p.dir, "terraform.tfstate"), string(openTofuEncryptedState(t, plain, "key_provider.pbkdf2.tofu", clitest.EncPassphrase)))
	p.write(encryptionConfig(openTofuEncryption))

	_, stderr, code := p.run("plan", "-no-color")
	if code == 0 {
		t.Fatalf("plan over an encrypted terraform.tfstate not taken in ran")
	}
	clitest.AssertContains(t, "plan over the encrypted state not taken in", stderr, "has not been taken in", "3 resource instance(s)")
	out := p.mustRun("init", "-force-copy", "-no-color")
	clitest.AssertContains(t, "init -force-copy", out, `Took in terraform.tfstate as workspace "default": 3 resource instances, 1 outputs`)
	clitest.AssertContains(t, "plan after taking the state in", p.mustRun("plan", "-no-color"), "No changes.")
	assertNoSecrets(t, storeFiles(t, p.dir), clitest.EncSecret, clitest.EncDescription)
}
