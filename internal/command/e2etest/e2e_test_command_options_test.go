package e2etest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

func TestTestCommandPlanOptions(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, testCommandHeader+`
variable "description" {
  type    = string
  default = "first"
}

variable "fail" {
  type    = string
  default = null
}

resource "tpf_thing" "a" {
  name        = "a"
  description = var.description
  fail        = var.fail
}

resource "tpf_thing" "b" {
  name = "b"
}

output "a_id" {
  value = tpf_thing.a.id
}
`, map[string]string{
		"options.tftest.hcl": `
run "targeted" {
  plan_options {
    target = [tpf_thing.a]
  }
  variables {
    fail = "read_error"
  }
}

run "without_refresh" {
  command = plan
  plan_options {
    refresh = false
  }
  variables {
    fail   = "read_error"
    old_id = run.targeted.a_id
  }
  assert {
    condition     = tpf_thing.a.id == var.old_id
    error_message = "planning without refresh changed the object"
  }
}

run "repair_without_refresh" {
  plan_options {
    refresh = false
  }
  assert {
    condition     = tpf_thing.a.fail == null && tpf_thing.b.name == "b"
    error_message = "the untargeted resource was not created"
  }
}

run "refresh_only" {
  command = plan
  variables {
    description = "changed"
  }
  plan_options {
    mode = refresh-only
  }
  assert {
    condition     = tpf_thing.a.description == "first"
    error_message = "a refresh-only plan planned a configuration change: ${tpf_thing.a.description}"
  }
}

run "replaced" {
  plan_options {
    replace = [tpf_thing.a]
  }
  variables {
    old_id = run.repair_without_refresh.a_id
  }
  assert {
    condition     = output.a_id != var.old_id
    error_message = "tpf_thing.a was not replaced"
  }
}
`,
	})
	stdout, stderr, code := p.run("test", "-no-color", "-verbose", "-filter=options.tftest.hcl")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, run := range []string{"targeted", "without_refresh", "repair_without_refresh", "refresh_only", "replaced"} {
		clitest.AssertContains(t, "stdout", stdout, `run "`+run+`"... pass`)
	}
	// -verbose shows the state after the targeted apply: only tpf_thing.a.
	targeted := stdout[strings.Index(stdout, `run "targeted"`):strings.Index(stdout, `run "without_refresh"`)]
	clitest.AssertContains(t, "the targeted run's state", targeted, `resource "tpf_thing" "a" {`, `a_id = "`)
	if strings.Contains(targeted, `resource "tpf_thing" "b"`) {
		t.Errorf("the targeted apply created tpf_thing.b:\n%s", targeted)
	}
	// ... and the plan of a plan run.
	planned := stdout[strings.Index(stdout, `run "without_refresh"`):strings.Index(stdout, `run "repair_without_refresh"`)]
	clitest.AssertContains(t, "the plan run's plan", planned, "# tpf_thing.b will be created", "Plan: 1 to add, 0 to change, 0 to destroy.")
	// The state follows its run's line directly, as in OpenTofu; a plan
	// starts with a blank line of its own.
	clitest.AssertContains(t, "stdout", stdout, "run \"targeted\"... pass\n# tpf_thing.a:\n", "\n  run \"without_refresh\"... pass\n\nTerrane used",
		"\n  run \"repair_without_refresh\"... pass\n#")
	p.cloudIsEmpty()
}

