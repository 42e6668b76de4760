package e2etest

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/terrane/terrane/internal/testing/clitest"
)

const showOutputConfig = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}
resource "tpf_thing" "web" {
  name   = "web"
  secret = "hunter2"
  tags   = { env = "prod" }
}

output "web_id" {
  value = tpf_thing.web.id
}

output "count" {
  value = 3
}

output "token" {
  value     = "s3cret-token"
  sensitive = true
}

output "doc" {
  value = { name = tpf_thing.web.name, tags = ["a", "b"] }
}
`

// TestShowAndOutputAfterApply applies a configuration with the framework
// test provider, then reads the workspace back through show and output in
// every form, checking the JSON with terraform-json's types.
func TestShowAndOutputAfterApply(t *testing.T) {
	t.Parallel()
	testShowAndOutputAfterApply(t)
}

// testShowAndOutputAfterApply is TestShowAndOutputAfterApply in a project whose environment has env too;
// it returns the project.
func testShowAndOutputAfterApply(t *testing.T, env ...string) *e2eProject {
	p := newE2EProjectEnv(t, showOutputConfig, env...)
	p.mustRun("apply", "-auto-approve")

	t.Run("output lists values, hiding sensitive ones", func(t *testing.T) {
		out := p.mustRun("output")
		wantContains(t, "output", out, `count = 3`, `token = <sensitive>`, `doc = {`, `"name" = "web"`, `web_id = "`)
		if strings.Contains(out, "s3cret-token") {
			t.Errorf("sensitive value listed:\n%s", out)
		}
	})
	t.Run("output by name shows the value", func(t *testing.T) {
		if out := p.mustRun("output", "token"); out != "\"s3cret-token\"\n" {
			t.Errorf("output token = %q", out)
		}
		if out := p.mustRun("output", "-raw", "count"); out != "3" {
			t.Errorf("output -raw count = %q", out)
		}
		if out := p.mustRun("output", "-json", "doc"); out != `{"name":"web","tags":["a","b"]}`+"\n" {
			t.Errorf("output -json doc = %q", out)
		}
	})
	t.Run("output errors name the problem", func(t *testing.T) {
		_, errOut, code := p.run("output", "nope")
		if code != 1 || !strings.Contains(errOut, `Output "nope" not found`) {
			t.Errorf("exit %d, stderr:\n%s", code, errOut)
		}
		_, errOut, code = p.run("output", "-raw", "doc")
		if code != 1 || !strings.Contains(clitest.Unwrapped(errOut), "The -raw option only supports strings, numbers, and boolean values") {
			t.Errorf("exit %d, stderr:\n%s", code, errOut)
		}
	})
	t.Run("output -json", func(t *testing.T) {
		var outputs map[string]tfjson.StateOutput
		if err := json.Unmarshal([]byte(p.mustRun("output", "-json")), &outputs); err != nil {
			t.Fatal(err)
		}
		if len(outputs) != 4 || !outputs["token"].Sensitive || outputs["token"].Value != "s3cret-token" || outputs["count"].Value != float64(3) {
			t.Errorf("outputs %+v", outputs)
		}
	})
	t.Run("show -json", func(t *testing.T) {
		var state tfjson.State
		if err := json.Unmarshal([]byte(p.mustRun("show", "-json")), &state); err != nil {
			t.Fatal(err)
		}
		if err := state.Validate(); err != nil {
			t.Fatal(err)
		}
		resources := state.Values.RootModule.Resources
		if len(resources) != 1 || resources[0].Address != "tpf_thing.web" || resources[0].AttributeValues["name"] != "web" {
			t.Fatalf("resources %+v", resources)
		}
		var sensitive map[string]any
		if err := json.Unmarshal(resources[0].SensitiveValues, &sensitive); err != nil {
			t.Fatal(err)
		}
		if sensitive["secret"] != true {
			t.Errorf("sensitive_values %v does not mark the secret", sensitive)
		}
	})
	t.Run("show", func(t *testing.T) {
		out := p.mustRun("show", "-no-color")
		wantContains(t, "show", out, "# tpf_thing.web:", `resource "tpf_thing" "web" {`, "secret", "(sensitive value)", "Outputs:", "token = (sensitive value)")
		if strings.Contains(out, "hunter2") || strings.Contains(out, "s3cret-token") {
			t.Errorf("sensitive value shown:\n%s", out)
		}
	})
	t.Run("show -json PLANFILE", func(t *testing.T) {
		p.write(strings.Replace(showOutputConfig, `env = "prod"`, `env = "staging"`, 1))
		planPath := filepath.Join(p.dir, "tfplan")
		p.mustRun("plan", "-out="+planPath)
		var plan tfjson.Plan
		if err := json.Unmarshal([]byte(p.mustRun("show", "-json", planPath)), &plan); err != nil {
			t.Fatal(err)
		}
		if err := plan.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(plan.ResourceChanges) != 1 || !plan.ResourceChanges[0].Change.Actions.Update() {
			t.Fatalf("resource changes %+v", plan.ResourceChanges)
		}
		if plan.PriorState == nil || len(plan.PriorState.Values.RootModule.Resources) != 1 {
			t.Errorf("prior state %+v", plan.PriorState)
		}
		if plan.Config == nil || len(plan.Config.RootModule.Resources) != 1 {
			t.Errorf("configuration %+v", plan.Config)
		}
		human := p.mustRun("show", "-no-color", planPath)
		wantContains(t, "show PLANFILE", human, "tpf_thing.web", "staging")
	})
	return p
}

// wantContains fails unless text holds every wanted fragment as it is.
func wantContains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s output lacks %q:\n%s", what, want, text)
		}
	}
}
