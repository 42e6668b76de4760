package command

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// showCompatFiles is a configuration of terraform_data resources whose
// values cover every shape `show` draws: strings (empty, quoted, not
// identifiers as keys, multi-line), numbers, bools, nulls, lists, maps,
// nested objects, count and for_each instances, a child module, and root
// outputs of several types, one sensitive.
var showCompatFiles = map[string]string{
	"main.tf": `
resource "terraform_data" "strings" {
  input = {
    name         = "alpha"
    empty        = ""
    multiline    = "line one\nline two\n"
    quoted       = "say \"hi\""
    "with space" = "x"
    unicode      = "héllo ✓"
  }
}

resource "terraform_data" "scalars" {
  input = [1, 2.5, -3, 1e21, true, false, null, "s"]
}

resource "terraform_data" "nested" {
  input = {
    list       = ["a", "b"]
    empty_list = []
    empty_map  = {}
    map        = tomap({ k1 = "v1", k2 = "v2" })
    inner      = { deep = { deeper = [1, { x = "y" }] }, flag = true }
    nothing    = null
    set        = toset(["b", "a"])
  }
}

resource "terraform_data" "counted" {
  count = 3
  input = count.index
}

resource "terraform_data" "each" {
  for_each = toset(["x", "y"])
  input    = each.key
}

resource "terraform_data" "plain" {
  input            = "just a string"
  triggers_replace = ["t1"]
}

resource "terraform_data" "empty_string" {
  input = ""
}

resource "terraform_data" "no_input" {
}

module "child" {
  source = "./child"
  value  = "from root"
}

output "greeting" {
  value = "hello"
}

output "structure" {
  value = { a = [1, 2], b = { c = "d" } }
}

output "a_map" {
  value = tomap({ "key one" = "v", key2 = "w" })
}

output "secret" {
  value     = "hunter2"
  sensitive = true
}

output "empty_list" {
  value = []
}

output "multi" {
  value = "a\nb\n"
}

output "number" {
  value = 42
}

output "ids" {
  value = terraform_data.counted[*].id
}
`,
	"child/main.tf": `
variable "value" {}

resource "terraform_data" "inner" {
  input = var.value
}

module "grandchild" {
  source = "../grandchild"
}

output "out" {
  value = terraform_data.inner.output
}
`,
	"grandchild/main.tf": `
resource "terraform_data" "leaf" {
  input = { n = 1 }
}
`,
}

// idPattern matches the random ids objects are given: terraform_data's
// UUIDs and the test providers' 16 hexadecimal digits.
var idPattern = regexp.MustCompile(`"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16})"`)

// TestShowMatchesTerraform applies the same configuration with terraform
// and with terrane and requires `show -no-color` to print the same bytes,
// the random ids aside.
func TestShowMatchesTerraform(t *testing.T) {
	terraform := requireTerraform(t)
	want := runTerraformShow(t, terraform)

	dir := t.TempDir()
	writeShowCompatFiles(t, dir)
	cliConfig := filepath.Join(t.TempDir(), "terraformrc")
	writeFile(t, cliConfig, "")
	t.Setenv("TERRANE_CLI_CONFIG_FILE", cliConfig)
	t.Setenv("TERRANE_SCHEMA_CACHE_DIR", filepath.Join(t.TempDir(), "schemas"))
	t.Chdir(dir)
	for _, args := range [][]string{{"init"}, {"apply", "-auto-approve", "-no-color"}} {
		var out, errOut strings.Builder
		if code := Run(args, Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}); code != 0 {
			t.Fatalf("terrane %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errOut.String())
		}
	}
	var out, errOut strings.Builder
	if code := Run([]string{"show", "-no-color"}, Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}); code != 0 || errOut.Len() > 0 {
		t.Fatalf("terrane show: exit %d\n%s", code, errOut.String())
	}
	got := maskIDs(out.String())
	if got != want {
		t.Errorf("terrane show differs from terraform show\n%s", lineDiff(got, want))
	}
}

func writeShowCompatFiles(t *testing.T, dir string) {
	t.Helper()
	for name, content := range showCompatFiles {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
}

// runTerraformShow applies the configuration with terraform and returns
// what `terraform show -no-color` prints, ids masked.
func runTerraformShow(t *testing.T, terraform string) string {
	t.Helper()
	dir := t.TempDir()
	writeShowCompatFiles(t, dir)
	env := terraformEnv(t)
	for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		cmd := exec.Command(terraform, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	cmd := exec.Command(terraform, "show", "-no-color")
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("terraform show: %v\n%s", err, stderr.String())
	}
	return maskIDs(stdout.String())
}

func maskIDs(text string) string {
	return idPattern.ReplaceAllString(text, `"(id)"`)
}

// lineDiff lists the lines where got and want first differ, with a few
// lines of each around them.
func lineDiff(got, want string) string {
	gotLines, wantLines := strings.Split(got, "\n"), strings.Split(want, "\n")
	first := 0
	for first < len(gotLines) && first < len(wantLines) && gotLines[first] == wantLines[first] {
		first++
	}
	from := max(0, first-3)
	window := func(lines []string) string {
		to := min(len(lines), first+8)
		if from >= to {
			return "(end)"
		}
		return strings.Join(lines[from:to], "\n")
	}
	return fmt.Sprintf("first difference at line %d\n--- terrane:\n%s\n--- terraform:\n%s", first+1, window(gotLines), window(wantLines))
}

// showBlocksConfig uses the framework test provider for what
// terraform_data lacks: nested blocks of list, set and single nesting.
// CLOUD is the provider's object directory.
const showBlocksConfig = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}

resource "tpf_blocks" "b" {
  name = "with blocks"
  rule {
    action   = "allow"
    priority = 1
  }
  rule {
    action = "deny"
  }
  tag {
    key   = "a"
    value = "1"
  }
  settings {
    level = 3
  }
}
`

// TestShowWithBlocksMatchesTerraform applies showBlocksConfig with
// terraform and with terrane, each against its own cloud directory, and
// requires the same `show -no-color` output, ids aside.
func TestShowWithBlocksMatchesTerraform(t *testing.T) {
	terraform := requireTerraform(t)
	mirror := providertest.Build(t)
	rc := filepath.Join(t.TempDir(), "terraformrc")
	writeFile(t, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirror.Dir+"\"\n  }\n}\n")

	tfDir := t.TempDir()
	writeFile(t, filepath.Join(tfDir, "main.tf"), strings.ReplaceAll(showBlocksConfig, "CLOUD", t.TempDir()))
	env := append(terraformEnv(t), "TF_CLI_CONFIG_FILE="+rc)
	for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		cmd := exec.Command(terraform, args...)
		cmd.Dir, cmd.Env = tfDir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	cmd := exec.Command(terraform, "show", "-no-color")
	cmd.Dir, cmd.Env = tfDir, env
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("terraform show: %v", err)
	}

	p := newE2EProject(t, showBlocksConfig)
	p.mustRun("apply", "-auto-approve", "-no-color")
	got := p.mustRun("show", "-no-color")
	if maskIDs(got) != maskIDs(string(want)) {
		t.Errorf("terrane show differs from terraform show\n%s", lineDiff(maskIDs(got), maskIDs(string(want))))
	}
}