func TestTestCommandModuleRunsAndCleanupOrder(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, testCommandHeader+`
variable "parent" {
  type = string
}

resource "tpf_thing" "main" {
  name        = "main"
  description = var.parent
}
`, map[string]string{
		"setup/main.tf": testCommandHeader + `
resource "tpf_thing" "base" {
  name = "base"
}

output "id" {
  value = tpf_thing.base.id
}
`,
		"tests/module.tftest.hcl": `
run "setup" {
  module {
    source = "./setup"
  }
}

run "main" {
  variables {
    parent = run.setup.id
  }
  assert {
    condition     = tpf_thing.main.description == var.parent
    error_message = "the setup module's output was not passed on"
  }
}

run "setup_again" {
  command = plan
  module {
    source = "./setup"
  }
  variables {
    setup_id = run.setup.id
  }
  assert {
    condition     = tpf_thing.base.id == var.setup_id
    error_message = "the setup module's state was not kept apart"
  }
}
`,
	})
	stdout, stderr, code := p.run("test", "-no-color", "-test-directory=tests")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	want := `tests/module.tftest.hcl... pass
  run "setup"... pass
  run "main"... pass
  run "setup_again"... pass

Success! 3 passed, 0 failed.
`
	if stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	p.cloudIsEmpty()
	// A run block's module that does not exist makes init fail, and test
	// stop before running anything, as in OpenTofu.
	p.writeFile("tests/missing.tftest.hcl", `
run "missing_module" {
  module {
    source = "./nope"
  }
}
`)
	if _, stderr, code := p.run("init", "-no-color"); code != 1 || !strings.Contains(stderr, "Unreadable module directory") {
		t.Errorf("init: exit %d, want 1 for the missing module\nstderr:\n%s", code, stderr)
	}
	stdout, stderr, code = p.run("test", "-no-color")
	if code != 1 || strings.TrimSpace(stdout) != "" {
		t.Fatalf("exit %d, want 1 and nothing run\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	clitest.AssertContains(t, "stderr", stderr, "Module not installed", `on tests/missing.tftest.hcl line 3, in run "missing_module":`)
}

// parallelTestFiles have runs that can run side by side (plans with their
// own variables, a module on its own state) and runs that must wait (applies
// to one state, references to run outputs), a failing assertion and an
// error after which the rest of the file is skipped.
var parallelTestFiles = map[string]string{
	"setup/main.tf": testCommandHeader + `
resource "tpf_thing" "base" {
  name = "base"
}

output "id" {
  value = tpf_thing.base.id
}
`,
	"a.tftest.hcl": `
run "create" {}

run "plan_one" {
  command = plan
  variables {
    name = "one"
  }
  assert {
    condition     = tpf_thing.t.description == "made for one"
    error_message = "wrong plan"
  }
}

run "setup" {
  module {
    source = "./setup"
  }
}

run "plan_two_fails" {
  command = plan
  variables {
    name = "two"
  }
  assert {
    condition     = tpf_thing.t.description == "made for one"
    error_message = "planned ${tpf_thing.t.description}"
  }
}

run "update" {
  variables {
    name = run.setup.id
  }
}

run "plan_three" {
  command = plan
  variables {
    name = "three"
  }
}

run "unknown" {
  command = plan
  variables {
    name = "four"
  }
  assert {
    condition     = tpf_thing.t.id == "x"
    error_message = "unknown"
  }
}

run "after_error" {
  command = plan
}
`,
	"b.tftest.hcl": `
run "other_file" {
  variables {
    name = "b"
  }
  assert {
    condition     = output.name == "b"
    error_message = "wrong name"
  }
}
`,
}

func TestTestCommandParallelRunsReportAsIfSequential(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, basicTestConfig, parallelTestFiles)
	sequential, seqErr, code := p.run("test", "-no-color", "-parallelism=1")
	if code != 1 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, sequential, seqErr)
	}
	want := `a.tftest.hcl... fail
  run "create"... pass
  run "plan_one"... pass
  run "setup"... pass
  run "plan_two_fails"... fail
  run "update"... pass
  run "plan_three"... pass
  run "unknown"... fail
  run "after_error"... skip
b.tftest.hcl... pass
  run "other_file"... pass

Failure! 6 passed, 2 failed, 1 skipped.
`
	if sequential != want {
		t.Errorf("stdout with -parallelism=1:\n%s\nwant:\n%s", sequential, want)
	}
	p.cloudIsEmpty()
	for i := 0; i < 3; i++ {
		parallel, parErr, code := p.run("test", "-no-color", "-parallelism=8")
		if code != 1 || parallel != sequential || parErr != seqErr {
			t.Fatalf("in parallel: exit %d\nstdout:\n%s\nstderr:\n%s\nwant the sequential output:\n%s\n%s", code, parallel, parErr, sequential, seqErr)
		}
		p.cloudIsEmpty()
	}
}

