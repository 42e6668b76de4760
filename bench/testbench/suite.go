package testbench

import (
	"fmt"
	"strings"
)

// moduleTF is the module under test.
const moduleTF = `terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}

variable "env" {
  type    = string
  default = "dev"
}

variable "size" {
  type    = number
  default = 1
}

variable "tags" {
  type    = map(string)
  default = {}
}

variable "parent" {
  type    = string
  default = ""
}

# latency = "slow" makes every create and update of the app take three
# seconds, as waiting on a remote API does.
variable "latency" {
  type    = string
  default = null
}

resource "tpf_thing" "app" {
  name        = "app-${var.env}"
  number      = var.size
  tags        = var.tags
  description = var.parent
  fail        = var.latency
}

resource "tpf_thing" "db" {
  name        = "db-${var.env}"
  description = "for ${tpf_thing.app.name}"
}

resource "terraform_data" "meta" {
  input = "${var.env}/${var.size}"
}

output "app_name" {
  value = tpf_thing.app.name
}

output "db_description" {
  value = tpf_thing.db.description
}
`

// setupTF is a module a run applies to make something the module uses.
const setupTF = `terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}

resource "tpf_thing" "shared" {
  name = "shared"
}

output "id" {
  value = tpf_thing.shared.id
}
`

// runBlocks is how many run blocks each suite has: testFile, or the four
// slowTestFiles.
const runBlocks = 20

// testFile is the suite: 20 run blocks.
func testFile() string {
	var b strings.Builder
	b.WriteString(`run "create" {
  assert {
    condition     = output.app_name == "app-dev" && output.db_description == "for app-dev"
    error_message = "wrong outputs"
  }
}
`)
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, `
run "plan_env_%d" {
  command = plan
  variables {
    env = "p%d"
  }
  assert {
    condition     = tpf_thing.app.name == "app-p%d" && tpf_thing.db.description == "for app-p%d"
    error_message = "wrong plan"
  }
}
`, i, i, i, i)
	}
	for i := 2; i <= 6; i++ {
		fmt.Fprintf(&b, `
run "resize_%d" {
  variables {
    size = %d
  }
  assert {
    condition     = tpf_thing.app.number == %d && output.app_name == "app-dev"
    error_message = "wrong size"
  }
}
`, i, i, i)
	}
	for i := 1; i <= 2; i++ {
		fmt.Fprintf(&b, `
run "plan_tags_%d" {
  command = plan
  variables {
    size = 6
    tags = { team = "t%d" }
  }
  assert {
    condition     = tpf_thing.app.tags["team"] == "t%d"
    error_message = "wrong tags"
  }
}
`, i, i, i)
	}
	b.WriteString(`
run "setup" {
  module {
    source = "./setup"
  }
}

run "use_setup" {
  variables {
    size   = 6
    parent = run.setup.id
  }
  assert {
    condition     = tpf_thing.app.description == run.setup.id
    error_message = "the setup output was not used"
  }
}
`)
	return b.String()
}

// slowTestFile is one of four files of five runs each: an apply and an
// update whose app takes three seconds to create or change, and three
// plans between them. Each file has its own state.
func slowTestFile(n int) string {
	return fmt.Sprintf(`variables {
  env     = "slow%[1]d"
  latency = "slow"
}

run "create" {}

run "plan_a" {
  command = plan
  variables {
    size = 2
  }
  assert {
    condition     = tpf_thing.app.number == 2
    error_message = "wrong plan"
  }
}

run "plan_b" {
  command = plan
  variables {
    env = "other%[1]d"
  }
  assert {
    condition     = tpf_thing.app.name == "app-other%[1]d"
    error_message = "wrong plan"
  }
}

run "resize" {
  variables {
    size = 3
  }
  assert {
    condition     = tpf_thing.app.number == 3
    error_message = "wrong size"
  }
}

run "plan_c" {
  command = plan
  variables {
    size = 3
  }
  assert {
    condition     = tpf_thing.app.number == 3
    error_message = "wrong plan"
  }
}
`, n)
}
