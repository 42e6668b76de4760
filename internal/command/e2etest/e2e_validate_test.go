package e2etest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/terrane/terrane/internal/command/jsonvalidate"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// validateCorpus lists the invalid configurations under testdata/validate
// (none needs a provider) with the first error each must produce.
var validateCorpus = []struct {
	dir     string
	summary string
	at      string // file:line:column of the error's range start
}{
	{"bad-default", "Invalid default value for variable", "main.tf:3:13"},
	{"check-assert-no-refs", "Invalid assert expression", "main.tf:3:21"},
	{"precondition-without-references", "Invalid precondition expression", "main.tf:4:23"},
	{"removed-instance-key", "Resource instance address with keys is not allowed", "main.tf:2:26"},
	{"validation-no-refs", "Invalid validation expression", "main.tf:4:21"},
	{"validation-no-self-ref", "Invalid variable validation condition", "main.tf:8:21"},
	{"duplicate-output", "Duplicate output definition", "main.tf:5:1"},
	{"invalid-operand", "Invalid operand", "main.tf:7:33"},
	{"missing-output-value", "Missing required argument", "main.tf:1:12"},
	{"too-many-function-arguments", "Too many function arguments", "main.tf:2:23"},
	{"unclosed-block", "Unclosed configuration block", "main.tf:1:8"},
	{"undeclared-variable", "Reference to undeclared input variable", "main.tf:2:20"},
	{"unknown-function", "Call to unknown function", "main.tf:2:10"},
	{"unsupported-argument", "Unsupported argument", "main.tf:3:3"},
}

