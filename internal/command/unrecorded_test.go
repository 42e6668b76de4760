package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/errored"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestUnrecordedDumpIsEncrypted has errored.tfstate fail to be written
// (its directory is a file) with state encryption configured: the results
// printed as their only copy are the encrypted state file, not plain
// attributes, and they open to the results.
func TestUnrecordedDumpIsEncrypted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clitest.WriteFile(t, filepath.Join(dir, "main.tf"), `
variable "passphrase" {
  type      = string
  sensitive = true
}
terraform {
`+clitest.PBKDF2Encryption("main", clitest.EncryptedTargets)+`
}
`)
	enc, ds := run.LoadEncryption(dir, nil, nil, nil, append(os.Environ(), "TF_VAR_passphrase="+clitest.EncPassphrase))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	addr, addrDiags := addrs.ParseAbsResourceInstanceStr("tpf_thing.web[0]")
	if addrDiags.HasErrors() {
		t.Fatal(addrDiags.Error())
	}
	results := errored.NewResults("default", "lineage-1", "run-1")
	results.Add(addr, addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("tpf")}, &states.ResourceInstance{Current: &states.ResourceInstanceObjectSrc{
		AttrsJSON: []byte(`{"id":"abc123","secret":"` + clitest.EncSecret + `","description":"` + clitest.EncDescription + `"}`), Status: states.ObjectReady}})
	notADir := filepath.Join(dir, "main.tf")

	out := keepResults(results, notADir, run.ErroredSealing(enc), false)
	if len(out) != 1 {
		t.Fatalf("diagnostics: %v", out)
	}
	detail := out[0].Detail
	clitest.AssertContains(t, "the dump's diagnostic", detail, "tpf_thing.web[0] (id = abc123)", "Their only copy is below")
	for _, secret := range []string{clitest.EncSecret, clitest.EncDescription} {
		if strings.Contains(detail, secret) {
			t.Errorf("the dump shows %q", secret)
		}
	}
	dump := strings.TrimSpace(detail[strings.LastIndex(detail, "\n\n"):])
	clitest.AssertOpenTofuStateEnvelope(t, []byte(dump), "key_provider.pbkdf2.main")
	sf, err := statefile.Read(bytes.NewReader(clitest.OpenTofuDecryptState(t, []byte(dump), clitest.EncPassphrase)))
	if err != nil {
		t.Fatal(err)
	}
	file, err := errored.FromStateFile("dump", sf)
	if err != nil || errored.Describe(file.Entries()) != "  tpf_thing.web[0] (id = abc123)" {
		t.Errorf("the dump holds %v, %v", file, err)
	}

	// Without encryption the dump stays a plain state file, as before.
	if err := os.WriteFile(notADir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	plain := keepResults(results, notADir, run.ErroredSealing(nil), false)
	if len(plain) != 1 || !strings.Contains(plain[0].Detail, clitest.EncDescription) {
		t.Errorf("the unencrypted dump does not hold the results: %v", plain)
	}
}
