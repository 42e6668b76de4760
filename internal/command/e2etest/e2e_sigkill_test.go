package e2etest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/workdir"
)

// sigkillRoundsEnv, when set, is how many rounds TestE2ESIGKILLApply runs;
// CI runs a few, a longer search for rare interleavings sets more.
const sigkillRoundsEnv = "TERRANE_SIGKILL_ROUNDS"

// sigkillConfig is round's configuration: the count and description change
// from round to round, so applies create, update and delete.
func sigkillConfig(round int) string {
	count := 60
	if round%3 == 2 {
		count = 30
	}
	return lifecycleHeader + fmt.Sprintf(`
resource "tpf_thing" "n" {
  count       = %d
  name        = "n-${count.index}"
  description = "round %d"
}
`, count, round)
}

// TestE2ESIGKILLApply kills a whole `terrane apply` (the CLI process and
// every provider it started) at random points, many times. After each kill
// the store opens; no more operations are left uncertain than
// -parallelism allows; the next plan reports every interrupted create by
// address; and every object in the provider's cloud is recorded, with the
// values the cloud has, or reported. The reported creates are then resolved
// as a user would (delete the stray object, terrane state rm) and the next
// round starts from there.
func TestE2ESIGKILLApply(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills and restarts real terrane processes")
	}
	p := newE2EProject(t, sigkillConfig(0))
	rounds := 10
	if n, err := strconv.Atoi(os.Getenv(sigkillRoundsEnv)); err == nil && n > 0 {
		rounds = n
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 16))
	parallelisms := []int{1, 3, 10}
	for round := range rounds {
		parallelism := parallelisms[round%len(parallelisms)]
		p.write(sigkillConfig(round))
		killAfter := time.Duration(rng.IntN(300)) * time.Millisecond
		killed, output := runAndKillApply(t, p, parallelism, killAfter)
		uncertain := checkAfterKill(t, p, parallelism, output)
		t.Logf("round %d: -parallelism=%d, kill %s into the apply (killed: %t): %d operations uncertain", round, parallelism, killAfter, killed, uncertain)
		if t.Failed() {
			return
		}
	}
}

// runAndKillApply starts an apply and, killAfter after it began changing
// objects, kills its process group. It reports whether it killed it, and
// the apply's output.
func runAndKillApply(t *testing.T, p *e2eProject, parallelism int, killAfter time.Duration) (bool, string) {
	t.Helper()
	cmd := p.command("apply", "-auto-approve", "-no-color", fmt.Sprintf("-parallelism=%d", parallelism))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the kill reaches the providers too
	var out clitest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	kill := func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited // reaped: its pid names no live process, so its claims lapse
	}
	started := regexp.MustCompile(`: (Creating|Modifying|Destroying)\.\.\.`)
	for deadline := time.Now().Add(2 * time.Minute); !started.MatchString(out.String()); {
		select {
		case err := <-exited:
			if err != nil {
				t.Fatalf("apply failed on its own: %v\n%s", err, out.String())
			}
			return false, out.String()
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			kill()
			t.Fatalf("the apply never began\n%s", out.String())
		}
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("apply failed on its own: %v\n%s", err, out.String())
		}
		return false, out.String()
	case <-time.After(killAfter):
		kill()
		return true, out.String()
	}
}

// recordedThing is what a record says about one tpf_thing instance.
type recordedThing struct {
	id, description string
	intent          string // the open intent's operation, or ""
}

// recordedThings reads the workspace's tpf_thing records straight from the
// store, failing the test if the store does not open.
func recordedThings(t *testing.T, dir string) map[string]recordedThing {
	t.Helper()
	store, closeStore, err := workdir.OpenStore(dir, workdir.DefaultProject, workdir.DefaultWorkspace, nil)
	if err != nil {
		t.Fatalf("the store does not open after the kill: %v", err)
	}
	defer closeStore()
	snapshot, err := store.Load(context.Background())
	if err != nil {
		t.Fatalf("the state does not load after the kill: %v", err)
	}
	out := map[string]recordedThing{}
	for _, entry := range snapshot.State.AllResourceInstances() {
		var thing recordedThing
		if cur := entry.Instance.Current; cur != nil {
			var attrs map[string]any
			if err := json.Unmarshal(cur.AttrsJSON, &attrs); err != nil {
				t.Fatal(err)
			}
			thing.id, _ = attrs["id"].(string)
			thing.description, _ = attrs["description"].(string)
		}
		if intent := entry.Instance.Intent; intent != nil {
			thing.intent = intent.Operation.String()
		}
		out[entry.Addr.String()] = thing
	}
	return out
}

