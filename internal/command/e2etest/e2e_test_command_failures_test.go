package e2etest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/testing/clitest"
)

func TestTestCommandReportsWhatCleanupLeftBehind(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, testCommandHeader+`
resource "tpf_thing" "stuck" {
  name = "stuck"
  fail = "delete_error"
}

resource "tpf_thing" "fine" {
  name = "fine"
}
`, map[string]string{
		"setup/main.tf": testCommandHeader + `
resource "tpf_thing" "setup_stuck" {
  name = "setup-stuck"
  fail = "delete_error"
}
`,
		"main.tftest.hcl": `
run "setup" {
  module {
    source = "./setup"
  }
}

run "create" {}
`,
	})
	stdout, stderr, code := p.run("test", "-no-color")
	// As in OpenTofu, what a clean-up leaves behind is listed, but the
	// file's runs passed and so did the suite.
	if code != 0 {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	want := `main.tftest.hcl... pass
  run "setup"... pass
  run "create"... pass

Success! 2 passed, 0 failed.
`
	if stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	// The state the later run changed is destroyed first. The messages are
	// wrapped to the width of the output.
	flat := strings.Join(strings.Fields(stderr), " ")
	mainLeft := "Terrane left the following resources in state after executing main.tftest.hcl/create"
	setupLeft := "Terrane left the following resources in state after executing main.tftest.hcl/setup"
	clitest.AssertContains(t, "stderr", flat,
		"Terrane encountered an error destroying resources created while executing main.tftest.hcl/create.",
		"Delete failed on request", mainLeft, " - tpf_thing.stuck ", setupLeft, " - tpf_thing.setup_stuck ",
		"Writing state to file: errored_test.tfstate")
	if strings.Index(flat, mainLeft) > strings.Index(flat, setupLeft) {
		t.Errorf("the setup module's state was destroyed before the configuration's:\n%s", stderr)
	}
	if strings.Contains(stderr, "  - tpf_thing.fine") {
		t.Errorf("an object that was destroyed is listed as left behind:\n%s", stderr)
	}
	src, err := os.ReadFile(filepath.Join(p.dir, "errored_test.tfstate"))
	if err != nil {
		t.Fatalf("errored_test.tfstate was not written: %v", err)
	}
	var state struct {
		Resources []struct{ Type, Name string }
	}
	if err := json.Unmarshal(src, &state); err != nil {
		t.Fatalf("errored_test.tfstate is not a state file: %v\n%s", err, src)
	}
	// As in OpenTofu, each state left behind is written in turn: the file
	// holds the last one destroyed.
	if len(state.Resources) != 1 || state.Resources[0].Name != "setup_stuck" {
		t.Errorf("errored_test.tfstate holds %+v, want tpf_thing.setup_stuck", state.Resources)
	}
	if objects := p.objects("tpf_thing"); len(objects) != 2 || objects["stuck"].path == "" || objects["setup-stuck"].path == "" {
		t.Errorf("the cloud holds %v, want only the objects that could not be deleted", sortedNames(objects))
	}
}

func TestTestCommandBadInputIsReportedAndOtherFilesRun(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, basicTestConfig, map[string]string{
		"a_good.tftest.hcl": `
run "fine" {
  command = plan
}
`,
		// A mock for a type the provider lacks is no error, as in OpenTofu.
		"d_runtime.tftest.hcl": `
mock_provider "tpf" {
  mock_resource "tpf_nothing" {}
}

run "unknown_type" {}
`,
		"e_unknown.tftest.hcl": `
run "unknown_value" {
  command = plan
  assert {
    condition     = tpf_thing.t.id == "x"
    error_message = "not x"
  }
}

run "bad_expectation" {
  command = plan
  expect_failures = [local.nothing]
}
`,
		"f_undeclared.tftest.hcl": `
run "undeclared_resource" {
  command = plan
  assert {
    condition     = tpf_thing.missing.id == "x"
    error_message = "not x"
  }
}
`,
	})
	stdout, stderr, code := p.run("test", "-no-color")
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	want := `a_good.tftest.hcl... pass
  run "fine"... pass
d_runtime.tftest.hcl... pass
  run "unknown_type"... pass
e_unknown.tftest.hcl... fail
  run "unknown_value"... fail
  run "bad_expectation"... skip
f_undeclared.tftest.hcl... fail
  run "undeclared_resource"... fail

Failure! 2 passed, 2 failed, 1 skipped.
`
	if stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	clitest.AssertContains(t, "stderr", stderr,
		"Unknown condition run", "on e_unknown.tftest.hcl line 5, in run \"unknown_value\":",
		"Reference to undeclared resource", `There is no managed resource "tpf_thing" "missing" definition in the`, "There is no variable named \"tpf_thing\"",
		"on f_undeclared.tftest.hcl line 5, in run \"undeclared_resource\":")
	if strings.Count(stderr, "Unknown condition run") != 1 {
		t.Errorf("a reference to an undeclared resource was reported as an unknown value:\n%s", stderr)
	}
	p.cloudIsEmpty()
}

