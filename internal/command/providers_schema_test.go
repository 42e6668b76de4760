package command

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// useMirror points provider installation at a filesystem mirror, keeps the
// schema cache inside the test, and switches into a fresh working directory
// holding the given configuration.
func useMirror(t *testing.T, mirrorDir, mainTF string) string {
	t.Helper()
	work := t.TempDir()
	rc := filepath.Join(work, "terraformrc")
	writeFile(t, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirrorDir+"\"\n  }\n}\n")
	t.Setenv("TERRANE_CLI_CONFIG_FILE", rc)
	t.Setenv("TF_PLUGIN_CACHE_DIR", "")
	t.Setenv("TERRANE_SCHEMA_CACHE_DIR", filepath.Join(work, "schemas"))
	project := filepath.Join(work, "project")
	writeFile(t, filepath.Join(project, "main.tf"), mainTF)
	t.Chdir(project)
	return project
}

func TestProvidersSchemaJSON(t *testing.T) {
	mirror := providertest.Build(t)
	useMirror(t, mirror.Dir, `
terraform {
  required_providers {
    tpf   = { source = "registry.terraform.io/terrane/tpf", version = ">= 0.1.0" }
    tpf5  = { source = "registry.terraform.io/terrane/tpf5" }
  }
}
`)
	out, errOut, code := runCommand(t, "providers", "schema", "-json")
	if code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, errOut)
	}
	var doc tfjson.ProviderSchemas
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("output is not Terraform's provider schema JSON: %v\n%s", err, out)
	}
	if err := doc.Validate(); err != nil {
		t.Fatalf("format version: %v", err)
	}
	for _, addr := range []string{"registry.terraform.io/terrane/tpf", "registry.terraform.io/terrane/tpf5"} {
		ps := doc.Schemas[addr]
		if ps == nil {
			t.Fatalf("no schema for %s; got %v", addr, keys(doc.Schemas))
		}
		if len(ps.ResourceSchemas) == 0 || len(ps.DataSourceSchemas) == 0 {
			t.Errorf("%s: %d resource and %d data source schemas, want some of each", addr, len(ps.ResourceSchemas), len(ps.DataSourceSchemas))
		}
		for name := range ps.ResourceSchemas {
			prefix := strings.TrimPrefix(addr, "registry.terraform.io/terrane/") + "_"
			if !strings.HasPrefix(name, prefix) {
				t.Errorf("%s: resource type %q lacks prefix %q", addr, name, prefix)
			}
		}
	}
	if fns := doc.Schemas["registry.terraform.io/terrane/tpf"].Functions; len(fns) == 0 {
		t.Errorf("tpf declares provider functions, none in output")
	}
	// OpenTofu 1.12 prints why an attribute or block is deprecated, which
	// protocols 5.10 and 6.10 carry; terraform-json has no field for it.
	var raw struct {
		Schemas map[string]struct {
			Resources map[string]struct {
				Block struct {
					Attributes map[string]map[string]any `json:"attributes"`
					Blocks     map[string]struct {
						Block map[string]any `json:"block"`
					} `json:"block_types"`
				} `json:"block"`
			} `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	for _, provider := range []string{"tpf", "tpf5"} {
		legacy := raw.Schemas["registry.terraform.io/terrane/"+provider].Resources[provider+"_legacy"].Block
		if got := legacy.Attributes["old_name"]; got["deprecated"] != true || got["deprecation_message"] != "Use name instead." {
			t.Errorf("%s_legacy.old_name: %v", provider, got)
		}
		if got := legacy.Blocks["old_settings"].Block; got["deprecated"] != true || got["deprecation_message"] != "Settings are no longer read." {
			t.Errorf("%s_legacy.old_settings: %v", provider, got)
		}
		if _, ok := legacy.Attributes["name"]["deprecation_message"]; ok {
			t.Errorf("%s_legacy.name has a deprecation message", provider)
		}
	}
}

func TestProvidersSchemaMissingProvider(t *testing.T) {
	mirror := providertest.Build(t)
	useMirror(t, mirror.Dir, `
terraform {
  required_providers {
    nope = { source = "registry.terraform.io/terrane/nope" }
  }
}
`)
	_, errOut, code := runCommand(t, "providers", "schema", "-json")
	if code == 0 {
		t.Fatal("succeeded without the provider")
	}
	if !strings.Contains(errOut, "terrane/nope") {
		t.Errorf("diagnostic does not name the missing provider:\n%s", errOut)
	}
}

func TestProvidersSchemaRequiresJSONFlag(t *testing.T) {
	_, errOut, code := runCommand(t, "providers", "schema")
	if code == 0 || !strings.Contains(errOut, "-json") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