var unfinishedCreate = regexp.MustCompile(`started creating (tpf_thing\.n\[\d+\])`)

// checkAfterKill checks what a killed apply left and resolves its
// interrupted creates. It returns how many operations were uncertain.
func checkAfterKill(t *testing.T, p *e2eProject, parallelism int, applyOutput string) int {
	t.Helper()
	before := recordedThings(t, p.dir)
	var open []string
	for addr, thing := range before {
		if thing.intent != "" {
			open = append(open, addr+" ("+thing.intent+")")
		}
	}
	if len(open) > parallelism {
		t.Errorf("%d operations left open with -parallelism=%d: %v\napply output:\n%s", len(open), parallelism, open, applyOutput)
	}
	if out, code := runBinary(t, p, "state", "list"); code != 0 {
		t.Errorf("terrane state list after the kill: exit %d\n%s", code, out)
	}
	// The next plan reads interrupted updates and deletes back and reports
	// interrupted creates.
	planOut, _ := runBinary(t, p, "plan", "-no-color")
	reported := map[string]bool{}
	for _, match := range unfinishedCreate.FindAllStringSubmatch(planOut, -1) {
		reported[match[1]] = true
	}
	if len(reported) > parallelism {
		t.Errorf("%d creates reported unfinished with -parallelism=%d:\n%s", len(reported), parallelism, planOut)
	}
	for addr, thing := range before {
		if thing.intent == "create" && !reported[addr] {
			t.Errorf("the interrupted create of %s is not reported by the next plan:\n%s", addr, planOut)
		}
	}
	after := recordedThings(t, p.dir)
	cloud := p.objects("tpf_thing")
	for name, obj := range cloud {
		addr := "tpf_thing.n[" + strings.TrimPrefix(name, "n-") + "]"
		id, _ := obj.attrs["id"].(string)
		switch rec, ok := after[addr]; {
		case reported[addr]:
		case !ok || rec.id != id:
			t.Errorf("the cloud has %s (%s), which no record holds and no report names: it would be forgotten", name, id)
		case rec.description != obj.attrs["description"]:
			t.Errorf("%s is recorded as %q, the cloud has %q: a finished call's result was lost", addr, rec.description, obj.attrs["description"])
		}
	}
	for addr, rec := range after {
		name := "n-" + strings.TrimSuffix(strings.TrimPrefix(addr, "tpf_thing.n["), "]")
		if rec.id != "" && rec.intent == "" && cloud[name].attrs["id"] != rec.id {
			t.Errorf("%s is recorded with object %s, which the cloud does not have", addr, rec.id)
		}
	}
	// Resolve the reported creates as the report says: the object is
	// deleted by hand, and the attempt forgotten.
	for addr := range reported {
		name := "n-" + strings.TrimSuffix(strings.TrimPrefix(addr, "tpf_thing.n["), "]")
		if obj, ok := cloud[name]; ok {
			_ = os.Remove(obj.path)
		}
		if out, code := runBinary(t, p, "state", "rm", addr); code != 0 {
			t.Fatalf("terrane state rm %s: exit %d\n%s", addr, code, out)
		}
	}
	return len(open)
}

// runBinary runs the terrane binary in dir and returns its combined output
// and exit code.
func runBinary(t *testing.T, p *e2eProject, args ...string) (string, int) {
	t.Helper()
	cmd := p.command(args...)
	out, err := cmd.CombinedOutput()
	if exitErr, ok := err.(*exec.ExitError); ok {
		return string(out), exitErr.ExitCode()
	} else if err != nil {
		t.Fatalf("terrane %s: %v", strings.Join(args, " "), err)
	}
	return string(out), 0
}