// copyCorpusCase copies one corpus configuration into a fresh directory,
// so that neither terrane nor terraform leaves files in testdata.
func copyCorpusCase(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "validate", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runValidateJSON runs validate -json in p, with -chdir=dir when dir is
// not "", and reads its document.
func runValidateJSON(t *testing.T, p *e2eProject, dir string) (tfjson.ValidateOutput, jsonvalidate.Output, int) {
	t.Helper()
	args := []string{"validate", "-json"}
	if dir != "" {
		args = append([]string{"-chdir=" + dir}, args...)
	}
	out, errOut, code := p.run(args...)
	var doc tfjson.ValidateOutput
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("output is not Terraform's validate JSON: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	if err := doc.Validate(); err != nil {
		t.Fatalf("format version: %v", err)
	}
	var ours jsonvalidate.Output
	if err := json.Unmarshal([]byte(out), &ours); err != nil {
		t.Fatal(err)
	}
	return doc, ours, code
}

func diagAt(d tfjson.Diagnostic) string {
	if d.Range == nil {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", d.Range.Filename, d.Range.Start.Line, d.Range.Start.Column)
}

func TestValidateCorpus(t *testing.T) {
	t.Parallel()
	for _, tc := range validateCorpus {
		t.Run(tc.dir, func(t *testing.T) {
			t.Parallel()
			dir := copyCorpusCase(t, tc.dir)
			doc, _, code := runValidateJSON(t, newBareProject(t), dir)
			if code != 1 || doc.Valid || doc.ErrorCount == 0 {
				t.Fatalf("exit %d, valid %v, %d errors: want an invalid result", code, doc.Valid, doc.ErrorCount)
			}
			first := doc.Diagnostics[0]
			if first.Summary != tc.summary || diagAt(first) != tc.at {
				t.Errorf("first diagnostic %q at %s, want %q at %s", first.Summary, diagAt(first), tc.summary, tc.at)
			}
			if first.Snippet == nil || first.Snippet.Code == "" {
				t.Errorf("no code snippet: %+v", first)
			}
		})
	}
}

func TestValidateSuccessHuman(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clitest.WriteFile(t, filepath.Join(dir, "main.tf"), `
variable "names" {
  type = list(string)
}

locals {
  upper_names = [for n in var.names : upper(n)]
}

output "first" {
  value = length(local.upper_names) > 0 ? local.upper_names[0] : null
}
`)
	out, errOut, code := newBareProject(t).run("-chdir="+dir, "validate", "-no-color")
	if code != 0 || out != "Success! The configuration is valid.\n" || errOut != "" {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func TestValidateErrorsHuman(t *testing.T) {
	t.Parallel()
	dir := copyCorpusCase(t, "unsupported-argument")
	_, errOut, code := newBareProject(t).run("-chdir="+dir, "validate", "-no-color")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"Error: Unsupported argument", `on main.tf line 3, in variable "region":`, `Did you mean "default"?`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "\x1b[") {
		t.Errorf("-no-color output has escape sequences:\n%q", errOut)
	}
}

func TestValidateRejectsArguments(t *testing.T) {
	t.Parallel()
	_, errOut, code := newBareProject(t).run("validate", "somewhere")
	if code != 1 || !strings.Contains(errOut, "-chdir") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestValidateWithoutProviders checks that, as in OpenTofu, a
// configuration whose providers are not installed is not validated: the
// error names the provider and says to run init.
func TestValidateWithoutProviders(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	p := newMirrorProject(t, mirror.Dir, `
terraform {
  required_providers {
    absent = { source = "registry.terraform.io/terrane/absent" }
  }
}

resource "absent_thing" "a" {
  anything = "goes"
}
`)
	out, errOut, code := p.run("validate", "-no-color")
	if code != 1 || strings.Contains(out, "Success!") {
		t.Fatalf("exit %d\nstdout:\n%s", code, out)
	}
	clitest.AssertContains(t, "stderr", errOut, "Error: Missing required provider", "registry.terraform.io/terrane/absent", "terrane init")
}

const validateProvidersTF = `terraform {
  required_providers {
    tpf   = { source = "registry.terraform.io/terrane/tpf" }
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
  }
}

provider "tpf" {
  root_dirx = "/tmp"
}

resource "tpf_thing" "counted" {
  count = 2
  name  = "thing-${count.index}"
  nmber = 3
  tags  = "not a map"
}

resource "tpf_thing" "switch" {
  name = "s"
  fail = "no_such_switch"
}

resource "tpf_blocks" "rules" {
  name = "r"
  dynamic "rule" {
    for_each = [1, 2, 3, 4]
    content {
      action = "act-${rule.value}"
    }
  }
}

resource "tpsdk_widget" "w" {
  name = tpf_thing.switch.name
  rule { action = "a" }
  rule { action = "b" }
  rule { action = "c" }
  rule { action = "d" }
}

data "tpf_thing" "missing_id" {
}

check "scoped" {
  data "tpf_thing" "lookup" {
    idd = "x"
  }
  assert {
    condition     = data.tpf_thing.lookup != null
    error_message = "never"
  }
}

resource "tpf_thng" "typo" {}

module "child" {
  source = "./child"
}

output "misspelled" {
  value = tpf_thing.switch.nmae
}
`

const validateChildTF = `terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

resource "tpf_thing" "in_child" {
  name   = 42
  number = "not a number"
}
`

// TestValidateWithProviders checks blocks against the test providers'
// schemas and validators, in the root module, a check block and a child
// module.
func TestValidateWithProviders(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	p := newMirrorProject(t, mirror.Dir, validateProvidersTF)
	p.writeFile("child/main.tf", validateChildTF)
	if _, errOut, code := p.run("init", "-no-color"); code != 0 {
		t.Fatalf("init: exit %d\n%s", code, errOut)
	}
	doc, _, code := runValidateJSON(t, p, "")
	if code != 1 || doc.Valid {
		t.Fatalf("exit %d, valid %v", code, doc.Valid)
	}
	want := []struct{ summary, at, detail string }{
		{"Unsupported argument", "main.tf:9:3", `Did you mean "root_dir"?`},
		{"Unsupported argument", "main.tf:15:3", `An argument named "nmber" is not expected here.`},
		{"Incorrect attribute value type", "main.tf:16:11", "map of string required"},
		{"Invalid Attribute Value Match", "main.tf:21:10", "no_such_switch"},
		// About the rule blocks as a whole, which dynamic writes: OpenTofu
		// points at the opening of the resource's body
		// (tfdiags.attributeDiagnostic.ElaborateFromConfigBody).
		{"Invalid Attribute Value", "main.tf:24:31", "at most 3 elements, got: 4"},
		{"Unsupported attribute", "main.tf:62:27", `named "nmae". Did you mean "name"?`},
		{"Too many rule blocks", "main.tf:39:10", "No more than 3"},
		{"Missing required argument", "main.tf:42:31", `The argument "id" is required`},
		{"Missing required argument", "main.tf:46:29", `The argument "id" is required`},
		{"Unsupported argument", "main.tf:47:5", `Did you mean "id"?`},
		{"Invalid resource type", "main.tf:55:10", `Did you mean "tpf_thing"?`},
		{"Incorrect attribute value type", filepath.Join("child", "main.tf") + ":9:12", "a number is required"},
	}
	for _, w := range want {
		found := false
		for _, d := range doc.Diagnostics {
			if d.Summary == w.summary && diagAt(d) == w.at && strings.Contains(d.Detail, w.detail) {
				found = true
			}
		}
		if !found {
			t.Errorf("no %q at %s with %q", w.summary, w.at, w.detail)
		}
	}
	if doc.ErrorCount != len(want) || t.Failed() {
		got, _ := json.MarshalIndent(doc.Diagnostics, "", "  ")
		t.Errorf("%d errors, want %d:\n%s", doc.ErrorCount, len(want), got)
	}
}

func TestValidateWithProvidersSuccess(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	p := newMirrorProject(t, mirror.Dir, `
terraform {
  required_providers {
    tpf  = { source = "registry.terraform.io/terrane/tpf" }
    tpf5 = { source = "registry.terraform.io/terrane/tpf5" }
  }
}

variable "names" {
  type = set(string)
}

resource "tpf_thing" "each" {
  for_each = var.names
  name     = provider::tpf::reverse(each.key)
  tags     = { owner = each.value }
}

resource "tpf5_blocks" "b" {
  name = tpf_thing.each["x"].id
  rule {
    action = "allow"
  }
}

data "tpf_thing" "read" {
  id = tpf5_blocks.b.id
}

output "description" {
  value = data.tpf_thing.read.description
}
`)
	out, errOut, code := p.run("validate", "-no-color")
	if code != 0 || out != "Success! The configuration is valid.\n" {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}
