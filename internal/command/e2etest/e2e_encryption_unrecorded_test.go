package e2etest

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/states/errored"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/sharedstore"
)

var unrecordedWeb = regexp.MustCompile(`(tpf_thing\.web\[\d\]) \(id = ([0-9a-f]+)\)`)

// TestE2EStoreOutageInterruptedEncrypted stops an apply with state
// encryption twice while the answers of its provider calls wait for a
// shared store (etcd) that went away. errored.tfstate, which then holds
// the only record of those objects, must be encrypted as the state is, as
// OpenTofu writes it: an envelope that the test opens by the format's own
// rules, holding neither the sensitive nor the plain attribute value. The
// next plan reads it (so it still refuses to plan), and state push takes
// it in.
func TestE2EStoreOutageInterruptedEncrypted(t *testing.T) {
	t.Parallel()
	server := etcdtest.Start(t)
	store := sharedstore.EtcdOn(server)
	// Slow creates, and no output: the run that fails records none, so
	// the plan after the push would add it.
	cfg, _, _ := strings.Cut(encryptionConfig(clitest.PBKDF2Encryption("main", clitest.EncryptedTargets)), `output "secret"`)
	cfg = strings.Replace(cfg, `name        = "web-${count.index}"`, `name        = "web-${count.index}"
  fail        = "slow"`, 1)
	p := newE2EProjectEnv(t, cfg, append([]string{"TF_VAR_passphrase=" + clitest.EncPassphrase}, store.Env...)...)
	apply := startInBackground(t, p, "apply", "-auto-approve", "-no-color")
	clitest.WaitFor(t, "apply", apply.out, regexp.MustCompile(`(?s)(tpf_thing\.web\[\d\]: Creating\.\.\..*){3}`))
	server.Stop()
	interruptWhileResultsWait(t, p, apply, 3)
	kept := unrecordedWeb.FindAllStringSubmatch(apply.errOut.String(), -1)
	if got := uniqueSorted(kept, 0); len(got) != 3 {
		t.Fatalf("the apply listed %d results with their IDs, want all 3:\n%s", len(got), apply.errOut.String())
	}
	for _, secret := range []string{clitest.EncSecret, clitest.EncDescription} {
		if strings.Contains(apply.errOut.String(), secret) {
			t.Errorf("the failed apply's errors show %q", secret)
		}
	}
	stored, err := os.ReadFile(filepath.Join(p.dir, errored.FileName))
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecrets(t, map[string][]byte{errored.FileName: stored}, clitest.EncSecret, clitest.EncDescription)
	clitest.AssertOpenTofuStateEnvelope(t, stored, "key_provider.pbkdf2.main")
	printed := checkUnrecordedKept(t, p, apply.errOut.String(), kept, func(addr string) string {
		return "web-" + strings.TrimSuffix(strings.TrimPrefix(addr, "tpf_thing.web["), "]")
	})
	cloud := p.objects("tpf_thing")

	server.Restart(t)
	takeUnrecordedIn(t, p, printed)
	clitest.AssertContains(t, "plan after the push", p.mustRun("plan", "-no-color"), "No changes.")
	for name, obj := range cloud {
		if after := p.objects("tpf_thing")[name]; after.attrs["id"] != obj.attrs["id"] {
			t.Errorf("%s is object %v now, was %v", name, after.attrs["id"], obj.attrs["id"])
		}
	}
}

// readErroredFile reads a file of unrecorded results. An encrypted one is
// opened by the format OpenTofu documents (see openTofuEncryptedState),
// with the passphrase the project's TF_VAR_passphrase gives, not by
// Terrane's encryption package.
func readErroredFile(t *testing.T, p *e2eProject, path string) *errored.File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", errored.FileName, err)
	}
	if bytes.Contains(data, []byte(`"encryption_version"`)) {
		data = clitest.OpenTofuDecryptState(t, data, p.getenv("TF_VAR_passphrase"))
	}
	sf, err := statefile.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", errored.FileName, err)
	}
	file, err := errored.FromStateFile(path, sf)
	if err != nil {
		t.Fatalf("%s: %v", errored.FileName, err)
	}
	return file
}
