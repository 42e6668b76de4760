package e2etest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/states/workspaces"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/storeconfig"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/sharedstore"
	"github.com/terrane/terrane/internal/workdir"
	"github.com/terrane/terrane/proto/pbresource"
)

const migrationResources = `
resource "tpf_thing" "a" {
  name = "a"
}

resource "tpf_thing" "b" {
  count = 2
  name  = "b-${count.index}"
}

output "a_id" {
  value = tpf_thing.a.id
}
`

// withBackend is the migration scenario's configuration with a backend
// "terrane" block of the given body.
func withBackend(body string) string {
	return lifecycleHeader + "\nterraform {\n  backend \"terrane\" {\n" + body + "  }\n}\n" + migrationResources
}

// recordsOf reads every record of the default project straight from a
// store, by name, for comparing stores record by record.
func recordsOf(t *testing.T, dir string, settings storeconfig.Settings) map[string]*pbresource.Resource {
	t.Helper()
	backend, ds := workdir.OpenBackend(dir, settings)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	defer backend.Close()
	contents, err := workspaces.ReadProject(context.Background(), backend, workdir.DefaultProject)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*pbresource.Resource{}
	for _, list := range contents {
		for _, res := range list {
			out[res.GetId().GetType().GetKind()+"/"+res.GetId().GetName()] = res
		}
	}
	return out
}

// assertSameRecords checks that a migration carried every record over with
// its Uid, Generation and owner.
func assertSameRecords(t *testing.T, what string, want, got map[string]*pbresource.Resource) {
	t.Helper()
	if len(got) != len(want) || len(want) < 5 {
		t.Fatalf("%s: %d records, want %d (%v)", what, len(got), len(want), sortedNames(got))
	}
	for name, res := range want {
		copied := got[name]
		if copied == nil {
			t.Errorf("%s: %s was not copied", what, name)
			continue
		}
		if copied.GetId().GetUid() != res.GetId().GetUid() || copied.GetGeneration() != res.GetGeneration() || !sameOwner(copied.GetOwner(), res.GetOwner()) {
			t.Errorf("%s: %s copied as uid %s generation %s, want uid %s generation %s", what, name,
				copied.GetId().GetUid(), copied.GetGeneration(), res.GetId().GetUid(), res.GetGeneration())
		}
	}
}

func sameOwner(a, b *pbresource.ID) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return store.SameOwner(a, b)
}

