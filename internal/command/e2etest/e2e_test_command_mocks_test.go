package e2etest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// mockedConfig fails to apply anything through the real provider: every
// object it makes really is made by a mock or an override.
const mockedConfig = testCommandHeader + `
resource "tpf_thing" "a" {
  name = "a"
  fail = var.fail
}

resource "tpf_thing" "b" {
  name = "b-${tpf_thing.a.id}"
  fail = var.fail
}

data "tpf_thing" "lookup" {
  id = tpf_thing.a.id
}

module "child" {
  source = "./child"
  name   = tpf_thing.a.name
}

variable "fail" {
  type    = string
  default = "apply_error"
}

output "child_out" {
  value = module.child.out
}
`

const mockedChild = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

variable "name" {
  type = string
}

resource "tpf_thing" "c" {
  name = "child-${var.name}"
  fail = "apply_error"
}

output "out" {
  value = tpf_thing.c.id
}
`

func TestTestCommandMockProviderAndOverrides(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, mockedConfig, map[string]string{
		"child/main.tf": mockedChild,
		"mock.tftest.hcl": `
# A mock of a provider nothing uses is never configured, so it need not be
# installed.
mock_provider "aws" {}

mock_provider "tpf" {
  mock_resource "tpf_thing" {
    defaults = {
      id = "mocked"
    }
  }
  mock_data "tpf_thing" {
    defaults = {
      description = "from mock data"
    }
  }
  override_resource {
    target = tpf_thing.b
    values = {
      id = "overridden in the mock provider"
    }
  }
}

run "mocked" {
  assert {
    condition     = tpf_thing.a.id == "mocked" && tpf_thing.b.name == "b-mocked"
    error_message = "mock defaults were not used: ${tpf_thing.a.id}, ${tpf_thing.b.name}"
  }
  assert {
    condition     = tpf_thing.b.id == "overridden in the mock provider"
    error_message = "the mock provider's override was not used: ${tpf_thing.b.id}"
  }
  assert {
    condition     = data.tpf_thing.lookup.description == "from mock data" && data.tpf_thing.lookup.id == "mocked"
    error_message = "mock data was not used"
  }
  assert {
    condition     = tpf_thing.a.revision == 0 && length(tpf_thing.a.created_at) >= 4 && output.child_out == "mocked"
    error_message = "generated values are not OpenTofu's: ${tpf_thing.a.revision} ${tpf_thing.a.created_at}"
  }
}
`,
		"override.tftest.hcl": `
variables {
  fail = null
}

override_resource {
  target = tpf_thing.b
  values = {
    id = "overridden-b"
  }
}

override_data {
  target = data.tpf_thing.lookup
  values = {
    description = "overridden data"
  }
}

run "overrides" {
  override_module {
    target = module.child
    outputs = {
      out = "from override"
    }
  }
  assert {
    condition     = tpf_thing.b.id == "overridden-b" && tpf_thing.a.id != "overridden-b"
    error_message = "the resource override was not used"
  }
  assert {
    condition     = data.tpf_thing.lookup.description == "overridden data" && output.child_out == "from override"
    error_message = "the data or module override was not used"
  }
}

run "run_level_override_wins" {
  command = plan
  override_resource {
    target = tpf_thing.b
    values = {
      id = "from the run"
    }
  }
  override_module {
    target = module.child
  }
  assert {
    condition     = tpf_thing.b.id == "from the run" && output.child_out == null
    error_message = "the run's override did not take precedence"
  }
}
`,
	})
	stdout, stderr, code := p.run("test", "-no-color")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	clitest.AssertContains(t, "stdout", stdout, `mock.tftest.hcl... pass
  run "mocked"... pass
override.tftest.hcl... pass
  run "overrides"... pass
  run "run_level_override_wins"... pass
`, "Warning: Multiple `override_resource` blocks for the same address", "Success! 3 passed, 0 failed.")
	if stderr != "" {
		t.Errorf("stderr:\n%s", stderr)
	}
	p.cloudIsEmpty()
}

func TestTestCommandTestFileProviders(t *testing.T) {
	t.Parallel()
	p := newTestCommandProject(t, testCommandHeader+`
resource "tpf_thing" "t" {
  name = "main"
}

output "id" {
  value = tpf_thing.t.id
}
`, map[string]string{
		"setup/main.tf": `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

variable "where" {
  type = string
}

resource "tpf_thing" "s" {
  name = "setup"
}

output "dir" {
  value = "third-${var.where}"
}
`,
		"providers.tftest.hcl": `
variables {
  where = "elsewhere"
}

provider "tpf" {
  root_dir = "CLOUD/${var.where}"
}

provider "tpf" {
  alias    = "third"
  root_dir = "CLOUD/${run.setup.dir}"
}

run "setup" {
  module {
    source = "./setup"
  }
  assert {
    condition     = fileexists("CLOUD/elsewhere/tpf_thing/${tpf_thing.s.id}.json")
    error_message = "the test file's provider block was not used"
  }
}

run "aliased" {
  providers = {
    tpf = tpf.third
  }
  assert {
    condition     = fileexists("CLOUD/third-elsewhere/tpf_thing/${output.id}.json")
    error_message = "the run's providers mapping was not used"
  }
}
`,
	})
	stdout, stderr, code := p.run("test", "-no-color")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	clitest.AssertContains(t, "stdout", stdout, `run "setup"... pass`, `run "aliased"... pass`)
	left, _ := filepath.Glob(filepath.Join(p.cloud, "*", "tpf_thing", "*.json"))
	if len(left) > 0 {
		t.Errorf("objects were left behind: %v", left)
	}
	if strings.Contains(stderr, "Error") {
		t.Errorf("stderr:\n%s", stderr)
	}
}
