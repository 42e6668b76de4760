package command

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/sharedstore"
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
	cases := []struct {
		name   string
		start  func(t *testing.T) *sharedstore.Store
		stop   func(store *sharedstore.Store)
		resume func(t *testing.T, store *sharedstore.Store)
		warned bool
	}{
		{"serve restart",
			func(t *testing.T) *sharedstore.Store {
				return sharedstore.Serve(t, binary, "sqlite://"+filepath.Join(t.TempDir(), "served.db"))
			},
			func(store *sharedstore.Store) { store.Serve.Stop() },
			func(t *testing.T, store *sharedstore.Store) { store.Serve.Restart(t) },
			true},
		{"etcd restart",
			func(*testing.T) *sharedstore.Store { return sharedstore.EtcdOn(server) },
			func(store *sharedstore.Store) { store.Etcd.Stop() },
			func(t *testing.T, store *sharedstore.Store) { store.Etcd.Restart(t) },
			false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			store := tc.start(t)
			store.Setenv(t)
			p := newE2EProject(t, outageConfig)
			apply := exec.Command(binary, "apply", "-auto-approve", "-no-color")
			apply.Dir = p.dir
			var out, errOut syncBuffer
			apply.Stdout, apply.Stderr = &out, &errOut
			if err := apply.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- apply.Wait() }()
			t.Cleanup(func() { _ = apply.Process.Kill() })
			waitFor(t, "apply", &out, regexp.MustCompile(`(?s)(tpf_thing\.slow\[\d\]: Creating\.\.\..*){4}`))

			tc.stop(store)
			time.Sleep(4 * time.Second) // the calls answer while the store is away
			tc.resume(t, store)
			select {
			case err := <-exited:
				if err != nil {
					t.Fatalf("apply failed: %v\n%s\n%s", err, out.String(), errOut.String())
				}
			case <-time.After(90 * time.Second):
				t.Fatalf("apply did not finish after the store came back\n%s\n%s", out.String(), errOut.String())
			}
			assertContains(t, "apply", out.String(), "Apply complete! Resources: 4 added, 0 changed, 0 destroyed.")
			if warned := strings.Contains(out.String()+errOut.String(), "The state store was unavailable during the apply"); warned != tc.warned {
				t.Errorf("warned of the outage: %v, want %v\n%s\n%s", warned, tc.warned, out.String(), errOut.String())
			}
			if got := strings.Join(p.recordedInstances(), " "); got != "tpf_thing.slow[0] tpf_thing.slow[1] tpf_thing.slow[2] tpf_thing.slow[3]" {
				t.Errorf("records after the outage: %s", got)
			}
			assertContains(t, "plan after the outage", p.mustRun("plan", "-no-color"), "No changes.")
		})
	}
}
