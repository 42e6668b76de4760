package e2etest

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

const encryptionResources = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
ENCRYPTION
}

provider "tpf" {
  root_dir = "CLOUD"
}

variable "passphrase" {
  type      = string
  sensitive = true
}

variable "secret" {
  type      = string
  sensitive = true
  default   = "` + clitest.EncSecret + `"
}

resource "tpf_thing" "web" {
  count       = 3
  name        = "web-${count.index}"
  secret      = var.secret
  description = "` + clitest.EncDescription + `"
}

output "secret" {
  value     = tpf_thing.web[0].secret
  sensitive = true
}
`

func encryptionConfig(block string) string {
	return strings.Replace(encryptionResources, "ENCRYPTION", block, 1)
}

// storeFiles returns the bytes of every file of the embedded store (the
// database, its write-ahead log and shared memory).
func storeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, ".terrane", "state.db*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no store files in %s: %v", dir, err)
	}
	out := map[string][]byte{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(path)] = data
	}
	return out
}

// assertNoSecrets fails when any of files holds a secret in clear.
func assertNoSecrets(t *testing.T, files map[string][]byte, secrets ...string) {
	t.Helper()
	for name, data := range files {
		for _, secret := range secrets {
			if bytes.Contains(data, []byte(secret)) {
				t.Errorf("%s holds %q in clear", name, secret)
			}
		}
	}
}

func TestEncryptionKeepsSecretsOutOfStoreAndPlanFiles(t *testing.T) {
	t.Parallel()
	p := newE2EProjectEnv(t, encryptionConfig(clitest.PBKDF2Encryption("main", clitest.EncryptedTargets)), "TF_VAR_passphrase="+clitest.EncPassphrase)
	planPath := filepath.Join(p.dir, "tfplan")
	p.mustRun("plan", "-out="+planPath)
	plan, err := os.ReadFile(planPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(plan, []byte(`{"meta":{"key_provider.pbkdf2.main":`)) || !bytes.Contains(plan, []byte(`"encryption_version":"v0"`)) {
		t.Errorf("the plan file is not OpenTofu's encrypted envelope: %.120s", plan)
	}
	assertNoSecrets(t, map[string][]byte{"tfplan": plan}, clitest.EncSecret, clitest.EncDescription)
	if shown := p.mustRun("show", "-json", planPath); !strings.Contains(shown, `"format_version"`) || !strings.Contains(shown, "tpf_thing.web[2]") {
		t.Errorf("show -json of the encrypted plan file:\n%.400s", shown)
	}
	p.mustRun("apply", planPath)
	if out := p.mustRun("output", "-raw", "secret"); out != clitest.EncSecret {
		t.Errorf("output -raw secret = %q", out)
	}

	files := storeFiles(t, p.dir)
	assertNoSecrets(t, files, clitest.EncSecret, clitest.EncDescription)
	if !bytes.Contains(files["state.db"], []byte("tpf_thing.web[2]")) && !bytes.Contains(files["state.db-wal"], []byte("tpf_thing.web[2]")) {
		t.Errorf("record names are not readable in the store")
	}
	// Reading works: the records decrypt, and state pull writes the state
	// decrypted, as OpenTofu's state pull does.
	if got := p.mustRun("state", "list"); !strings.Contains(got, "tpf_thing.web[1]") {
		t.Errorf("state list: %s", got)
	}
	if pulled := p.mustRun("state", "pull"); !strings.Contains(pulled, clitest.EncSecret) || !strings.Contains(pulled, clitest.EncDescription) {
		t.Errorf("state pull does not hold the decrypted state:\n%s", pulled)
	}
	if out := p.mustRun("plan"); !strings.Contains(out, "No changes") {
		t.Errorf("a plan over the encrypted state is not empty:\n%s", out)
	}
	watchEncryptedRecords(t, p)
	p.mustRun("destroy", "-auto-approve")
	assertNoSecrets(t, storeFiles(t, p.dir), clitest.EncSecret, clitest.EncDescription)
}

// watchEncryptedRecords checks that watch, which holds no keys, lists the
// encrypted records by name and shows how they were encrypted, and
// nothing of their content.
func watchEncryptedRecords(t *testing.T, p *e2eProject) {
	t.Helper()
	cmd, stdout, stderr, exited := startCLI(t, p, "watch", "-backend", "sqlite://"+filepath.Join(p.dir, ".terrane", "state.db"), "-json")
	defer cmd.Process.Kill()
	clitest.WaitFor(t, "snapshot end", stdout, regexp.MustCompile(`end_of_snapshot`))
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, <-exited); code != 0 {
		t.Fatalf("watch exited %d: %s", code, stderr.String())
	}
	out := stdout.String()
	clitest.AssertContains(t, "watch of encrypted records", out, `"name":"tpf_thing.web[0]"`, `"encrypted":true`, `"method":"method.aes_gcm.main"`, `"key_providers":["key_provider.pbkdf2.main"]`)
	for _, secret := range []string{clitest.EncSecret, clitest.EncDescription} {
		if strings.Contains(out, secret) {
			t.Errorf("watch shows %q", secret)
		}
	}
}

// TestUnencryptedStoreHoldsSecrets shows the search above finds secrets
// when they are there: without encryption, the store holds them in clear.
func TestUnencryptedStoreHoldsSecrets(t *testing.T) {
	t.Parallel()
	p := newE2EProjectEnv(t, encryptionConfig(""), "TF_VAR_passphrase="+clitest.EncPassphrase)
	p.mustRun("apply", "-auto-approve")
	var found bool
	for _, data := range storeFiles(t, p.dir) {
		found = found || bytes.Contains(data, []byte(clitest.EncDescription))
	}
	if !found {
		t.Fatalf("the unencrypted store does not hold %q: the secret search cannot fail", clitest.EncDescription)
	}
}

func TestEncryptedStateBadInput(t *testing.T) {
	t.Parallel()
	p := newE2EProjectEnv(t, encryptionConfig(clitest.PBKDF2Encryption("main", clitest.EncryptedTargets)), "TF_VAR_passphrase="+clitest.EncPassphrase)
	p.mustRun("apply", "-auto-approve")
	planPath := filepath.Join(p.dir, "tfplan")
	p.write(strings.Replace(encryptionConfig(clitest.PBKDF2Encryption("main", clitest.EncryptedTargets)), clitest.EncDescription, clitest.EncDescription+"-2", 1))
	p.mustRun("plan", "-out="+planPath)
	before := storeFiles(t, p.dir)

	p.setenv("TF_VAR_passphrase", "a different passphrase entirely")
	_, stderr, code := p.run("apply", planPath)
	if code == 0 {
		t.Fatalf("applying the saved plan with the wrong passphrase succeeded")
	}
	clitest.AssertContains(t, "apply of the saved plan with the wrong passphrase", stderr, "Failed to read the saved plan", "tfplan", "key_provider.pbkdf2.main", "wrong key")
	_, stderr, code = p.run("plan")
	if code == 0 {
		t.Fatalf("plan with the wrong passphrase succeeded")
	}
	clitest.AssertContains(t, "plan with the wrong passphrase", stderr, "Failed to decrypt the state", `record "default"`, "key_provider.pbkdf2.main", "wrong key", "Nothing was written")
	_, stderr, code = p.run("state", "list")
	if code == 0 {
		t.Fatalf("state list with the wrong passphrase succeeded")
	}
	clitest.AssertContains(t, "state list with the wrong passphrase", stderr, "key_provider.pbkdf2.main")

	// A plan file altered in one byte of its ciphertext is refused.
	p.setenv("TF_VAR_passphrase", clitest.EncPassphrase)
	plan, err := os.ReadFile(planPath)
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Replace(plan, []byte(`"encrypted_data":"A`), []byte(`"encrypted_data":"B`), 1)
	if bytes.Equal(tampered, plan) {
		tampered = bytes.Replace(plan, []byte(`"encrypted_data":"`), []byte(`"encrypted_data":"A`), 1)
	}
	if err := os.WriteFile(planPath, tampered, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := p.run("apply", planPath); code == 0 || !strings.Contains(stderr, "Failed to read the saved plan") {
		t.Fatalf("a tampered plan file: exit %d\n%s", code, stderr)
	}

	p.write(encryptionConfig(""))
	_, stderr, code = p.run("plan")
	if code == 0 {
		t.Fatalf("plan without the encryption configuration read encrypted records")
	}
	clitest.AssertContains(t, "plan without encryption", stderr, "is encrypted", "encrypts no state")
	after := storeFiles(t, p.dir)
	if !bytes.Equal(before["state.db"], after["state.db"]) || !bytes.Equal(before["state.db-wal"], after["state.db-wal"]) {
		t.Errorf("a refused run changed the store")
	}
}

func TestEncryptionBlockInCalledModuleWarns(t *testing.T) {
	t.Parallel()
	p := newE2EProjectEnv(t, encryptionConfig(""), "TF_VAR_passphrase="+clitest.EncPassphrase)
	clitest.WriteFile(t, filepath.Join(p.dir, "child", "main.tf"), `
terraform {
  encryption {
    method "unencrypted" "nothing" {}
  }
}
`)
	p.write(encryptionConfig("") + `
module "child" {
  source = "./child"
}
`)
	p.mustRun("init")
	out, stderr, code := p.run("plan")
	if code != 0 {
		t.Fatalf("plan: %s%s", out, stderr)
	}
	clitest.AssertContains(t, "plan with an encryption block in a called module", out+stderr, "Encryption block in a called module", "module.child", "has no effect")
}

// TestWorkspacesOfOtherKeysAreListedAndDeleted: workspace names are
// readable without keys, so listing, selecting and deleting a workspace
// encrypted with another passphrase work; reading its state does not.
func TestWorkspacesOfOtherKeysAreListedAndDeleted(t *testing.T) {
	t.Parallel()
	p := newE2EProjectEnv(t, encryptionConfig(clitest.PBKDF2Encryption("main", clitest.EncryptedTargets)), "TF_VAR_passphrase=the passphrase of workspace one")
	p.mustRun("workspace", "new", "one")
	p.mustRun("apply", "-auto-approve")
	p.setenv("TF_VAR_passphrase", "the passphrase of workspace two")
	p.mustRun("workspace", "new", "two")
	if out := p.mustRun("workspace", "list"); !strings.Contains(out, "one") || !strings.Contains(out, "* two") {
		t.Fatalf("workspace list: %s", out)
	}
	p.mustRun("workspace", "select", "one")
	if _, stderr, code := p.run("state", "list"); code == 0 || !strings.Contains(stderr, "wrong key") {
		t.Fatalf("state list of a workspace encrypted with another passphrase: exit %d\n%s", code, stderr)
	}
	p.mustRun("workspace", "select", "two")
	if _, stderr, code := p.run("workspace", "delete", "one"); code == 0 || !strings.Contains(stderr, "tpf_thing.web") {
		t.Fatalf("deleting a workspace that holds instances without -force: exit %d\n%s", code, stderr)
	}
	p.mustRun("workspace", "delete", "-force", "one")
	if out := p.mustRun("workspace", "list"); strings.Contains(out, "one") {
		t.Errorf("workspace one is still listed: %s", out)
	}
}

// TestEncryptionFromTheEnvironment configures encryption in TF_ENCRYPTION
// over a code block that only enforces it, as OpenTofu's documentation
// suggests for keys kept out of the repository.
func TestEncryptionFromTheEnvironment(t *testing.T) {
	t.Parallel()
	enforcedOnly := `
  encryption {
    state {
      enforced = true
    }
    plan {
      enforced = true
    }
  }
`
	p := newE2EProjectEnv(t, encryptionConfig(""), "TF_VAR_passphrase="+clitest.EncPassphrase)
	// init made the workspace's record, unencrypted: start over.
	for name := range storeFiles(t, p.dir) {
		if err := os.Remove(filepath.Join(p.dir, ".terrane", name)); err != nil {
			t.Fatal(err)
		}
	}
	p.write(encryptionConfig(enforcedOnly))
	_, stderr, code := p.run("plan")
	if code == 0 {
		t.Fatalf("enforced encryption without a method planned")
	}
	clitest.AssertContains(t, "enforced encryption without TF_ENCRYPTION", stderr, "Missing encryption method", "is enforced", "TF_ENCRYPTION")

	p.setenv("TF_ENCRYPTION", `
key_provider "pbkdf2" "env" {
  passphrase = "a passphrase kept in the environment"
  iterations = 200000
}
method "aes_gcm" "env" {
  keys = key_provider.pbkdf2.env
}
state {
  method = method.aes_gcm.env
}
plan {
  method = method.aes_gcm.env
}
`)
	p.mustRun("apply", "-auto-approve")
	assertNoSecrets(t, storeFiles(t, p.dir), clitest.EncSecret, clitest.EncDescription)
	if out := p.mustRun("plan"); !strings.Contains(out, "No changes") {
		t.Errorf("plan over the state TF_ENCRYPTION encrypted:\n%s", out)
	}
}

// TestSavedPlanKeepsTheStatePassphrase: a passphrase given to plan with
// -var is recorded in an unencrypted saved plan, and applying the plan
// takes it from there, as every other recorded value.
func TestSavedPlanKeepsTheStatePassphrase(t *testing.T) {
	t.Parallel()
	stateOnly := `
    state {
      method = method.aes_gcm.main
    }
`
	p := newE2EProjectEnv(t, encryptionConfig(clitest.PBKDF2Encryption("main", stateOnly)), "TF_VAR_passphrase="+clitest.EncPassphrase)
	p.unsetenv("TF_VAR_passphrase")
	planPath := filepath.Join(p.dir, "tfplan")
	p.mustRun("plan", "-var", "passphrase="+clitest.EncPassphrase, "-out="+planPath)
	if out := p.mustRun("apply", planPath); !strings.Contains(out, "3 added") {
		t.Fatalf("applying the saved plan:\n%s", out)
	}
	if _, stderr, code := p.run("state", "list"); code == 0 || !strings.Contains(stderr, "encryption configuration uses var.passphrase") {
		t.Errorf("state list without the passphrase: exit %d\n%s", code, stderr)
	}

	// A plain plan file, once the configuration encrypts plans, is read
	// only through an unencrypted fallback of the plan target.
	p.mustRun("plan", "-var", "passphrase="+clitest.EncPassphrase, "-out="+planPath)
	planTarget := stateOnly + `
    plan {
      method = method.aes_gcm.main
    }
`
	p.write(encryptionConfig(clitest.PBKDF2Encryption("main", planTarget)))
	_, stderr, code := p.run("apply", "-var", "passphrase="+clitest.EncPassphrase, planPath)
	if code == 0 {
		t.Fatalf("a plain plan file was applied though the plan target has no unencrypted method")
	}
	clitest.AssertContains(t, "apply of a plain plan file under a plan target", stderr, "Failed to read the saved plan", "tfplan", "not encrypted", "unencrypted method")
	if _, stderr, code := p.run("show", planPath); code == 0 || !strings.Contains(stderr, "not encrypted") {
		t.Errorf("show of a plain plan file under a plan target: exit %d\n%s", code, stderr)
	}
}

// TestPassphraseOnTheCommandLine: init, output and show take -var and
// -var-file, as OpenTofu's do, for an encryption configuration that uses
// variables; without them they refuse, naming the variable.
func TestPassphraseOnTheCommandLine(t *testing.T) {
	t.Parallel()
	p := newE2EProjectEnv(t, encryptionConfig(clitest.PBKDF2Encryption("main", clitest.EncryptedTargets)), "TF_VAR_passphrase="+clitest.EncPassphrase)
	p.unsetenv("TF_VAR_passphrase")
	if _, stderr, code := p.run("init"); code == 0 || !strings.Contains(stderr, "encryption configuration uses var.passphrase") {
		t.Fatalf("init without the passphrase: exit %d\n%s", code, stderr)
	}
	passphrase := "passphrase=" + clitest.EncPassphrase
	clitest.WriteFile(t, filepath.Join(p.dir, "secret.tfvars"), `passphrase = "`+clitest.EncPassphrase+`"`+"\n")
	p.mustRun("init", "-var", passphrase)
	p.mustRun("apply", "-auto-approve", "-var-file=secret.tfvars")
	if out := p.mustRun("output", "-var", passphrase, "-raw", "secret"); out != clitest.EncSecret {
		t.Errorf("output -raw secret = %q", out)
	}
	if _, stderr, code := p.run("output", "-raw", "secret"); code == 0 || !strings.Contains(stderr, "var.passphrase") {
		t.Errorf("output without the passphrase: exit %d\n%s", code, stderr)
	}
	if out := p.mustRun("show", "-var-file", "secret.tfvars", "-json"); !strings.Contains(out, "tpf_thing.web[2]") {
		t.Errorf("show -json of the encrypted state:\n%.400s", out)
	}
	planPath := filepath.Join(p.dir, "tfplan")
	p.mustRun("plan", "-var", passphrase, "-destroy", "-out="+planPath)
	if out := p.mustRun("show", "-var", passphrase, planPath); !strings.Contains(out, "3 to destroy") {
		t.Errorf("show of the encrypted plan file:\n%s", out)
	}
	if _, stderr, code := p.run("show", planPath); code == 0 || !strings.Contains(stderr, "var.passphrase") {
		t.Errorf("show of the encrypted plan file without the passphrase: exit %d\n%s", code, stderr)
	}
	if out := p.mustRun("graph", "-var", passphrase); !strings.Contains(out, "tpf_thing.web") {
		t.Errorf("graph over the encrypted state:\n%s", out)
	}
	if out := p.mustRun("graph", "-var", passphrase, "-plan="+planPath); !strings.Contains(out, "tpf_thing.web") {
		t.Errorf("graph of the encrypted plan file:\n%s", out)
	}
	if _, stderr, code := p.run("workspace", "new", "staging"); code == 0 || !strings.Contains(stderr, "var.passphrase") {
		t.Errorf("workspace new without the passphrase: exit %d\n%s", code, stderr)
	}
	p.mustRun("workspace", "new", "-var", passphrase, "staging")
	p.mustRun("workspace", "select", "-var", passphrase, "default")
}
