package command

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
)

const outageConfig = lifecycleHeader + `
resource "tpf_thing" "slow" {
  count = 4
  name  = "slow-${count.index}"
  fail  = "slow"
}
`

// TestE2EStoreOutageDuringApply takes the shared store away while provider
// calls are running and brings it back after they have answered: the
// apply records every answer once the store is back and succeeds, and the
// next plan has nothing to do. A terrane serve that restarts is retried
// (the calls fail fast while it is down); an etcd member that restarts
// within the request timeout is waited for by the client itself.
func TestE2EStoreOutageDuringApply(t *testing.T) {
	binary := buildCLI(t)
	server := etcdtest.Start(t)
	for _, kind := range sharedStoreKinds(binary, server, servedSQLite) {
		t.Run(kind.name+" restart", func(t *testing.T) {
			store := kind.start(t)
			store.Setenv(t)
			p := newE2EProject(t, outageConfig)
			apply := startInBackground(t, binary, p.dir, "apply", "-auto-approve", "-no-color")
			waitFor(t, "apply", apply.out, regexp.MustCompile(`(?s)(tpf_thing\.slow\[\d\]: Creating\.\.\..*){4}`))

			if store.Serve != nil {
				store.Serve.Stop()
			} else {
				store.Etcd.Stop()
			}
			time.Sleep(4 * time.Second) // the calls answer while the store is away
			if store.Serve != nil {
				store.Serve.Restart(t)
			} else {
				store.Etcd.Restart(t)
			}
			if err := apply.wait(t, "apply after the store came back", 90*time.Second); err != nil {
				t.Fatalf("apply failed: %v\n%s\n%s", err, apply.out.String(), apply.errOut.String())
			}
			out, errOut := apply.out, apply.errOut
			assertContains(t, "apply", out.String(), "Apply complete! Resources: 4 added, 0 changed, 0 destroyed.")
			// A serve that is down fails calls at once, so the apply waits
			// and says so; etcd's client waits for its member itself.
			if warned := strings.Contains(out.String()+errOut.String(), "The state store was unavailable during the apply"); warned != (store.Serve != nil) {
				t.Errorf("warned of the outage: %v, want %v\n%s\n%s", warned, store.Serve != nil, out.String(), errOut.String())
			}
			if got := strings.Join(p.recordedInstances(), " "); got != "tpf_thing.slow[0] tpf_thing.slow[1] tpf_thing.slow[2] tpf_thing.slow[3]" {
				t.Errorf("records after the outage: %s", got)
			}
			assertContains(t, "plan after the outage", p.mustRun("plan", "-no-color"), "No changes.")
		})
	}
}