// TestTestCommandStaticErrorsStopEverything: as in OpenTofu, test files are
// read with the configuration, so one that cannot be decoded makes init
// fail and test stop before any file runs.
func TestTestCommandStaticErrorsStopEverything(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, basicTestConfig, nil)
	files := map[string]string{
		"a_good.tftest.hcl": `
run "fine" {
  command = plan
}
`,
		"b_syntax.tftest.hcl": `
run "broken" {
  assert {
    condition = 
  }
}
`,
		"c_unsupported.tftest.hcl": `
run "parallel_run" {
  parallel = true
}
`,
	}
	for name, text := range files {
		p.writeFile(name, text)
	}
	if _, stderr, code := p.run("init", "-no-color"); code != 1 || !strings.Contains(stderr, `An argument named "parallel" is not expected here.`) {
		t.Errorf("init: exit %d, want 1 for the test files' errors\nstderr:\n%s", code, stderr)
	}
	stdout, stderr, code := p.run("test", "-no-color")
	if code != 1 || strings.TrimSpace(stdout) != "" {
		t.Fatalf("exit %d, want 1 and nothing run\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	clitest.AssertContains(t, "stderr", stderr,
		"on b_syntax.tftest.hcl line 4, in run \"broken\":",
		"Unsupported argument", `An argument named "parallel" is not expected here.`)
}

func TestTestCommandLeavesTheWorkspaceAlone(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, basicTestConfig, map[string]string{
		"main.tftest.hcl": `
run "replaces_nothing_real" {
  variables {
    name = "in-test"
  }
}
`,
	})
	p.mustRun("apply", "-auto-approve")
	before := p.recordedInstances()
	objects := p.objects("tpf_thing")
	stdout, stderr, code := p.run("test", "-no-color")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if after := p.recordedInstances(); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("the workspace's records changed from %v to %v", before, after)
	}
	if got := p.objects("tpf_thing"); len(got) != 1 || got["first"].path != objects["first"].path {
		t.Errorf("the workspace's object changed: %v", sortedNames(got))
	}
	clitest.AssertContains(t, "plan after the tests", p.mustRun("plan", "-no-color"), "No changes.")
}

// TestTestCommandInterrupted interrupts a suite whose second run hangs in
// the provider: the first Ctrl-C lets the run finish (it cannot), the second
// stops at once and lists what the file's state holds.
func TestTestCommandInterrupted(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, testCommandHeader+`
variable "fail" {
  type    = string
  default = null
}

resource "tpf_thing" "done" {
  name = "done"
}

resource "tpf_thing" "stuck" {
  name       = "stuck"
  fail       = var.fail
  depends_on = [tpf_thing.done]
}
`, map[string]string{
		"main.tftest.hcl": `
run "first" {}

run "hangs" {
  variables {
    fail = "hang"
  }
}

run "never" {}
`,
	})
	cmd, out, errOut, exited := startCLI(t, p, "test", "-no-color")
	defer cmd.Process.Kill()
	deadline := time.Now().Add(30 * time.Second)
	for len(p.objects("tpf_thing")) < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(2 * time.Second) // the second run plans and starts its hanging update
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	clitest.WaitFor(t, "interrupted test", errOut, regexp.MustCompile(`Interrupt received.\nPlease wait for Terrane to exit`))
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err == nil {
			t.Errorf("an interrupted test exited successfully")
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("test still running after a second interrupt\nstdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	}
	clitest.AssertContains(t, "stderr", errOut.String(), "Two interrupts received. Exiting immediately.",
		"Terrane was interrupted while executing main.tftest.hcl, and may not have performed the expected cleanup operations.",
		"Terrane has already created the following resources from the module under test:\n  - tpf_thing.done\n  - tpf_thing.stuck\n")
	if strings.Contains(out.String(), "passed") {
		t.Errorf("a cancelled suite printed a summary:\n%s", out.String())
	}
}

func TestTestCommandWithoutTestFiles(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, basicTestConfig, nil)
	stdout, stderr, code := p.run("test", "-no-color")
	if code != 0 || stdout != "\nSuccess! 0 passed, 0 failed.\n" {
		t.Errorf("exit %d\nstdout:\n%q\nstderr:\n%s", code, stdout, stderr)
	}
	stdout, _, code = p.run("test", "-no-color", "-filter=tests/missing.tftest.hcl")
	if code != 0 {
		t.Errorf("exit %d with an unknown -filter", code)
	}
	// As OpenTofu, the name that matches no file is not reported by itself.
	clitest.AssertContains(t, "stdout", stdout, "Warning: No tests were found")
	if strings.Contains(stdout, "Unknown test file") {
		t.Errorf("an unknown -filter name was reported:\n%s", stdout)
	}
}
