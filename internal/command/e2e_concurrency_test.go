package command

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// cliBuild is the terrane binary the tests of this package share: linking
// it takes seconds, so it is built once.
var cliBuild struct {
	once   sync.Once
	dir    string
	binary string
	err    error
}

// buildCLI compiles the terrane binary (once per test binary) and returns
// its path. The first call must come before the test changes directory.
func buildCLI(t *testing.T) string {
	t.Helper()
	cliBuild.once.Do(func() {
		wd, err := os.Getwd()
		if err != nil {
			cliBuild.err = err
			return
		}
		if cliBuild.dir, err = os.MkdirTemp("", "terrane-cli-"); err != nil {
			cliBuild.err = err
			return
		}
		cliBuild.binary = filepath.Join(cliBuild.dir, "terrane")
		build := exec.Command("go", "build", "-o", cliBuild.binary, "./cmd/terrane")
		build.Dir = filepath.Join(wd, "..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			cliBuild.err = fmt.Errorf("building terrane: %v\n%s", err, out)
		}
	})
	if cliBuild.err != nil {
		t.Fatal(cliBuild.err)
	}
	return cliBuild.binary
}

// TestMain removes the shared terrane binary once every test has run. A
// CLI configuration file named by the environment that does not exist is
// forgotten: each command would warn of it first, as OpenTofu does, and
// tests that want a CLI configuration name their own.
func TestMain(m *testing.M) {
	for _, name := range []string{"TERRANE_CLI_CONFIG_FILE", "TF_CLI_CONFIG_FILE"} {
		if file := os.Getenv(name); file != "" {
			if _, err := os.Stat(file); err != nil {
				os.Unsetenv(name)
			}
		}
	}
	code := m.Run()
	if cliBuild.dir != "" {
		os.RemoveAll(cliBuild.dir)
	}
	os.Exit(code)
}

// processResult is how one terrane process ended.
type processResult struct {
	args           []string
	stdout, stderr string
	code           int
}

// runProcesses starts one terrane process per argument list at once, in
// the project directory, and waits for all of them.
func runProcesses(t *testing.T, binary, dir string, argLists ...[]string) []processResult {
	t.Helper()
	runs := make([]dirRun, len(argLists))
	for i, args := range argLists {
		runs[i] = dirRun{dir: dir, args: args}
	}
	return runInDirs(t, binary, runs...)
}

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

// backgroundRun is a terrane process running while the test does more.
type backgroundRun struct {
	cmd         *exec.Cmd
	out, errOut *syncBuffer
	exited      chan error
}

// startInBackground starts terrane with args in dir. A process still
// running when the test ends is killed.
func startInBackground(t *testing.T, binary, dir string, args ...string) *backgroundRun {
	t.Helper()
	r := &backgroundRun{cmd: exec.Command(binary, args...), out: &syncBuffer{}, errOut: &syncBuffer{}, exited: make(chan error, 1)}
	r.cmd.Dir = dir
	r.cmd.Stdout, r.cmd.Stderr = r.out, r.errOut
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.exited <- r.cmd.Wait() }()
	t.Cleanup(func() { _ = r.cmd.Process.Kill() })
	return r
}

// wait waits up to timeout for the process to end and returns how it
// ended; the test fails if it is still running then.
func (r *backgroundRun) wait(t *testing.T, what string, timeout time.Duration) error {
	t.Helper()
	select {
	case err := <-r.exited:
		return err
	case <-time.After(timeout):
		t.Fatalf("%s did not end within %s\nstdout:\n%s\nstderr:\n%s", what, timeout, r.out.String(), r.errOut.String())
		return nil
	}
}

const concurrencyConfig = lifecycleHeader + `
variable "suffix" {
  type    = string
  default = ""
}

resource "tpf_thing" "a" {
  name        = "a"
  description = "a${var.suffix}"
}

resource "tpf_thing" "b" {
  name        = "b"
  description = "b${var.suffix}"
}
`

// TestE2EProcesses runs the terrane binary as users do: several processes
// at once on one embedded store, and interrupted with Ctrl-C.
func TestE2EProcesses(t *testing.T) {
	binary := buildCLI(t)
	t.Run("disjoint applies", func(t *testing.T) { testDisjointApplies(t, binary) })
	t.Run("conflicting applies", func(t *testing.T) { testConflictingApplies(t, binary) })
	t.Run("interrupt", func(t *testing.T) { testInterrupt(t, binary) })
}

// testDisjointApplies runs two applies at once, each targeting its own
// resource: both must succeed.
func testDisjointApplies(t *testing.T, binary string) {
	p := newE2EProject(t, concurrencyConfig)
	results := runProcesses(t, binary, p.dir,
		[]string{"apply", "-auto-approve", "-no-color", "-target=tpf_thing.a"},
		[]string{"apply", "-auto-approve", "-no-color", "-target=tpf_thing.b"})
	for _, r := range results {
		if r.code != 0 {
			t.Errorf("terrane %s: exit %d\n%s\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
		}
	}
	if got := strings.Join(p.recordedInstances(), " "); got != "tpf_thing.a tpf_thing.b" {
		t.Errorf("records after disjoint applies: %s", got)
	}
	if got := strings.Join(sortedNames(p.objects("tpf_thing")), " "); got != "a b" {
		t.Errorf("cloud after disjoint applies: %s", got)
	}
}

// testConflictingApplies applies two saved plans that update the same
// resource from the same records at once: exactly one may win, and the
// other must name the resource.
func testConflictingApplies(t *testing.T, binary string) {
	p := newE2EProject(t, concurrencyConfig)
	p.mustRun("apply", "-auto-approve")
	// Two plans made from the same records both update tpf_thing.a; applied
	// at once, only one may win.
	p.mustRun("plan", "-var=suffix=-one", "-target=tpf_thing.a", "-out=one.tfplan")
	p.mustRun("plan", "-var=suffix=-two", "-target=tpf_thing.a", "-out=two.tfplan")
	results := runProcesses(t, binary, p.dir,
		[]string{"apply", "-no-color", "one.tfplan"},
		[]string{"apply", "-no-color", "two.tfplan"})
	var winners, losers []processResult
	for _, r := range results {
		if r.code == 0 {
			winners = append(winners, r)
		} else {
			losers = append(losers, r)
		}
	}
	if len(winners) != 1 || len(losers) != 1 {
		t.Fatalf("want exactly one apply to succeed, got %d successes:\n%+v", len(winners), results)
	}
	// The loser finds out before applying (OpenTofu's words for a plan
	// whose records changed since it was made) or while applying, at the
	// instance the other run changed.
	if lost := losers[0].stderr; !strings.Contains(lost, "Saved plan is stale") && !strings.Contains(lost, "tpf_thing.a was changed in the store by another run") {
		t.Errorf("the losing apply does not say its plan is stale or which instance changed:\n%s", lost)
	}
	winner := "a-one"
	if winners[0].args[2] == "two.tfplan" {
		winner = "a-two"
	}
	if got := p.objects("tpf_thing")["a"].attrs["description"]; got != winner {
		t.Errorf("cloud holds description %v, want the winner's %q", got, winner)
	}
	if !slices.Equal(p.recordedInstances(), []string{"tpf_thing.a", "tpf_thing.b"}) {
		t.Errorf("records after the conflict: %v", p.recordedInstances())
	}
}
