package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeLargeConfig writes a module of files×perFile resource blocks, half
// with count and half with for_each, each referring to variables, locals
// and the previous resource, plus a local child module called with for_each.
func writeLargeConfig(tb testing.TB, dir string, files, perFile int) {
	tb.Helper()
	shared := `variable "n" {
  type    = number
  default = 2
}

variable "names" {
  type    = set(string)
  default = ["a", "b", "c"]
}

locals {
  prefix = "bench"
}

module "child" {
  source   = "./child"
  for_each = var.names
  name     = each.key
}
`
	writeBenchFile(tb, filepath.Join(dir, "shared.tf"), shared)
	writeBenchFile(tb, filepath.Join(dir, "child", "main.tf"), "variable \"name\" {}\n\noutput \"id\" {\n  value = var.name\n}\n")
	for f := 0; f < files; f++ {
		var buf strings.Builder
		for r := 0; r < perFile; r++ {
			name := fmt.Sprintf("r%d_%d", f, r)
			if r%2 == 0 {
				fmt.Fprintf(&buf, "resource \"null_resource\" %q {\n  count = var.n\n  triggers = {\n    name  = \"${local.prefix}-%s-${count.index}\"\n    child = module.child[\"a\"].id\n  }\n}\n\n", name, name)
			} else {
				prev := fmt.Sprintf("r%d_%d", f, r-1)
				fmt.Fprintf(&buf, "resource \"terraform_data\" %q {\n  for_each = var.names\n  input    = \"${each.key}-${null_resource.%s[0].id}\"\n  lifecycle {\n    create_before_destroy = true\n  }\n  depends_on = [null_resource.%s]\n}\n\n", name, prev, prev)
			}
		}
		writeBenchFile(tb, filepath.Join(dir, fmt.Sprintf("file%03d.tf", f)), buf.String())
	}
}

func writeBenchFile(tb testing.TB, path, content string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkLoad10kResources loads a 10,000-resource configuration spread
// over 100 files.
func BenchmarkLoad10kResources(b *testing.B) {
	dir := b.TempDir()
	writeLargeConfig(b, dir, 100, 100)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		cfg, diags := LoadConfigDir(dir)
		if diags.HasErrors() {
			b.Fatal(diags.Error())
		}
		if len(cfg.Module.Resources) != 10000 {
			b.Fatalf("loaded %d resources", len(cfg.Module.Resources))
		}
	}
}

func TestLargeConfigLoads(t *testing.T) {
	dir := t.TempDir()
	writeLargeConfig(t, dir, 10, 20)
	cfg, diags := LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if len(cfg.Module.Resources) != 200 || len(cfg.Children) != 1 {
		t.Fatalf("%d resources, %d children", len(cfg.Module.Resources), len(cfg.Children))
	}
}
