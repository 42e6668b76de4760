package e2etest

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/clitest"
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
	t.Parallel()
	server := etcdtest.Start(t)
	for _, kind := range sharedStoreKinds(server, servedSQLite) {
		t.Run(kind.name+" restart", func(t *testing.T) {
			t.Parallel()
			store := kind.start(t)
			p := newE2EProjectEnv(t, outageConfig, store.Env...)
			apply := startInBackground(t, p, "apply", "-auto-approve", "-no-color")
			clitest.WaitFor(t, "apply", apply.out, regexp.MustCompile(`(?s)(tpf_thing\.slow\[\d\]: Creating\.\.\..*){4}`))

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
			clitest.AssertContains(t, "apply", out.String(), "Apply complete! Resources: 4 added, 0 changed, 0 destroyed.")
			// A serve that is down fails calls at once, so the apply waits
			// and says so; etcd's client waits for its member itself.
			if warned := strings.Contains(out.String()+errOut.String(), "The state store was unavailable during the apply"); warned != (store.Serve != nil) {
				t.Errorf("warned of the outage: %v, want %v\n%s\n%s", warned, store.Serve != nil, out.String(), errOut.String())
			}
			if got := strings.Join(p.recordedInstances(), " "); got != "tpf_thing.slow[0] tpf_thing.slow[1] tpf_thing.slow[2] tpf_thing.slow[3]" {
				t.Errorf("records after the outage: %s", got)
			}
			clitest.AssertContains(t, "plan after the outage", p.mustRun("plan", "-no-color"), "No changes.")
		})
	}
}

var unrecordedSlow = regexp.MustCompile(`(tpf_thing\.slow\[\d\]) \(id = ([0-9a-f]+)\)`)

// TestE2EStoreOutageOutlastsRetry keeps the shared store away for longer
// than the backend's retry_timeout while provider calls answer. The
// answers must not be lost with the run: the apply lists every address
// with its object's ID and writes them to errored.tfstate; once the store
// is back the next plan says the same and does nothing else, and `terrane
// state push errored.tfstate` takes them in, after which nothing is
// created twice. The store is a terrane serve, which fails calls at once
// while it is down; an etcd cluster makes each attempt wait out the
// request timeout first, and once the journal gives up the run goes on the
// same way (the journal's tests cover etcd's outage window).
func TestE2EStoreOutageOutlastsRetry(t *testing.T) {
	t.Parallel()
	store := sharedstore.Serve(t, terraneBinary, servedSQLite(t))
	p := newE2EProjectEnv(t, outageConfig, append([]string{"TERRANE_BACKEND_RETRY_TIMEOUT=2s"}, store.Env...)...)
	apply := startInBackground(t, p, "apply", "-auto-approve", "-no-color")
	clitest.WaitFor(t, "apply", apply.out, regexp.MustCompile(`(?s)(tpf_thing\.slow\[\d\]: Creating\.\.\..*){4}`))
	store.Serve.Stop()
	if err := apply.wait(t, "apply while the store stays away", 2*time.Minute); err == nil {
		t.Fatalf("apply succeeded with its store away:\n%s\n%s", apply.out.String(), apply.errOut.String())
	}
	kept := unrecordedSlow.FindAllStringSubmatch(apply.errOut.String(), -1)
	if got := uniqueSorted(kept, 0); len(got) != 4 {
		t.Fatalf("the apply listed %d results with their IDs, want all 4:\n%s", len(got), apply.errOut.String())
	}
	cloud := p.objects("tpf_thing")
	printed := checkUnrecordedKept(t, p, apply.errOut.String(), kept, func(addr string) string {
		return "slow-" + strings.TrimSuffix(strings.TrimPrefix(addr, "tpf_thing.slow["), "]")
	})

	store.Serve.Restart(t)
	takeUnrecordedIn(t, p, printed)
	clitest.AssertContains(t, "plan after the push", p.mustRun("plan", "-no-color"), "No changes.")
	after := p.objects("tpf_thing")
	if len(after) != 4 {
		t.Errorf("the cloud holds %d objects, want 4", len(after))
	}
	for name, obj := range cloud {
		if after[name].attrs["id"] != obj.attrs["id"] {
			t.Errorf("%s is object %v now, was %v", name, after[name].attrs["id"], obj.attrs["id"])
		}
	}
}

// TestE2EStoreOutageInterrupted stops an apply twice (the second interrupt
// does not wait) while the answers of its provider calls wait for a shared
// store that went away. The answers must not go with the process: the
// apply lists every address and ID and writes them to errored.tfstate, as
// it does when the store refuses them, and state push takes them in.
func TestE2EStoreOutageInterrupted(t *testing.T) {
	t.Parallel()
	store := sharedstore.Serve(t, terraneBinary, servedSQLite(t))
	p := newE2EProjectEnv(t, outageConfig, store.Env...)
	apply := startInBackground(t, p, "apply", "-auto-approve", "-no-color")
	clitest.WaitFor(t, "apply", apply.out, regexp.MustCompile(`(?s)(tpf_thing\.slow\[\d\]: Creating\.\.\..*){4}`))
	store.Serve.Stop()
	interruptWhileResultsWait(t, p, apply, 4)
	clitest.AssertContains(t, "the stopped apply's errors", apply.errOut.String(), "Two interrupts received", "the run was stopped before the store had their results")
	kept := unrecordedSlow.FindAllStringSubmatch(apply.errOut.String(), -1)
	if got := uniqueSorted(kept, 0); len(got) != 4 {
		t.Fatalf("the apply listed %d results with their IDs, want all 4:\n%s", len(got), apply.errOut.String())
	}
	cloud := p.objects("tpf_thing")
	printed := checkUnrecordedKept(t, p, apply.errOut.String(), kept, func(addr string) string {
		return "slow-" + strings.TrimSuffix(strings.TrimPrefix(addr, "tpf_thing.slow["), "]")
	})

	store.Serve.Restart(t)
	takeUnrecordedIn(t, p, printed)
	clitest.AssertContains(t, "plan after the push", p.mustRun("plan", "-no-color"), "No changes.")
	for name, obj := range cloud {
		if after := p.objects("tpf_thing")[name]; after.attrs["id"] != obj.attrs["id"] {
			t.Errorf("%s is object %v now, was %v", name, after.attrs["id"], obj.attrs["id"])
		}
	}
}

// interruptWhileResultsWait stops apply, whose store went away, with two
// interrupts (the second does not wait) once its calls have created
// objects and their answers have had time to reach the journal, which
// waits for the store for two minutes; the apply must fail.
func interruptWhileResultsWait(t *testing.T, p *e2eProject, apply *backgroundRun, objects int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for len(p.objects("tpf_thing")) < objects && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(3 * time.Second)
	for range 2 {
		if err := apply.cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if err := apply.wait(t, "apply after two interrupts", 30*time.Second); err == nil {
		t.Fatalf("apply succeeded after two interrupts:\n%s\n%s", apply.out.String(), apply.errOut.String())
	}
}
