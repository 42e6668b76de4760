package e2etest

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestEphemeralVariablesAndSavedPlans checks what applying a saved plan
// takes from the command line: an ephemeral variable set while planning
// must be given again (and may differ), while a variable the plan
// recorded may be given only with the value it recorded (the corpus case
// variables/ephemeral_variable_saved_plan compares this with OpenTofu).
func TestEphemeralVariablesAndSavedPlans(t *testing.T) {
	t.Parallel()
	config := lifecycleHeader + `
variable "password" {
  type      = string
  ephemeral = true
}

variable "label" {
  type = string
}

resource "tpf_thing" "a" {
  name                = "a"
  description         = var.label
  password_wo         = var.password
  password_wo_version = 1
}
`
	steps := []struct {
		args     []string
		wantCode int
		want     string
	}{
		{[]string{"plan", "-out=saved.tfplan", "-var", "password=first", "-var", "label=one"}, 0, ""},
		{[]string{"apply", "saved.tfplan"}, 1, "Variable \"password\" is configured as ephemeral. This type of variables need to be given a value during `terrane plan` and also during `terrane apply`."},
		{[]string{"apply", "-var", "label=two", "-var", "password=x", "saved.tfplan"}, 1, "Mismatch between input and plan variable value"},
		{[]string{"apply", "-var", "label=one", "-var", "password=second", "saved.tfplan"}, 0, ""},
	}
	p := newE2EProject(t, config)
	for _, step := range steps {
		args := append([]string{step.args[0], "-no-color"}, step.args[1:]...)
		out, errOut, code := p.run(args...)
		// Diagnostics are wrapped; the wanted sentence may span lines.
		if code != step.wantCode || !strings.Contains(strings.Join(strings.Fields(errOut), " "), step.want) {
			t.Fatalf("terrane %s: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", strings.Join(step.args, " "), code, step.wantCode, step.want, out, errOut)
		}
	}
	// The value given when applying is the one the provider got.
	if got := p.objects("tpf_thing")["a"].attrs["password_wo"]; got != "second" {
		t.Errorf("password_wo = %v, want the value given to apply", got)
	}

}

// TestEphemeralValuesFlowWhereAllowed passes ephemeral values through
// every construct that may carry them: a local, a child module's ephemeral
// variable and output, a provider configuration, a precondition, a check
// block and a write-only attribute; ephemeralasnull() keeps what a root
// output may record.
func TestEphemeralValuesFlowWhereAllowed(t *testing.T) {
	t.Parallel()
	providerDir := t.TempDir()
	p := newE2EProjectFiles(t, map[string]string{"main.tf": lifecycleHeader + `
variable "provider_root" {
  type      = string
  ephemeral = true
}

ephemeral "tpf_token" "t" {
  for_each = toset(["a", "b"])
  name     = each.key
}

locals {
  joined = join(",", [for k, tok in ephemeral.tpf_token.t : tok.value])
}

module "pass" {
  source = "./pass"
  secret = local.joined
  root   = var.provider_root
}

provider "tpf" {
  alias    = "elsewhere"
  root_dir = module.pass.root
}

resource "tpf_thing" "local" {
  name                = "local"
  password_wo         = "${module.pass.secret}|applying=${terraform.applying}"
  password_wo_version = 1
  lifecycle {
    precondition {
      condition     = length(split(",", local.joined)) == 2
      error_message = "two tokens expected"
    }
  }
}

resource "tpf_thing" "elsewhere" {
  provider = tpf.elsewhere
  name     = "elsewhere"
}

check "tokens" {
  assert {
    condition     = startswith(module.pass.secret, "token-a-")
    error_message = "unexpected"
  }
}

output "shape" {
  value     = ephemeralasnull({ secret = module.pass.secret, name = tpf_thing.local.name })
  sensitive = true
}

output "applying" {
  value = ephemeralasnull(terraform.applying)
}
`, "pass/main.tf": `
variable "secret" {
  type      = string
  ephemeral = true
}

variable "root" {
  type      = string
  ephemeral = true
}

output "secret" {
  value     = var.secret
  ephemeral = true
}

output "root" {
  value     = var.root
  ephemeral = true
}
`})
	p.mustRun("init")
	out := p.mustRun("apply", "-auto-approve", "-no-color", "-var", "provider_root="+providerDir)
	clitest.AssertContains(t, "apply", out, `ephemeral.tpf_token.t["a"]: Opening...`, `ephemeral.tpf_token.t["b"]: Close complete after`)
	local := p.objects("tpf_thing")["local"]
	if got, _ := local.attrs["password_wo"].(string); !strings.HasPrefix(got, "token-a-") || !strings.Contains(got, ",token-b-") || !strings.HasSuffix(got, "|applying=true") {
		t.Errorf("password_wo = %q, want both tokens and terraform.applying true", got)
	}
	if matches, _ := filepath.Glob(filepath.Join(providerDir, "tpf_thing", "*.json")); len(matches) != 1 {
		t.Errorf("the provider configured from an ephemeral value did not create its object in %s: %v", providerDir, matches)
	}
	var outputs map[string]struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal([]byte(p.mustRun("output", "-json")), &outputs); err != nil {
		t.Fatal(err)
	}
	var shape map[string]any
	if err := json.Unmarshal(outputs["shape"].Value, &shape); err != nil || len(shape) != 2 || shape["name"] != "local" || shape["secret"] != nil {
		t.Errorf("output shape = %s", outputs["shape"].Value)
	}
	// A null root output is not recorded, as in OpenTofu.
	if got, ok := outputs["applying"]; ok {
		t.Errorf("output applying = %s, want no output", got.Value)
	}
	if leases := p.objects("tpf_token"); len(leases) != 0 {
		t.Errorf("tokens left open: %v", sortedNames(leases))
	}
}

// TestWriteOnlyAttributes checks OpenTofu's write-only rules through the
// CLI: the value reaches the provider on create, is null in the plan, the
// state and show's JSON, shows as "(write-only attribute)", a new value
// alone changes nothing, and bumping its version argument sends the new
// one (the corpus case rendering/write_only_attributes compares the
// commands with OpenTofu).
func TestWriteOnlyAttributes(t *testing.T) {
	t.Parallel()
	version := func(password string, v int) string {
		return lifecycleHeader + `
resource "tpf_thing" "db" {
  name                = "db"
  password_wo         = "` + password + `"
  password_wo_version = ` + string(rune('0'+v)) + `
}
`
	}
	p := newE2EProject(t, version("first-password", 1))
	plan := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "plan", plan, `+ password_wo         = (write-only attribute)`, "Plan: 1 to add")
	p.mustRun("apply", "-auto-approve", "-no-color")
	if got := p.objects("tpf_thing")["db"].attrs["password_wo"]; got != "first-password" {
		t.Fatalf("provider got password_wo %v", got)
	}
	state := p.mustRun("show", "-json")
	if strings.Contains(state, "first-password") || !strings.Contains(state, `"password_wo":null`) {
		t.Errorf("show -json does not hold password_wo as null:\n%s", state)
	}
	clitest.AssertContains(t, "show", p.mustRun("show", "-no-color"), "password_wo         = (write-only attribute)")

	p.write(version("second-password", 1))
	if out := p.mustRun("plan", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Errorf("a new write-only value alone planned a change:\n%s", out)
	}
	p.write(version("second-password", 2))
	out := p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "apply", out, "~ password_wo_version = 1 -> 2", "1 changed")
	if got := p.objects("tpf_thing")["db"].attrs["password_wo"]; got != "second-password" {
		t.Errorf("after the version bump the provider has password_wo %v", got)
	}

}