// TestInitMigratesStateBetweenStores moves one configuration's state from
// the embedded store to etcd, from etcd to a terrane serve process, and
// back to the embedded store, with init -migrate-state as OpenTofu moves
// state between backends: records keep their Uids and Generations, a
// changed backend is refused until init, and a store that already holds
// state is replaced only with -force-copy.
func TestInitMigratesStateBetweenStores(t *testing.T) {
	t.Parallel()
	etcdStore := sharedstore.EtcdOn(etcdtest.Start(t))
	served := sharedstore.Serve(t, terraneBinary, servedSQLite(t))
	etcdBlock := fmt.Sprintf("    endpoints = [%q]\n    prefix    = %q\n", etcdStore.Etcd.Endpoint, strings.TrimPrefix(etcdStore.Env[1], "TERRANE_BACKEND_PREFIX="))
	serveBlock := fmt.Sprintf("    address = %q\n    ca_file = %q\n", "https://"+served.Serve.Address, served.Serve.CAFile)
	embedded := storeconfig.Settings{}
	inEtcd := storeconfig.Settings{Endpoints: []string{etcdStore.Etcd.Endpoint}, Prefix: strings.TrimPrefix(etcdStore.Env[1], "TERRANE_BACKEND_PREFIX=")}
	inServe := storeconfig.Settings{Address: "https://" + served.Serve.Address, CAFile: served.Serve.CAFile, Token: served.Serve.Token}

	p := newE2EProjectEnv(t, withBackend(""), "TF_TOKEN_127_0_0_1="+served.Serve.Token)
	if rec, err := storeconfig.ReadRecord(p.dir); err != nil || rec == nil || rec.Backend.Block == nil {
		t.Fatalf("init recorded %+v (%v), want the backend block", rec, err)
	}
	p.mustRun("apply", "-auto-approve")
	original := recordsOf(t, p.dir, embedded)

	// Embedded to etcd.
	p.write(withBackend(etcdBlock))
	_, errOut, code := p.run("plan", "-no-color")
	if code != 1 {
		t.Fatalf("plan after the backend changed: exit %d", code)
	}
	clitest.AssertContains(t, "plan after the backend changed", errOut, `Backend initialization required: please run "terrane init"`, "Backend configuration block has changed")
	_, errOut, _ = p.run("init", "-no-color")
	clitest.AssertContains(t, "init without -migrate-state", errOut, "Backend configuration changed", "terrane init -migrate-state", "terrane init -reconfigure")
	_, errOut, _ = p.run("init", "-migrate-state", "-input=false", "-no-color")
	clitest.AssertContains(t, "init -input=false", errOut, "interactive input is disabled", "-force-copy")
	out, errOut, code := p.runWithInput("yes\n", "init", "-migrate-state", "-no-color")
	if code != 0 {
		t.Fatalf("init -migrate-state: exit %d\n%s\n%s", code, out, errOut)
	}
	clitest.AssertContains(t, "init -migrate-state", out, "Do you want to copy existing state to the new backend?", `- Copied workspace "default"`, "the etcd cluster at "+etcdStore.Etcd.Endpoint)
	assertSameRecords(t, "embedded to etcd", original, recordsOf(t, p.dir, inEtcd))
	clitest.AssertContains(t, "plan on etcd", p.mustRun("plan", "-no-color"), "No changes.")

	// etcd to serve, without a question.
	p.write(withBackend(serveBlock))
	out = p.mustRun("init", "-force-copy", "-no-color")
	clitest.AssertContains(t, "init -force-copy", out, `- Copied workspace "default"`)
	assertSameRecords(t, "etcd to serve", original, recordsOf(t, p.dir, inServe))
	clitest.AssertContains(t, "plan on serve", p.mustRun("plan", "-no-color"), "No changes.")
	p.write(withBackend(serveBlock) + "\nresource \"tpf_thing\" \"c\" {\n  name = \"c\"\n}\n")
	p.mustRun("apply", "-auto-approve")

	// Back to the embedded store, which still holds the first state: it is
	// replaced only with -force-copy.
	p.write(withBackend("") + "\nresource \"tpf_thing\" \"c\" {\n  name = \"c\"\n}\n")
	_, errOut, _ = p.run("init", "-migrate-state", "-no-color")
	clitest.AssertContains(t, "init into a store holding state", errOut, "The new store already holds state", `"default"`, "-force-copy")
	p.mustRun("init", "-migrate-state", "-force-copy")
	if got := strings.Join(p.recordedInstances(), " "); got != "tpf_thing.a tpf_thing.b[0] tpf_thing.b[1] tpf_thing.c" {
		t.Errorf("embedded store after migrating back: %s", got)
	}
	assertSameRecords(t, "serve to embedded", recordsOf(t, p.dir, inServe), recordsOf(t, p.dir, embedded))
	clitest.AssertContains(t, "plan back on the embedded store", p.mustRun("plan", "-no-color"), "No changes.")

	// -reconfigure switches without copying: the empty store plans every
	// object anew, and the state stays where it was.
	p.write(withBackend(fmt.Sprintf("    endpoints = [%q]\n    prefix    = \"/empty/\"\n", etcdStore.Etcd.Endpoint)))
	out = p.mustRun("init", "-reconfigure", "-no-color")
	if strings.Contains(out, "Copied") {
		t.Errorf("-reconfigure copied state:\n%s", out)
	}
	clitest.AssertContains(t, "plan after -reconfigure", p.mustRun("plan", "-no-color"), "Plan: 3 to add")
}
