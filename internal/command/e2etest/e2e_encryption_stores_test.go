package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/atrest"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/sharedstore"
)

// TestEncryptionOnSharedStores applies with state and plan encryption in
// working directories whose state is in etcd and in a terrane serve
// process (fronting SQLite), then stops each and searches what it stored
// on disk — etcd's data directory, every revision it keeps; the served
// database, its log and change history — for the secrets.
func TestEncryptionOnSharedStores(t *testing.T) {
	t.Parallel()
	t.Run("etcd", func(t *testing.T) {
		t.Parallel()
		server := etcdtest.Start(t)
		applyEncryptedAndDestroyHalf(t, sharedstore.EtcdOn(server).Env)
		server.Stop()
		assertDirHoldsNoSecrets(t, server.DataDir())
	})
	t.Run("serve", func(t *testing.T) {
		t.Parallel()
		served := filepath.Join(t.TempDir(), "served.db")
		store := sharedstore.Serve(t, terraneBinary, "sqlite://"+served)
		applyEncryptedAndDestroyHalf(t, store.Env)
		store.Serve.Stop()
		assertDirHoldsNoSecrets(t, filepath.Dir(served))
	})
}

// applyEncryptedAndDestroyHalf applies the encrypted configuration, reads
// it back, and removes one instance, so that intents, results and deletes
// all reach the store storeEnv names.
func applyEncryptedAndDestroyHalf(t *testing.T, storeEnv []string) {
	t.Helper()
	cfg := encryptionConfig(clitest.PBKDF2Encryption("main", clitest.EncryptedTargets))
	p := newE2EProjectEnv(t, cfg, append([]string{"TF_VAR_passphrase=" + clitest.EncPassphrase}, storeEnv...)...)
	p.mustRun("apply", "-auto-approve")
	if _, err := os.Stat(filepath.Join(p.dir, ".terrane", "state.db")); err == nil {
		t.Fatal("state went to the embedded store, not the shared one")
	}
	if out := p.mustRun("plan"); !strings.Contains(out, "No changes") {
		t.Errorf("plan over the encrypted shared state:\n%s", out)
	}
	p.write(strings.Replace(cfg, "count       = 3", "count       = 2", 1))
	p.mustRun("apply", "-auto-approve")
	if got := p.mustRun("state", "list"); strings.Count(got, "tpf_thing.web") != 2 {
		t.Errorf("state list after removing one instance:\n%s", got)
	}
	// A push first copies the shared store's state into .terrane/backups;
	// that copy is encrypted like the records it came from. (state pull
	// itself writes plain, as OpenTofu's does, so it goes elsewhere.)
	pulled := filepath.Join(t.TempDir(), "pulled.tfstate")
	if err := os.WriteFile(pulled, []byte(p.mustRun("state", "pull")), 0o600); err != nil {
		t.Fatal(err)
	}
	// As OpenTofu's, a successful push says nothing.
	p.mustRun("state", "push", "-force", pulled)
	backups, err := filepath.Glob(filepath.Join(p.dir, ".terrane", "backups", "*-before-push.tfstate"))
	if err != nil || len(backups) != 1 {
		t.Fatalf("backups before the push: %v %v", backups, err)
	}
	assertDirHoldsNoSecrets(t, filepath.Dir(backups[0]))
}

func assertDirHoldsNoSecrets(t *testing.T, dir string) {
	t.Helper()
	for secret, paths := range atrest.Search(t, dir, clitest.EncSecret, clitest.EncDescription) {
		t.Errorf("%v hold %q in clear", paths, secret)
	}
}
