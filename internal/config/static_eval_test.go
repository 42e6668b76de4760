package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// TestStaticModuleResolvesSourceAndVersion works out a registry call's
// source and version from a root variable given by the inputs, a local and
// a function, as OpenTofu's early evaluation does.
func TestStaticModuleResolvesSourceAndVersion(t *testing.T) {
	dir := t.TempDir()
	src := `
variable "major" {
  type = number
}

locals {
  namespace = "example"
}

module "net" {
  source  = "${local.namespace}/net/${lower("AWS")}"
  version = "~> ${var.major}.0"
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	parser := NewParser()
	parser.Static = StaticInputs{RootVariable: func(decls map[string]*Variable, name string) (cty.Value, hcl.Diagnostics) {
		if name != "major" || decls["major"] == nil {
			t.Fatalf("asked for %q", name)
		}
		return cty.StringVal("4"), nil
	}}
	mod, diags := parser.LoadModule(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	call := mod.ModuleCalls["net"]
	if call.SourceAddr != "" || call.SourceExpr == nil || call.VersionExpr == nil {
		t.Fatalf("source and version should wait for static evaluation: %q", call.SourceAddr)
	}
	if diags := parser.StaticRoot(mod, dir).ResolveCall(call); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if call.SourceAddr != "example/net/aws" || call.Version.Source != "~> 4.0" {
		t.Errorf("source %q, version %q", call.SourceAddr, call.Version.Source)
	}

	parser.Static = StaticInputs{}
	call.SourceAddr, call.Version = "", VersionConstraint{}
	diags = parser.StaticRoot(mod, dir).ResolveCall(call)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "No value for required variable") {
		t.Errorf("without a value for var.major: %v", diags)
	}
}
