package command

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/sharedstore"
)

// sharedConfig has two independent resources and a way to make the
// provider hang while it changes one, so a run can be caught mid-call.
const sharedConfig = lifecycleHeader + `
variable "suffix" {
  type    = string
  default = ""
}

variable "fail" {
  type    = string
  default = null
}

resource "tpf_thing" "a" {
  name        = "a"
  description = "a${var.suffix}"
  fail        = var.fail
}

resource "tpf_thing" "b" {
  name        = "b"
  description = "b${var.suffix}"
}
`

// dirRun is one terrane process to run in a working directory.
type dirRun struct {
	dir  string
	args []string
}

// runInDirs starts one terrane process per run at once and waits for all.
func runInDirs(t *testing.T, binary string, runs ...dirRun) []processResult {
	t.Helper()
	results := make([]processResult, len(runs))
	var wg sync.WaitGroup
	for i, run := range runs {
		wg.Go(func() {
			cmd := exec.Command(binary, run.args...)
			cmd.Dir = run.dir
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			code := 0
			if exitErr, ok := err.(*exec.ExitError); ok {
				code = exitErr.ExitCode()
			} else if err != nil {
				code = -1
				errOut.WriteString(err.Error())
			}
			results[i] = processResult{args: run.args, stdout: out.String(), stderr: errOut.String(), code: code}
		})
	}
	wg.Wait()
	return results
}

// TestE2ETwoWorkingDirectoriesShareAStore runs terrane as two colleagues
// would: two working directories of one configuration, as on two machines,
// sharing one etcd cluster or one terrane serve. Applies on disjoint
// targets proceed at once; an apply of an address the other run is
// changing names that run and its host and process, and changes nothing
// there.
func TestE2ETwoWorkingDirectoriesShareAStore(t *testing.T) {
	binary := buildCLI(t)
	server := etcdtest.Start(t)
	stores := []struct {
		name  string
		start func(t *testing.T) *sharedstore.Store
	}{
		{"etcd", func(*testing.T) *sharedstore.Store { return sharedstore.EtcdOn(server) }},
		{"serve", func(t *testing.T) *sharedstore.Store {
			return sharedstore.Serve(t, binary, "etcd://"+strings.TrimPrefix(sharedstore.EtcdOn(server).Etcd.Endpoint, "http://"))
		}},
	}
	for _, kind := range stores {
		t.Run(kind.name, func(t *testing.T) {
			kind.start(t).Setenv(t)
			first := newE2EProject(t, sharedConfig)
			second := newE2EProject(t, sharedConfig)
			second.cloud = first.cloud
			second.write(sharedConfig)
			testDisjointAppliesFromTwoDirectories(t, binary, first, second)
			testConflictingApplyFromAnotherDirectory(t, binary, first, second)
		})
	}
}

func testDisjointAppliesFromTwoDirectories(t *testing.T, binary string, first, second *e2eProject) {
	results := runInDirs(t, binary,
		dirRun{first.dir, []string{"apply", "-auto-approve", "-no-color", "-target=tpf_thing.a"}},
		dirRun{second.dir, []string{"apply", "-auto-approve", "-no-color", "-target=tpf_thing.b"}})
	for _, r := range results {
		if r.code != 0 {
			t.Fatalf("terrane %s: exit %d\n%s\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
		}
	}
	for _, p := range []*e2eProject{first, second} {
		if got := strings.Join(p.recordedInstances(), " "); got != "tpf_thing.a tpf_thing.b" {
			t.Errorf("records seen from %s: %s", p.dir, got)
		}
	}
	if got := strings.Join(sortedNames(first.objects("tpf_thing")), " "); got != "a b" {
		t.Errorf("cloud after disjoint applies: %s", got)
	}
}

func testConflictingApplyFromAnotherDirectory(t *testing.T, binary string, first, second *e2eProject) {
	hanging := exec.Command(binary, "apply", "-auto-approve", "-no-color", "-var=suffix=-one", "-var=fail=hang")
	hanging.Dir = first.dir
	var hangingOut, hangingErr syncBuffer
	hanging.Stdout, hanging.Stderr = &hangingOut, &hangingErr
	if err := hanging.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- hanging.Wait() }()
	t.Cleanup(func() { _ = hanging.Process.Kill() })
	waitFor(t, "first apply", &hangingOut, regexp.MustCompile(`tpf_thing.a: Modifying\.\.\.`))

	result := runInDirs(t, binary, dirRun{second.dir, []string{"apply", "-auto-approve", "-no-color", "-var=suffix=-two"}})[0]
	host, _ := os.Hostname()
	holder := fmt.Sprintf("(process %s:%d)", host, hanging.Process.Pid)
	if result.code != 1 {
		t.Errorf("an apply that left an address to another run: exit %d, want 1", result.code)
	}
	assertContains(t, "conflicting apply", result.stderr, "Error: Another run is changing tpf_thing.a", holder, "began an update of tpf_thing.a", "This apply did not change it")
	if n := strings.Count(result.stderr, "Another run is changing tpf_thing.a"); n != 1 {
		t.Errorf("the conflict is reported %d times:\n%s", n, result.stderr)
	}
	assertContains(t, "conflicting apply", result.stdout, "tpf_thing.b: Modifications complete")
	if got := first.objects("tpf_thing")["a"].attrs["description"]; got == "a-two" {
		t.Errorf("the conflicting apply changed tpf_thing.a")
	}

	if err := hanging.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("interrupted apply did not exit\n%s", hangingOut.String())
	}
}
