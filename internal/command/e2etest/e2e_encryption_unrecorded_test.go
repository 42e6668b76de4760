package e2etest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/json"
	"hash"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/crypto/pbkdf2"

	"github.com/terrane/terrane/internal/states/errored"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
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
	cfg, _, _ := strings.Cut(encryptionConfig(pbkdf2Encryption("main", encryptedTargets)), `output "secret"`)
	cfg = strings.Replace(cfg, `name        = "web-${count.index}"`, `name        = "web-${count.index}"
  fail        = "slow"`, 1)
	p := newE2EProjectEnv(t, cfg, append([]string{"TF_VAR_passphrase=" + encPassphrase}, store.Env...)...)
	apply := startInBackground(t, p, "apply", "-auto-approve", "-no-color")
	waitFor(t, "apply", apply.out, regexp.MustCompile(`(?s)(tpf_thing\.web\[\d\]: Creating\.\.\..*){3}`))
	server.Stop()
	interruptWhileResultsWait(t, p, apply, 3)
	kept := unrecordedWeb.FindAllStringSubmatch(apply.errOut.String(), -1)
	if got := uniqueSorted(kept, 0); len(got) != 3 {
		t.Fatalf("the apply listed %d results with their IDs, want all 3:\n%s", len(got), apply.errOut.String())
	}
	for _, secret := range []string{encSecret, encDescription} {
		if strings.Contains(apply.errOut.String(), secret) {
			t.Errorf("the failed apply's errors show %q", secret)
		}
	}
	stored, err := os.ReadFile(filepath.Join(p.dir, errored.FileName))
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecrets(t, map[string][]byte{errored.FileName: stored}, encSecret, encDescription)
	assertOpenTofuStateEnvelope(t, stored, "key_provider.pbkdf2.main")
	printed := checkUnrecordedKept(t, p, apply.errOut.String(), kept, func(addr string) string {
		return "web-" + strings.TrimSuffix(strings.TrimPrefix(addr, "tpf_thing.web["), "]")
	})
	cloud := p.objects("tpf_thing")

	server.Restart(t)
	takeUnrecordedIn(t, p, printed)
	assertContains(t, "plan after the push", p.mustRun("plan", "-no-color"), "No changes.")
	for name, obj := range cloud {
		if after := p.objects("tpf_thing")[name]; after.attrs["id"] != obj.attrs["id"] {
			t.Errorf("%s is object %v now, was %v", name, after.attrs["id"], obj.attrs["id"])
		}
	}
}

// assertOpenTofuStateEnvelope checks that data is an encrypted state file
// as OpenTofu writes one: serial and lineage readable, the key provider's
// metadata under metaKey, encryption_version v0.
func assertOpenTofuStateEnvelope(t *testing.T, data []byte, metaKey string) {
	t.Helper()
	var envelope map[string]json.RawMessage
	if err := json.Unmarshal(data, &envelope); err != nil {
		t.Fatalf("not an encrypted state file: %v\n%.200s", err, data)
	}
	for _, key := range []string{"serial", "lineage", "meta", "encrypted_data", "encryption_version"} {
		if _, ok := envelope[key]; !ok {
			t.Errorf("the encrypted state file has no %q: %.200s", key, data)
		}
	}
	if string(envelope["encryption_version"]) != `"v0"` || !bytes.Contains(envelope["meta"], []byte(`"`+metaKey+`"`)) {
		t.Errorf("the encrypted state file is not OpenTofu's envelope for %s: %.200s", metaKey, data)
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
		data = openTofuDecryptState(t, data, p.getenv("TF_VAR_passphrase"))
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

// openTofuDecryptState opens an encrypted state file sealed with one
// pbkdf2 key provider and aes_gcm: the key is PBKDF2 of passphrase with
// the salt, iterations, hash and length the provider's metadata gives,
// and encrypted_data is the GCM nonce followed by the ciphertext. The
// envelope's serial and lineage must be the state's.
func openTofuDecryptState(t *testing.T, data []byte, passphrase string) []byte {
	t.Helper()
	var envelope struct {
		Serial        int64             `json:"serial"`
		Lineage       string            `json:"lineage"`
		Meta          map[string][]byte `json:"meta"`
		EncryptedData []byte            `json:"encrypted_data"`
	}
	if err := json.Unmarshal(data, &envelope); err != nil || len(envelope.Meta) != 1 {
		t.Fatalf("not an envelope with one key provider's metadata: %v\n%.200s", err, data)
	}
	var meta struct {
		Salt         []byte `json:"salt"`
		Iterations   int    `json:"iterations"`
		HashFunction string `json:"hash_function"`
		KeyLength    int    `json:"key_length"`
	}
	for _, m := range envelope.Meta {
		if err := json.Unmarshal(m, &meta); err != nil {
			t.Fatalf("pbkdf2 metadata: %v", err)
		}
	}
	hashes := map[string]func() hash.Hash{"sha256": sha256.New, "sha512": sha512.New}
	if hashes[meta.HashFunction] == nil || len(meta.Salt) == 0 || meta.Iterations == 0 {
		t.Fatalf("pbkdf2 metadata: %+v", meta)
	}
	block, err := aes.NewCipher(pbkdf2.Key([]byte(passphrase), meta.Salt, meta.Iterations, meta.KeyLength, hashes[meta.HashFunction]))
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil || len(envelope.EncryptedData) < gcm.NonceSize() {
		t.Fatalf("encrypted_data: %d bytes, %v", len(envelope.EncryptedData), err)
	}
	nonce, sealed := envelope.EncryptedData[:gcm.NonceSize()], envelope.EncryptedData[gcm.NonceSize():]
	plain, err := gcm.Open(nil, nonce, sealed, nil)
	if err != nil {
		t.Fatalf("decrypting: %v", err)
	}
	var header struct {
		Serial  int64  `json:"serial"`
		Lineage string `json:"lineage"`
	}
	if err := json.Unmarshal(plain, &header); err != nil || header.Serial != envelope.Serial || header.Lineage != envelope.Lineage {
		t.Fatalf("the envelope shows serial %d lineage %q, the state %+v (%v)", envelope.Serial, envelope.Lineage, header, err)
	}
	return plain
}
