package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
)

// loadSource loads a one-file configuration written to a temporary
// directory.
func loadSource(t *testing.T, src string) (*Config, hcl.Diagnostics) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return loadAndValidateReferences(dir)
}

// loadAndValidateReferences loads the configuration in dir and checks its
// references, as validation does.
func loadAndValidateReferences(dir string) (*Config, hcl.Diagnostics) {
	cfg, diags := LoadConfigDir(dir)
	if cfg != nil && !diags.HasErrors() {
		diags = append(diags, ValidateReferences(cfg)...)
	}
	return cfg, diags
}

func TestEphemeralBlock(t *testing.T) {
	cfg, diags := loadSource(t, `
ephemeral "tpf_token" "t" {
  name = "x"
  lifecycle {
    enabled = true
    precondition {
      condition     = var.x != ""
      error_message = "x"
    }
  }
}

variable "x" {
  type      = string
  ephemeral = true
}

locals {
  value = ephemeral.tpf_token.t.value
}
`)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	r := cfg.Module.Resources[addrs.Resource{Mode: addrs.EphemeralResourceMode, Type: "tpf_token", Name: "t"}]
	if r == nil {
		t.Fatalf("ephemeral block not decoded: %v", cfg.Module.Resources)
	}
	if r.Managed != nil || r.Enabled == nil || len(r.Preconditions) != 1 {
		t.Errorf("ephemeral block decoded wrongly: %#v", r)
	}
	if got := r.Addr().String(); got != "ephemeral.tpf_token.t" {
		t.Errorf("address = %s", got)
	}
	if r.Provider.Type != "tpf" {
		t.Errorf("provider = %s", r.Provider)
	}
}

func TestEphemeralConfigurationErrors(t *testing.T) {
	tests := map[string]struct {
		src, summary, detail, at string
	}{
		"managed lifecycle argument": {`
ephemeral "tpf_token" "t" {
  lifecycle {
    create_before_destroy = true
  }
}
`, "Invalid lifecycle configuration for ephemeral resource", `The lifecycle argument "create_before_destroy" cannot be used in ephemeral resources.`, "main.tf:4:5"},
		"provisioner": {`
ephemeral "tpf_token" "t" {
  provisioner "local-exec" {}
}
`, "Unsupported block type", `Blocks of type "provisioner" are not expected here.`, "main.tf:3:3"},
		"root ephemeral output": {`
output "o" {
  value     = "x"
  ephemeral = true
}
`, "Invalid output configuration", "Root modules are not allowed to have outputs defined as ephemeral", "main.tf:2:1"},
		"undeclared ephemeral resource": {`
output "o" {
  value = ephemeral.tpf_token.missing.value
}
`, "Reference to undeclared resource", `There is no ephemeral resource "tpf_token" "missing" definition in the root module.`, "main.tf:3:11"},
		"duplicate": {`
ephemeral "tpf_token" "t" {}
ephemeral "tpf_token" "t" {}
`, `Duplicate ephemeral "tpf_token" configuration`, "", "main.tf:3:1"},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			_, diags := loadSource(t, test.src)
			if !diags.HasErrors() {
				t.Fatal("configuration loaded without errors")
			}
			found := false
			for _, d := range diags {
				if d.Summary != test.summary || d.Subject == nil {
					continue
				}
				found = true
				at := fmt.Sprintf("%s:%d:%d", filepath.Base(d.Subject.Filename), d.Subject.Start.Line, d.Subject.Start.Column)
				if at != test.at {
					t.Errorf("%q at %s, want %s", test.summary, at, test.at)
				}
				if !strings.Contains(d.Detail, test.detail) {
					t.Errorf("detail %q lacks %q", d.Detail, test.detail)
				}
			}
			if !found {
				t.Fatalf("no %q diagnostic; got: %s", test.summary, diags.Error())
			}
		})
	}
}
