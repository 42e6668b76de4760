package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/sharedstore"
	"github.com/terrane/terrane/internal/workdir"
)

// storeSuite are the end-to-end tests TestE2EStores runs against each
// shared store; each also runs on its own against the embedded store.
var storeSuite = []struct {
	name string
	test func(t *testing.T, env ...string) *e2eProject
}{
	{"lifecycle", testE2ELifecycle},
	{"saved plan", testE2ESavedPlan},
}

// TestE2EStores runs storeSuite with the project's state in a real etcd
// server and in a real `terrane serve` process (over TLS, with a token
// found as OpenTofu finds one: a TF_TOKEN_ variable), each test on a store
// of its own.
func TestE2EStores(t *testing.T) {
	t.Parallel()
	server := etcdtest.Start(t)
	for _, kind := range sharedStoreKinds(server, servedSQLite) {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			for _, tc := range storeSuite {
				t.Run(tc.name, func(t *testing.T) {
					t.Parallel()
					store := kind.start(t)
					if store.Serve != nil {
						withTokenFromEnvironment(store)
					}
					p := tc.test(t, store.Env...)
					// No state may have gone to an embedded store in the
					// project.
					if _, err := os.Stat(filepath.Join(p.dir, workdir.DirName, "state.db")); err == nil {
						t.Errorf("the project has an embedded store; state went there instead of to %s", kind.name)
					}
				})
			}
		})
	}
}

// withTokenFromEnvironment moves a serve store's token from
// TERRANE_BACKEND_TOKEN to the TF_TOKEN_ variable of its host.
func withTokenFromEnvironment(store *sharedstore.Store) *sharedstore.Store {
	var env []string
	for _, entry := range store.Env {
		if !strings.HasPrefix(entry, "TERRANE_BACKEND_TOKEN=") {
			env = append(env, entry)
		}
	}
	store.Env = append(env, "TF_TOKEN_127_0_0_1="+store.Serve.Token)
	return store
}
