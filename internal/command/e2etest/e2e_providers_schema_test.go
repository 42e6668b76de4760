package e2etest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/terrane/terrane/internal/testing/providertest"
	"github.com/zclconf/go-cty/cty"
)

func TestProvidersSchemaJSON(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	p := newMirrorProject(t, mirror.Dir, `
terraform {
  required_providers {
    tpf   = { source = "registry.terraform.io/terrane/tpf", version = ">= 0.1.0" }
    tpf5  = { source = "registry.terraform.io/terrane/tpf5" }
  }
}
`)
	out, errOut, code := p.run("providers", "schema", "-json")
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
	t.Parallel()
	mirror := providertest.Build(t)
	p := newMirrorProject(t, mirror.Dir, `
terraform {
  required_providers {
    nope = { source = "registry.terraform.io/terrane/nope" }
  }
}
`)
	_, errOut, code := p.run("providers", "schema", "-json")
	if code == 0 {
		t.Fatal("succeeded without the provider")
	}
	if !strings.Contains(errOut, "terrane/nope") {
		t.Errorf("diagnostic does not name the missing provider:\n%s", errOut)
	}
}

func TestProvidersSchemaRequiresJSONFlag(t *testing.T) {
	t.Parallel()
	_, errOut, code := newBareProject(t).run("providers", "schema")
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

// TestProvidersSchemaMatchesOpenTofu runs `tofu providers schema -json`
// and `terrane providers schema -json` over the same public provider
// binaries and compares the documents. It needs OpenTofu, the differential
// corpus's oracle (TERRANE_ORACLE_DIR), and a filesystem mirror of public
// providers: TERRANE_COMPAT_MIRROR, or /opt/tf-plugins when it exists; it
// is skipped otherwise. The providers compared are every
// HOST/NAMESPACE/TYPE in the mirror; both programs install them from the
// unpacked mirror, and each starts them once.
func TestProvidersSchemaMatchesOpenTofu(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("compares with OpenTofu over real public providers; skipped with -short")
	}
	tofu := oracleTofu(t)
	mirror := os.Getenv("TERRANE_COMPAT_MIRROR")
	if mirror == "" {
		mirror = "/opt/tf-plugins"
	}
	sources, _ := filepath.Glob(filepath.Join(mirror, "*", "*", "*"))
	if len(sources) == 0 {
		t.Skipf("no public providers in the mirror %s", mirror)
	}
	var requirements strings.Builder
	requirements.WriteString("terraform {\n  required_providers {\n")
	for _, dir := range sources {
		rel, _ := filepath.Rel(mirror, dir)
		source := filepath.ToSlash(rel)
		requirements.WriteString("    " + filepath.Base(dir) + " = { source = \"" + source + "\" }\n")
	}
	requirements.WriteString("  }\n}\n")

	p := newMirrorProject(t, mirror, requirements.String())
	project := p.dir
	env := append(inheritedEnv(), "HOME="+p.getenv("HOME"), "TF_CLI_CONFIG_FILE="+p.getenv("TERRANE_CLI_CONFIG_FILE"), "TF_DATA_DIR="+filepath.Join(t.TempDir(), "tfdata"),
		"TF_PLUGIN_CACHE_DIR=", "CHECKPOINT_DISABLE=1")
	runTofu := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(tofu, args...)
		cmd.Dir, cmd.Env = project, env
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("tofu %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
		}
		return out
	}
	runTofu("init", "-input=false", "-backend=false")
	want := runTofu("providers", "schema", "-json")

	got, errOut, code := p.run("providers", "schema", "-json")
	if code != 0 {
		t.Fatalf("terrane exit %d:\n%s", code, errOut)
	}
	var wantDoc, gotDoc tfjson.ProviderSchemas
	if err := json.Unmarshal(want, &wantDoc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(got), &gotDoc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&wantDoc, &gotDoc, cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) })); diff != "" {
		t.Errorf("terrane's schema JSON differs from OpenTofu's (-tofu +terrane):\n%s", truncate(diff, 4000))
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n..."
}
