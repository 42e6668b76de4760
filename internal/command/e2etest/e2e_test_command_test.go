package e2etest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// testCommandHeader configures the framework test provider with its cloud.
const testCommandHeader = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}
`

// newTestCommandProject is an initialised project with mainTF and the
// given test files (paths relative to the project), CLOUD replaced in
// all of them.
func newTestCommandProject(t *testing.T, mainTF string, files map[string]string) *e2eProject {
	t.Helper()
	p := newUninitialised(t, mainTF)
	for name, content := range files {
		p.writeFile(name, content)
	}
	p.mustRun("init")
	return p
}

// cloudIsEmpty fails the test unless every object the test provider made
// is gone.
func (p *e2eProject) cloudIsEmpty() {
	p.t.Helper()
	left, err := filepath.Glob(filepath.Join(p.cloud, "*", "*.json"))
	if err != nil {
		p.t.Fatal(err)
	}
	if len(left) > 0 {
		p.t.Errorf("the tests left objects in the cloud: %v", left)
	}
}

const basicTestConfig = testCommandHeader + `
variable "name" {
  type    = string
  default = "first"
}

resource "tpf_thing" "t" {
  name        = var.name
  description = "made for ${var.name}"
}

output "id" {
  value = tpf_thing.t.id
}

output "name" {
  value = tpf_thing.t.name
}
`

func TestTestCommandRunsFilesAndReportsOutcomes(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, basicTestConfig, map[string]string{
		"main.tftest.hcl": `
run "create" {
  assert {
    condition     = output.name == "first" && tpf_thing.t.id != ""
    error_message = "wrong name ${output.name}"
  }
}

run "plan_only" {
  command = plan
  variables {
    name = "second"
  }
  assert {
    condition     = tpf_thing.t.description == "made for second"
    error_message = "the plan has the wrong description"
  }
}

run "fails" {
  assert {
    condition     = tpf_thing.t.name == "other"
    error_message = "the name is ${tpf_thing.t.name}"
  }
}
`,
		"tests/other.tftest.hcl": `
variables {
  name = "from-file"
}

run "uses_file_variables" {
  assert {
    condition     = output.name == "from-file"
    error_message = "file variables were not used"
  }
}
`,
	})
	stdout, stderr, code := p.run("test", "-no-color")
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	want := `main.tftest.hcl... fail
  run "create"... pass
  run "plan_only"... pass
  run "fails"... fail
tests/other.tftest.hcl... pass
  run "uses_file_variables"... pass

Failure! 3 passed, 1 failed.
`
	if stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	clitest.AssertContains(t, "stderr", stderr, "Error: Test assertion failed", `on main.tftest.hcl line 22, in run "fails":`,
		"the name is first")
	p.cloudIsEmpty()
	if got := p.recordedInstances(); len(got) != 0 {
		t.Errorf("the tests wrote the workspace's records: %v", got)
	}
}

func TestTestCommandVariablePrecedenceAndRunOutputs(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, testCommandHeader+`
variable "prefix" {
  type = string
}

variable "name" {
  type = string
}

variable "parent" {
  type    = string
  default = ""
}

variable "suffix" {
  type = string
}

resource "tpf_thing" "t" {
  name        = "${var.prefix}-${var.name}"
  description = var.parent
}

output "suffix" {
  value = var.suffix
}

output "id" {
  value = tpf_thing.t.id
}

output "full_name" {
  value = tpf_thing.t.name
}
`, map[string]string{
		"terraform.tfvars":        "prefix = \"root\"\nname = \"root\"\nsuffix = \"root\"\n",
		"tests/extra.auto.tfvars": "name = \"tests-dir\"\nsuffix = \"tests-dir\"\n",
		"cli.tfvars":              "name = \"var-file\"\n",
		"tests/vars.tftest.hcl": `
variables {
  expected = "cli-tests-dir"
}

# OpenTofu's order: the test directory's tfvars files over -var and
# -var-file, and those over the ones beside the configuration.
run "globals" {
  assert {
    condition     = output.full_name == var.expected && output.suffix == "tests-dir"
    error_message = "got ${output.full_name} and ${output.suffix}"
  }
}

run "run_level_wins" {
  variables {
    name   = "run"
    parent = run.globals.id
  }
  assert {
    condition     = output.full_name == "cli-run" && tpf_thing.t.description == var.parent
    error_message = "got ${output.full_name} with parent ${tpf_thing.t.description}"
  }
}
`,
	})
	stdout, stderr, code := p.run("test", "-no-color", "-var", "prefix=cli", "-var-file=cli.tfvars")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	clitest.AssertContains(t, "stdout", stdout, `run "globals"... pass`, `run "run_level_wins"... pass`, "Success! 2 passed, 0 failed.")
	p.cloudIsEmpty()
}

func TestTestCommandExpectFailures(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, testCommandHeader+`
variable "size" {
  type    = number
  default = 1
  validation {
    condition     = var.size < 10
    error_message = "size must be below 10"
  }
}

resource "tpf_thing" "t" {
  name   = "thing"
  number = var.size
  lifecycle {
    postcondition {
      condition     = self.revision < var.size
      error_message = "revision is not below size"
    }
  }
}

output "size" {
  value = var.size
  precondition {
    condition     = var.size != 5
    error_message = "five is not allowed"
  }
}

check "small" {
  assert {
    condition     = var.size < 3
    error_message = "size is not small"
  }
}
`, map[string]string{
		"main.tftest.hcl": `
run "variable_fails" {
  command = plan
  variables {
    size = 20
  }
  expect_failures = [var.size]
}

run "output_fails" {
  command = plan
  variables {
    size = 5
  }
  expect_failures = [output.size, check.small]
}

run "resource_fails" {
  expect_failures = [tpf_thing.t]
}

run "expected_but_passing" {
  command = plan
  variables {
    size = 2
  }
  expect_failures = [check.small]
}

run "skipped_after_an_error" {
  command = plan
}
`,
		"tests/check.tftest.hcl": `
run "check_fails_unexpectedly" {
  command = plan
  variables {
    size = 4
  }
}
`,
	})
	stdout, stderr, code := p.run("test", "-no-color")
	if code != 1 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	want := `main.tftest.hcl... fail
  run "variable_fails"... pass
  run "output_fails"... pass
  run "resource_fails"... pass
  run "expected_but_passing"... fail
  run "skipped_after_an_error"... skip
tests/check.tftest.hcl... fail
  run "check_fails_unexpectedly"... fail

Failure! 3 passed, 2 failed, 1 skipped.
`
	if stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	clitest.AssertContains(t, "stderr", stderr, "Missing expected failure", "The checkable object, check.small, was expected to report an error but did not.",
		"Check block assertion failed", "size is not small")
	if strings.Contains(stderr, "size must be below 10") || strings.Contains(stderr, "five is not allowed") {
		t.Errorf("an expected failure was reported:\n%s", stderr)
	}
	p.cloudIsEmpty()
}
