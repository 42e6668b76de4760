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
)

// cli is the terrane binary the tests that run it as a process share:
// built once per test binary, removed by TestMain.
var cli struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if cli.dir != "" {
		_ = os.RemoveAll(cli.dir)
	}
	os.Exit(code)
}

// buildCLI compiles the terrane binary, once for all tests, and returns
// its path. The first call must come before its test changes directory.
func buildCLI(t *testing.T) string {
	t.Helper()
	cli.once.Do(func() {
		wd, err := os.Getwd()
		if err != nil {
			cli.err = err
			return
		}
		if cli.dir, cli.err = os.MkdirTemp("", "terrane-cli-"); cli.err != nil {
			return
		}
		cli.path = filepath.Join(cli.dir, "terrane")
		build := exec.Command("go", "build", "-o", cli.path, "./cmd/terrane")
		build.Dir = filepath.Join(wd, "..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			cli.err = fmt.Errorf("%w\n%s", err, out)
		}
	})
	if cli.err != nil {
		t.Fatalf("building terrane: %v", cli.err)
	}
	return cli.path
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
	results := make([]processResult, len(argLists))
	var wg sync.WaitGroup
	for i, args := range argLists {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(binary, args...)
			cmd.Dir = dir
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
			results[i] = processResult{args: args, stdout: out.String(), stderr: errOut.String(), code: code}
		}()
	}
	wg.Wait()
	return results
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
	assertContains(t, "losing apply's errors", losers[0].stderr, "tpf_thing.a")
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
