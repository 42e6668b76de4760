package e2etest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/engine/journal"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestForceUnlock leaves an update intent open as a run on another host
// that stopped mid-call would, and releases it by its run ID: before, a
// plan respects the claim and leaves the instance alone; after, the plan
// resolves the intent and the claim is gone. Without claims, force-unlock
// explains that there is no lock; a run still alive here is refused.
func TestForceUnlock(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, `
resource "terraform_data" "x" {
  input = "v"
}
`)
	p.mustRun("apply", "-auto-approve", "-no-color")
	errOut := p.mustFail("force-unlock", "-force", "01JNOSUCHRUN")
	clitest.AssertContains(t, "force-unlock without claims", errOut, "No claims to release", "no global state lock", `no open intent of run "01JNOSUCHRUN"`)

	p.openIntent("terraform_data.x", "01JOTHERHOST", "elsewhere.example:4242")
	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "plan with another run's claim", out, "Another run is changing terraform_data.x", "Run 01JOTHERHOST", `"terrane force-unlock 01JOTHERHOST" releases it now`)

	out = p.mustRun("force-unlock", "-force", "-no-color", "01JOTHERHOST")
	clitest.AssertContains(t, "force-unlock", out, "Released the claims of run 01JOTHERHOST on 1 resource instance(s)", "terraform_data.x")
	out = p.mustRun("plan", "-no-color")
	if strings.Contains(clitest.Unwrapped(out), "Another run is changing") {
		t.Errorf("plan after force-unlock still respects the claim:\n%s", out)
	}
	clitest.AssertContains(t, "plan after force-unlock", out, "No changes.")

	// The test process is a run still alive on this host.
	p.openIntent("terraform_data.x", "01JTHISPROCESS", journal.Holder())
	errOut = p.mustFail("force-unlock", "-force", "01JTHISPROCESS")
	clitest.AssertContains(t, "force-unlock of a live run", errOut, "Run still running", "01JTHISPROCESS")
}

// openIntent records an update intent of run runID, held by holder, on the
// instance at address, as a run does before its provider call.
func (p *e2eProject) openIntent(address, runID, holder string) {
	p.t.Helper()
	addr, _ := addrs.ParseAbsResourceInstanceStr(address)
	store, closeStore := p.openRecords()
	defer closeStore()
	snap, err := store.Load(context.Background())
	if err != nil {
		p.t.Fatal(err)
	}
	res := snap.State.Resource(addr.ContainingResource())
	inst := snap.State.ResourceInstance(addr).DeepCopy()
	inst.Intent = &states.Intent{Operation: states.IntentUpdate, RunID: runID, Holder: holder, StartedAt: time.Now().UTC()}
	prior := snap.InstanceVersions[address]
	if _, err := store.Commit(context.Background(), []recordstore.InstanceChange{{Addr: addr, ProviderConfig: res.ProviderConfig, Instance: inst, Prior: &prior}}); err != nil {
		p.t.Fatal(err)
	}
}
