package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func loadFiles(t *testing.T, files map[string]string) *Config {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, diags := LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatalf("loading: %s", diags.Error())
	}
	return cfg
}

const tpfRequired = `terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
`

// TestMissingProviderConfigs: loading accepts references to provider
// configurations nothing provides; planning and validating refuse them as
// OpenTofu's graph builder does.
func TestMissingProviderConfigs(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		// want is the summary when planning, wantValidate when validating
		// ("" for none).
		want, wantValidate string
	}{
		{"root alias", map[string]string{"main.tf": tpfRequired + `resource "tpf_thing" "a" { provider = tpf.missing }`},
			`Provider configuration not present; To work with tpf_thing.a (expand) its original provider configuration at provider["registry.terraform.io/terrane/tpf"].missing`, "Provider configuration not present"},
		{"root configuration alias", map[string]string{"main.tf": `terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf", configuration_aliases = [tpf.west] }
  }
}
resource "tpf_thing" "a" { provider = tpf.west }`}, "Provider configuration not present", ""},
		{"passed alias missing", map[string]string{"main.tf": tpfRequired + `module "c" {
  source    = "./c"
  providers = { tpf = tpf.missing }
}`, "c/main.tf": tpfRequired},
			`missing provider provider["registry.terraform.io/terrane/tpf"].missing`, "missing provider"},
		{"alias passed", map[string]string{"main.tf": tpfRequired + `provider "tpf" { alias = "x" }
module "c" {
  source    = "./c"
  providers = { tpf.y = tpf.x }
}`, "c/main.tf": `terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf", configuration_aliases = [tpf.y] }
  }
}
resource "tpf_thing" "a" { provider = tpf.y }`}, "", ""},
		{"default inherited", map[string]string{"main.tf": tpfRequired + `module "c" { source = "./c" }`, "c/main.tf": tpfRequired + `resource "tpf_thing" "a" {}`}, "", ""},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			cfg := loadFiles(t, test.files)
			for _, check := range []struct {
				validate bool
				want     string
			}{{false, test.want}, {true, test.wantValidate}} {
				diags := MissingProviderConfigs(cfg, check.validate)
				switch {
				case check.want == "" && diags.HasErrors():
					t.Errorf("validate=%v: %s", check.validate, diags.Error())
				case check.want != "" && !strings.Contains(diags.Error(), check.want):
					t.Errorf("validate=%v: got %q, want %q", check.validate, diags.Error(), check.want)
				}
			}
		})
	}
}
