package command

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/sharedstore"
	"github.com/terrane/terrane/internal/workdir"
)

// storeSuite is the CLI suite TestE2EStores runs against each shared
// store: show, output, state, import and workspaces (the end-to-end
// lifecycle and saved plan run against them in package e2etest). Each
// test also runs on its own against the embedded store.
var storeSuite = []struct {
	name string
	test func(*testing.T)
}{
	{"import", TestImportAdoptsAnExistingObject},
	{"show and output", TestShowAndOutputAfterApply},
	{"workspaces", TestWorkspaceLifecycle},
	{"state push list pull", TestStatePushListPull},
	{"state push refusals", TestStatePushRefusals},
	{"state mv", TestStateMvObjectsKeepTheirContent},
	{"state rm", TestStateRm},
	{"state show", TestStateShow},
}

// TestE2EStores runs the CLI suite with the working directory's state in
// a real etcd server and in a real `terrane serve` process (over TLS, with
// a token found as OpenTofu finds one: a TF_TOKEN_ variable), each test on
// a store of its own.
func TestE2EStores(t *testing.T) {
	binary := buildCLI(t)
	server := etcdtest.Start(t)
	for _, kind := range sharedStoreKinds(binary, server, servedSQLite) {
		t.Run(kind.name, func(t *testing.T) {
			for _, tc := range storeSuite {
				t.Run(tc.name, func(t *testing.T) {
					store := kind.start(t)
					if store.Serve != nil {
						withTokenFromEnvironment(store)
					}
					store.Setenv(t)
					tc.test(t)
					// The test left its working directory current: no state
					// may have gone to an embedded store there.
					if _, err := os.Stat(filepath.Join(workdir.DirName, "state.db")); err == nil {
						t.Errorf("the working directory has an embedded store; state went there instead of to %s", kind.name)
					}
				})
			}
		})
	}
}

// storeKind is a shared store the end-to-end tests run against; start
// gives each test a store of its own.
type storeKind struct {
	name  string
	start func(t *testing.T) *sharedstore.Store
}

// sharedStoreKinds are etcd (a key prefix of server's per test) and a
// terrane serve process over TLS in front of the store serveBackend names.
func sharedStoreKinds(binary string, server *etcdtest.Server, serveBackend func(t *testing.T) string) []storeKind {
	return []storeKind{
		{"etcd", func(*testing.T) *sharedstore.Store { return sharedstore.EtcdOn(server) }},
		{"serve", func(t *testing.T) *sharedstore.Store { return sharedstore.Serve(t, binary, serveBackend(t)) }},
	}
}

// servedSQLite is a SQLite file of the test's for a terrane serve to front.
func servedSQLite(t *testing.T) string {
	return "sqlite://" + filepath.Join(t.TempDir(), "served.db")
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

// TestWatchFollowsTheWorkingDirectorysStore runs terrane watch without
// -address or -backend in a working directory whose state is in etcd: it
// watches that store, as every other command there uses it.
func TestWatchFollowsTheWorkingDirectorysStore(t *testing.T) {
	sharedstore.Etcd(t).Setenv(t)
	p := newStateProject(t)
	p.mustRun("state", "push", corpusState(t, "basic.tfstate"))
	ctx, cancel := context.WithCancel(t.Context())
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() { done <- watchUntil(ctx, []string{"-json", "-type", "Output"}, stdout, stderr) }()
	waitFor(t, "watch", stdout, regexp.MustCompile(`"event":"end_of_snapshot"`))
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("watch exited %d: %s", code, stderr.String())
	}
	if n := strings.Count(stdout.String(), `"event":"upsert"`); n != 4 {
		t.Errorf("watch showed %d outputs of the etcd store, want 4:\n%s", n, stdout.String())
	}
}
