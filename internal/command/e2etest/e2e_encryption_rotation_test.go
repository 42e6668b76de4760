package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// twoKeys declares the key providers and methods "old" and "new", with
// their own passphrases, and the targets given.
func twoKeys(targets string) string {
	return `
  encryption {
    key_provider "pbkdf2" "old" {
      passphrase = "the old passphrase, long enough"
      iterations = 200000
    }
    key_provider "pbkdf2" "new" {
      passphrase = "the new passphrase, long enough"
      iterations = 200000
    }
    method "aes_gcm" "old" {
      keys = key_provider.pbkdf2.old
    }
    method "aes_gcm" "new" {
      keys = key_provider.pbkdf2.new
    }
    method "unencrypted" "migrate" {}
` + targets + `
  }
`
}

func stateTarget(method, fallback string) string {
	target := "    state {\n      method = method." + method + "\n"
	if fallback != "" {
		target += "      fallback {\n        method = method." + fallback + "\n      }\n"
	}
	return target + "    }\n"
}

func TestKeyRotationWithFallbackAndReencrypt(t *testing.T) {
	t.Parallel()
	p := newE2EProjectEnv(t, encryptionConfig(twoKeys(stateTarget("aes_gcm.old", ""))), "TF_VAR_passphrase="+clitest.EncPassphrase)
	p.mustRun("apply", "-auto-approve")

	// Rotate: new keys first, the old ones as a fallback. Reading works,
	// and what is written uses the new keys.
	rotating := encryptionConfig(twoKeys(stateTarget("aes_gcm.new", "aes_gcm.old")))
	p.write(rotating)
	out, stderr, code := p.run("plan")
	if code != 0 || !strings.Contains(out, "No changes") {
		t.Fatalf("plan during rotation:\n%s%s", out, stderr)
	}
	clitest.AssertContains(t, "plan during rotation", out+stderr, "State records use an older encryption", "5 record(s)", "terrane state reencrypt")
	renamed := func(cfg string) string {
		return strings.Replace(cfg, `name        = "web-${count.index}"`, `name        = "web-${count.index}-renamed"`, 1)
	}
	p.write(renamed(rotating))
	p.mustRun("apply", "-auto-approve")

	// The apply wrote the instances and the workspace record with the new
	// keys; the output's value did not change, so its record was not
	// written and is still under the old keys: the new keys alone refuse
	// it, by name.
	newOnly := renamed(encryptionConfig(twoKeys(stateTarget("aes_gcm.new", ""))))
	p.write(newOnly)
	_, stderr, code = p.run("state", "list")
	if code == 0 {
		t.Fatalf("the new keys alone read a record nothing rewrote")
	}
	clitest.AssertContains(t, "state list with only the new keys", stderr, `output record "secret"`, "key_provider.pbkdf2.new", "method.aes_gcm.old", "add it as a fallback")

	rotating = renamed(rotating)
	p.write(rotating)
	out = p.mustRun("state", "reencrypt")
	clitest.AssertContains(t, "state reencrypt", out, "Rewrote 1 record(s)", "with method.aes_gcm.new")
	if again := p.mustRun("state", "reencrypt"); !strings.Contains(again, "Rewrote 0 record(s)") {
		t.Errorf("a second reencrypt rewrote records again: %s", again)
	}
	p.write(newOnly)
	if out := p.mustRun("plan"); !strings.Contains(out, "No changes") {
		t.Errorf("after reencrypt the new keys alone do not read the state:\n%s", out)
	}
}

func TestMigrationToAndFromEncryption(t *testing.T) {
	t.Parallel()
	p := newE2EProjectEnv(t, encryptionConfig(""), "TF_VAR_passphrase="+clitest.EncPassphrase)
	p.mustRun("apply", "-auto-approve")

	// Encryption without the unencrypted method refuses the plain records.
	p.write(encryptionConfig(twoKeys(stateTarget("aes_gcm.new", ""))))
	_, stderr, code := p.run("plan")
	if code == 0 {
		t.Fatalf("encrypted configuration read plain records without the unencrypted method")
	}
	clitest.AssertContains(t, "plan over plain records", stderr, "Unencrypted state", "stored unencrypted", `method "unencrypted"`, "state reencrypt")

	// With the unencrypted fallback, reencrypt migrates every record.
	p.write(encryptionConfig(twoKeys(stateTarget("aes_gcm.new", "unencrypted.migrate"))))
	p.mustRun("state", "reencrypt")
	assertNoSecrets(t, storeFiles(t, p.dir), clitest.EncSecret, clitest.EncDescription)
	p.write(encryptionConfig(twoKeys(stateTarget("aes_gcm.new", ""))))
	out, stderr, code := p.run("plan", "-out=tfplan")
	if code != 0 || !strings.Contains(out, "No changes") {
		t.Fatalf("the migrated state does not read with the new keys alone:\n%s%s", out, stderr)
	}
	clitest.AssertContains(t, "plan -out with only state encrypted", out+stderr, "Plan file not encrypted", "plan target")

	// And back: unencrypted first, the keys as fallback.
	p.write(encryptionConfig(twoKeys(stateTarget("unencrypted.migrate", "aes_gcm.new"))))
	out = p.mustRun("state", "reencrypt")
	clitest.AssertContains(t, "reencrypt to plain", out, "in plain form")
	p.write(encryptionConfig(""))
	if out := p.mustRun("plan"); !strings.Contains(out, "No changes") {
		t.Fatalf("the decrypted state does not read without encryption:\n%s", out)
	}
}
