package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// graphCompatConfig uses only the built-in terraform provider, so that
// Terraform can draw it offline: modules (one with for_each, one nested),
// count, locals, variables, a check, and outputs referring to a module as a
// whole and to one of its outputs, and a resource replaced when a variable
// changes.
var graphCompatConfig = map[string]string{
	"main.tf": `
variable "greeting" {
  default = "hello"
}

locals {
  message = "${var.greeting} world"
}

resource "terraform_data" "first" {
  input            = local.message
  triggers_replace = var.greeting
}

resource "terraform_data" "counted" {
  count = 2
  input = terraform_data.first.output
}

module "pair" {
  source   = "./pair"
  for_each = toset(["x", "y"])
  seed     = "${each.key}-${terraform_data.first.id}"
}

module "single" {
  source = "./pair"
  seed   = terraform_data.first.id
}

output "pairs" {
  value = module.pair
}

output "single" {
  value = module.single.left
}

check "first_known" {
  assert {
    condition     = terraform_data.first.output != ""
    error_message = "The first resource has no output."
  }
}
`,
	"pair/main.tf": `
variable "seed" {}

resource "terraform_data" "left" {
  input = var.seed
}

resource "terraform_data" "right" {
  input = terraform_data.left.output
}

module "deep" {
  source = "./deep"
  from   = terraform_data.right.id
}

output "left" {
  value = terraform_data.left.id
}

output "deep" {
  value = module.deep.value
}
`,
	"pair/deep/main.tf": `
variable "from" {}

resource "terraform_data" "leaf" {
  input = var.from
}

output "value" {
  value = terraform_data.leaf.output
}
`,
}

// TestGraphMatchesOpenTofu draws the same configuration with Terrane and
// with OpenTofu, when the corpus's oracle is installed. The plan graph must be
// identical, byte for byte. In the apply graphs of saved plans (create,
// replace, destroy) Terrane orders a resource's instances after the whole
// resource and its dependencies in every module instance, where OpenTofu
// orders them within each module instance; so the nodes must be the same
// and every order OpenTofu keeps must be kept.
func TestGraphMatchesOpenTofu(t *testing.T) {
	// The reference is OpenTofu, the installed oracle of the differential
	// corpus (TERRANE_ORACLE_DIR).
	terraformBin := oracleTofu(t)
	work := t.TempDir()
	tfDir, terraneDir := filepath.Join(work, "terraform"), filepath.Join(work, "terrane")
	for _, dir := range []string{tfDir, terraneDir} {
		for path, content := range graphCompatConfig {
			writeFile(t, filepath.Join(dir, path), content)
		}
	}
	emptyRC := filepath.Join(work, "empty.rc")
	writeFile(t, emptyRC, "")
	t.Setenv("TERRANE_CLI_CONFIG_FILE", emptyRC)
	t.Setenv("TERRANE_SCHEMA_CACHE_DIR", filepath.Join(work, "schemas"))
	terraform := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(terraformBin, args...)
		cmd.Dir = tfDir
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+emptyRC, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if exitErr, ok := err.(*exec.ExitError); ok {
				stderr = string(exitErr.Stderr)
			}
			t.Fatalf("terraform %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
		}
		return string(out)
	}
	t.Chdir(terraneDir)
	p := &e2eProject{t: t, dir: terraneDir}

	terraform("init", "-input=false")
	p.mustRun("init")
	compare := func(what string, terraformArgs, terraneArgs []string) {
		t.Helper()
		want, got := terraform(terraformArgs...), p.mustRun(terraneArgs...)
		if got != want {
			t.Errorf("%s differs from terraform's:\n--- terrane\n%s\n--- terraform\n%s", what, got, want)
		}
	}
	compare("plan graph", []string{"graph", "-type=plan"}, []string{"graph"})
	// Apply graphs: Terrane draws a resource's instances after the whole
	// resource, where OpenTofu draws instance-to-instance edges within
	// each module instance; so the nodes must be the same and every order
	// OpenTofu keeps must be kept.
	compareOrders := func(what string, args ...string) {
		t.Helper()
		want, got := terraform(args...), p.mustRun(args...)
		if nodes, wantNodes := dotDeclarations(got), dotDeclarations(want); nodes != wantNodes {
			t.Errorf("%s nodes differ from OpenTofu's:\n--- terrane\n%s--- tofu\n%s", what, nodes, wantNodes)
		}
		reach := dotReachability(got)
		for _, edge := range dotEdges(want) {
			if !reach(edge[0], edge[1]) {
				t.Errorf("OpenTofu orders %s after %s in the %s; Terrane does not:\n%s", edge[0], edge[1], what, got)
			}
		}
	}

	terraform("plan", "-input=false", "-out=create.tfplan")
	p.mustRun("plan", "-out=create.tfplan")
	compareOrders("apply graph of a saved plan", "graph", "-plan=create.tfplan")

	terraform("apply", "-input=false", "create.tfplan")
	p.mustRun("apply", "create.tfplan")
	terraform("plan", "-input=false", "-var", "greeting=bye", "-out=replace.tfplan")
	p.mustRun("plan", "-var", "greeting=bye", "-out=replace.tfplan")
	compareOrders("apply graph of a saved plan that replaces", "graph", "-plan=replace.tfplan")
	terraform("plan", "-input=false", "-destroy", "-out=destroy.tfplan")
	p.mustRun("plan", "-destroy", "-out=destroy.tfplan")
	compareOrders("destroy graph", "graph", "-plan=destroy.tfplan")
}

// dotDeclarations are a DOT text's node declaration lines.
func dotDeclarations(dot string) string {
	var b strings.Builder
	for _, line := range strings.Split(dot, "\n") {
		if strings.Contains(line, "[label = ") {
			b.WriteString(strings.TrimSpace(line) + "\n")
		}
	}
	return b.String()
}

// dotEdges are a DOT text's edges as quoted node names.
func dotEdges(dot string) [][2]string {
	var out [][2]string
	for _, line := range strings.Split(dot, "\n") {
		from, to, ok := strings.Cut(strings.TrimSpace(line), " -> ")
		if !ok {
			continue
		}
		to, _, _ = strings.Cut(to, " [")
		out = append(out, [2]string{from, to})
	}
	return out
}

// dotReachability answers whether a path leads from one node to another.
func dotReachability(dot string) func(from, to string) bool {
	next := map[string][]string{}
	for _, edge := range dotEdges(dot) {
		next[edge[0]] = append(next[edge[0]], edge[1])
	}
	return func(from, to string) bool {
		seen := map[string]bool{}
		stack := []string{from}
		for len(stack) > 0 {
			node := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if node == to {
				return true
			}
			if !seen[node] {
				seen[node] = true
				stack = append(stack, next[node]...)
			}
		}
		return false
	}
}