func TestTestCommandJSON(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, basicTestConfig, map[string]string{
		"main.tftest.hcl": `
run "passes" {}

run "fails" {
  command = plan
  assert {
    condition     = tpf_thing.t.name == "other"
    error_message = "wrong name"
  }
}
`,
	})
	stdout, stderr, code := p.run("test", "-json")
	if code != 1 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var types, messages []string
	var summary map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not a JSON message: %q: %v", line, err)
		}
		types = append(types, msg["type"].(string))
		messages = append(messages, msg["@message"].(string))
		switch msg["type"] {
		case "test_run":
			run := msg["test_run"].(map[string]any)
			if run["path"] != "main.tftest.hcl" || msg["@testfile"] != "main.tftest.hcl" || msg["@testrun"] != run["run"] {
				t.Errorf("test_run message: %s", line)
			}
		case "diagnostic":
			if msg["@testrun"] != "fails" || msg["@testfile"] != "main.tftest.hcl" || msg["@message"] != "Error: Test assertion failed" {
				t.Errorf("diagnostic message: %s", line)
			}
		case "test_summary":
			summary = msg["test_summary"].(map[string]any)
		}
	}
	wantTypes := "version test_abstract test_file test_run test_run diagnostic test_summary"
	if strings.Join(types, " ") != wantTypes {
		t.Errorf("message types %v, want %s", types, wantTypes)
	}
	wantMessages := []string{`Found 1 file and 2 run blocks`, "main.tftest.hcl... fail", `  "passes"... pass`, `  "fails"... fail`}
	if strings.Join(messages[1:5], "|") != strings.Join(wantMessages, "|") {
		t.Errorf("messages %q, want %q", messages[1:5], wantMessages)
	}
	if summary["status"] != "fail" || summary["passed"] != 1.0 || summary["failed"] != 1.0 || summary["errored"] != 0.0 || summary["skipped"] != 0.0 {
		t.Errorf("test_summary %v", summary)
	}
	if stderr != "" {
		t.Errorf("stderr with -json: %s", stderr)
	}
}

func TestTestCommandJSONVerboseAndCleanup(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, testCommandHeader+`
variable "fail" {
  type    = string
  default = null
}

resource "tpf_thing" "t" {
  name = "json"
  fail = var.fail
}
`, map[string]string{
		"main.tftest.hcl": `
run "planned" {
  command = plan
}

run "applied" {
  variables {
    fail = "delete_error"
  }
}
`,
	})
	stdout, stderr, code := p.run("test", "-json", "-verbose")
	// A failed clean-up leaves the suite's status alone, as in OpenTofu.
	if code != 0 {
		t.Fatalf("exit %d, want 0 despite the clean-up that failed\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var types []string
	var plan, state, cleanup map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not a JSON message: %q: %v", line, err)
		}
		// As in OpenTofu, the notice that the state left is written to a
		// file is a message without a type.
		typ, _ := msg["type"].(string)
		if typ == "" {
			typ = "(none)"
		}
		types = append(types, typ)
		switch msg["type"] {
		case "test_plan":
			plan = msg
		case "test_state":
			state = msg
		case "test_cleanup":
			cleanup = msg
		}
	}
	wantTypes := "version test_abstract test_file test_run test_plan test_run test_state test_cleanup diagnostic (none) test_summary"
	if strings.Join(types, " ") != wantTypes {
		t.Errorf("message types\n%v\nwant\n%s\nstdout:\n%s", types, wantTypes, stdout)
	}
	if plan["@testrun"] != "planned" || plan["@message"] != "-verbose flag enabled, printing plan" ||
		!strings.Contains(fmt.Sprint(plan["test_plan"]), "tpf_thing.t") {
		t.Errorf("test_plan message: %v", plan)
	}
	if state["@testrun"] != "applied" || !strings.Contains(fmt.Sprint(state["test_state"]), "tpf_thing.t") {
		t.Errorf("test_state message: %v", state)
	}
	failed, _ := cleanup["test_cleanup"].(map[string]any)["failed_resources"].([]any)
	if cleanup["@testrun"] != "applied" || cleanup["@level"] != "error" || len(failed) != 1 ||
		failed[0].(map[string]any)["instance"] != "tpf_thing.t" {
		t.Errorf("test_cleanup message: %v", cleanup)
	}
	if stderr != "" {
		t.Errorf("stderr with -json: %s", stderr)
	}
}
