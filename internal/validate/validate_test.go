package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

func loadSource(t *testing.T, src string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, hd := config.LoadConfigDir(dir)
	if hd.HasErrors() {
		t.Fatal(hd)
	}
	return cfg
}

// TestUndefinedAliasedProvider: a resource naming an aliased provider
// configuration nobody declares loads, and validation refuses it as
// OpenTofu's graph does, before anything else.
func TestUndefinedAliasedProvider(t *testing.T) {
	cfg := loadSource(t, `
resource "null_resource" "a" {
  provider = null.west
}

output "o" {
  value = var.nope
}
`)
	ds := Config(context.Background(), cfg, Providers{})
	if len(ds) != 1 || ds[0].Summary != "Provider configuration not present" ||
		!strings.Contains(ds[0].Detail, `provider["registry.opentofu.org/hashicorp/null"].west`) {
		t.Fatalf("got %s", ds.Err())
	}
}

// TestReferencesAndValues: reference errors and evaluation errors are
// reported together, each once.
func TestReferencesAndValues(t *testing.T) {
	cfg := loadSource(t, `
locals {
  x = tonumber("abc")
}

output "o" {
  value = self.id
}
`)
	ds := Config(context.Background(), cfg, Providers{})
	var summaries []string
	for _, d := range ds {
		if d.Severity == diags.Error {
			summaries = append(summaries, d.Summary)
		}
	}
	if strings.Join(summaries, "; ") != `Invalid "self" reference; Invalid function argument` {
		t.Fatalf("got %q", summaries)
	}
}
