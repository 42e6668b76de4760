package e2etest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// pulumiSecretConfig uses tpulumi's apiKey, which the provider returns as
// a secret output value though its schema does not declare it secret, and
// listThings through its streaming data source.
const pulumiSecretConfig = `
terraform {
  required_providers {
    tpulumi = { source = "pulumi/tpulumi", version = "~> 0.1" }
  }
}

provider "tpulumi" {
  root_dir = "CLOUD"
}

resource "tpulumi_thing" "alpha" {
  name    = "alpha"
  nonce   = "n-alpha"
  content = "first"
}

resource "tpulumi_thing" "beta" {
  name    = "beta"
  nonce   = "n-beta"
  content = tpulumi_thing.alpha.id
}

data "tpulumi_list_things_stream" "all" {
  prefix     = ""
  depends_on = [tpulumi_thing.alpha, tpulumi_thing.beta]
}

output "names" {
  value = [for thing in data.tpulumi_list_things_stream.all.results : thing.name]
}
`

// TestE2EPulumiRuntimeSecretsAreSensitive: a value the provider returns
// as a secret is sensitive wherever Terrane shows or exports it.
func TestE2EPulumiRuntimeSecretsAreSensitive(t *testing.T) {
	t.Parallel()
	p := newPulumiProject(t, pulumiSecretConfig)

	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "plan", out, `api_key        = (sensitive value)`)
	if strings.Contains(out, "key-alpha") {
		t.Errorf("plan shows the secret api_key:\n%s", out)
	}
	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "apply", out, "Apply complete! Resources: 2 added")
	if got := p.objects("tpulumi_thing")["alpha"].attrs["apiKey"]; got != "key-alpha" {
		t.Fatalf("the cloud holds apiKey %v, want key-alpha", got)
	}

	out = p.mustRun("show", "-no-color")
	clitest.AssertContains(t, "show", out, `api_key        = (sensitive value)`)
	if strings.Contains(out, "key-alpha") {
		t.Errorf("show prints the secret api_key:\n%s", out)
	}

	var shown struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address         string          `json:"address"`
					SensitiveValues map[string]any  `json:"sensitive_values"`
					Values          json.RawMessage `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(p.mustRun("show", "-json")), &shown); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range shown.Values.RootModule.Resources {
		if r.Address == "tpulumi_thing.alpha" {
			found = true
			if r.SensitiveValues["api_key"] != true {
				t.Errorf("show -json sensitive_values of %s = %v, want api_key true", r.Address, r.SensitiveValues)
			}
		}
	}
	if !found {
		t.Fatalf("show -json has no tpulumi_thing.alpha")
	}

	pulled := p.mustRun("state", "pull")
	var state struct {
		Resources []struct {
			Name      string `json:"name"`
			Instances []struct {
				SensitiveAttributes json.RawMessage `json:"sensitive_attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(pulled), &state); err != nil {
		t.Fatal(err)
	}
	for _, r := range state.Resources {
		if r.Name == "alpha" && !strings.Contains(string(r.Instances[0].SensitiveAttributes), "api_key") {
			t.Errorf("state pull sensitive_attributes of alpha = %s, want api_key among them", r.Instances[0].SensitiveAttributes)
		}
	}
	p.expectNoChanges("plan after apply")

	// An output passing the runtime secret on is hidden when listed.
	p.write(pulumiSecretConfig + "\noutput \"key\" {\n  value     = tpulumi_thing.alpha.api_key\n  sensitive = true\n}\n")
	p.mustRun("apply", "-auto-approve", "-no-color")
	out = p.mustRun("output", "-no-color")
	clitest.AssertContains(t, "output", out, "key = <sensitive>")
	if strings.Contains(out, "key-alpha") {
		t.Errorf("output lists the secret:\n%s", out)
	}
	p.write(pulumiSecretConfig)
	p.mustRun("apply", "-auto-approve", "-no-color")

	// The streaming data source collected one answer per thing.
	out = p.mustRun("output", "-json", "names")
	if strings.Join(strings.Fields(out), "") != `["alpha","beta"]` {
		t.Errorf("output names = %s, want both things from the stream", out)
	}
}
