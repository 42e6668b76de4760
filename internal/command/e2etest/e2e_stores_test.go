package e2etest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/sharedstore"
	"github.com/terrane/terrane/internal/workdir"
)

// storeSuite are the end-to-end tests TestE2EStores runs against each
// shared store: the lifecycle and saved plan, show, output, state, import
// and workspaces. Each also runs on its own against the embedded store.
var storeSuite = []struct {
	name string
	test func(t *testing.T, env ...string) *e2eProject
}{
	{"lifecycle", testE2ELifecycle},
	{"saved plan", testE2ESavedPlan},
	{"import", testImportAdoptsAnExistingObject},
	{"show and output", testShowAndOutputAfterApply},
	{"workspaces", testWorkspaceLifecycle},
	{"state push list pull", testStatePushListPull},
	{"state push refusals", testStatePushRefusals},
	{"state mv", testStateMvObjectsKeepTheirContent},
	{"state rm", testStateRm},
	{"state show", testStateShow},
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

// TestWatchFollowsTheWorkingDirectorysStore runs terrane watch without
// -address or -backend in a project whose state is in etcd: it watches
// that store, as every other command there uses it.
func TestWatchFollowsTheWorkingDirectorysStore(t *testing.T) {
	t.Parallel()
	p := newStateProject(t, sharedstore.Etcd(t).Env...)
	p.mustRun("state", "push", corpusState(t, "basic.tfstate"))
	watch := startInBackground(t, p, "watch", "-json", "-type", "Output")
	clitest.WaitFor(t, "watch", watch.out, regexp.MustCompile(`"event":"end_of_snapshot"`))
	if code := watch.interrupt(t, "terrane watch"); code != 0 {
		t.Fatalf("watch exited %d: %s", code, watch.errOut.String())
	}
	if n := strings.Count(watch.out.String(), `"event":"upsert"`); n != 4 {
		t.Errorf("watch showed %d outputs of the etcd store, want 4:\n%s", n, watch.out.String())
	}
}
