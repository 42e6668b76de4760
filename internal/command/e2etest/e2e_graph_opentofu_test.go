package e2etest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
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
	t.Parallel()
	// The reference is OpenTofu, the installed oracle of the differential
	// corpus (TERRANE_ORACLE_DIR).
	terraformBin := oracleTofu(t)
	work := t.TempDir()
	emptyRC := filepath.Join(work, "empty.rc")
	clitest.WriteFile(t, emptyRC, "")
	p := newOpenTofuComparison(t, emptyRC)
	tfDir, terraneDir := filepath.Join(work, "terraform"), p.dir
	for _, dir := range []string{tfDir, terraneDir} {
		for path, content := range graphCompatConfig {
			clitest.WriteFile(t, filepath.Join(dir, path), content)
		}
	}
	terraform := terraformIn(t, terraformBin, tfDir, emptyRC)
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

// newOpenTofuComparison is an empty project whose CLI configuration is
// rc, as OpenTofu's beside it is, with the schema cache inside the test.
func newOpenTofuComparison(t *testing.T, rc string) *e2eProject {
	t.Helper()
	p := newBareProject(t)
	p.setenv("TERRANE_CLI_CONFIG_FILE", rc)
	p.setenv("TERRANE_SCHEMA_CACHE_DIR", filepath.Join(t.TempDir(), "schemas"))
	return p
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

// destroyOrderCases are configurations, before and after a change, whose
// apply graphs order deletes against other changes through dependencies
// that pass through a data source or that only the state still records.
var destroyOrderCases = []struct {
	name          string
	before, after string
	destroy       bool
}{
	{
		name: "through a data source",
		before: `
resource "terraform_data" "c" {}
data "terraform_remote_state" "b" {
  backend    = "local"
  config     = { path = "other.tfstate" }
  depends_on = [terraform_data.c]
}
resource "terraform_data" "a" {
  depends_on = [data.terraform_remote_state.b]
}
resource "terraform_data" "n" {
  input = terraform_data.a.id
}
`,
		destroy: true,
	},
	{
		name: "former dependent of an orphan",
		before: `
resource "terraform_data" "a" {}
resource "terraform_data" "b" {
  input = terraform_data.a.id
}
`,
		after: `
resource "terraform_data" "b" {
  input = "fixed"
}
`,
	},
	{
		name: "dependency of an orphan",
		before: `
resource "terraform_data" "c" {
  input = "one"
}
resource "terraform_data" "a" {
  input = terraform_data.c.id
}
`,
		after: `
resource "terraform_data" "c" {
  input = "two"
}
`,
	},
	{
		name: "create_before_destroy dependent of an orphan",
		before: `
resource "terraform_data" "a" {}
resource "terraform_data" "b" {
  input = terraform_data.a.id
  lifecycle {
    create_before_destroy = true
  }
}
`,
		after: `
resource "terraform_data" "b" {
  input = "fixed"
  lifecycle {
    create_before_destroy = true
  }
}
`,
	},
}

// TestDestroyOrderMatchesOpenTofu applies each configuration with Terrane
// and with OpenTofu, when the corpus's oracle is installed
// (TERRANE_ORACLE_DIR), plans the change (or a destroy) and compares the
// apply graphs of the saved plans: the same nodes, and every order
// OpenTofu keeps kept. OpenTofu draws a node that drops each data source
// from state in a destroy; Terrane drops them without one, so those nodes
// are left out of the comparison.
func TestDestroyOrderMatchesOpenTofu(t *testing.T) {
	t.Parallel()
	terraformBin := oracleTofu(t)
	work := t.TempDir()
	emptyRC := filepath.Join(work, "empty.rc")
	clitest.WriteFile(t, emptyRC, "")
	for _, tc := range destroyOrderCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newOpenTofuComparison(t, emptyRC)
			tfDir, terraneDir := filepath.Join(t.TempDir(), "terraform"), p.dir
			for _, dir := range []string{tfDir, terraneDir} {
				clitest.WriteFile(t, filepath.Join(dir, "main.tf"), tc.before)
				clitest.WriteFile(t, filepath.Join(dir, "other.tfstate"), `{"version":4,"terraform_version":"1.11.0","serial":1,"lineage":"other","outputs":{},"resources":[]}`)
			}
			terraform := terraformIn(t, terraformBin, tfDir, emptyRC)
			terraform("init", "-input=false")
			p.mustRun("init")
			terraform("apply", "-input=false", "-auto-approve")
			p.mustRun("apply", "-auto-approve")
			planArgs := []string{"-destroy"}
			if !tc.destroy {
				planArgs = nil
				clitest.WriteFile(t, filepath.Join(tfDir, "main.tf"), tc.after)
				clitest.WriteFile(t, filepath.Join(terraneDir, "main.tf"), tc.after)
			}
			terraform(append([]string{"plan", "-input=false", "-out=next.tfplan"}, planArgs...)...)
			p.mustRun(append([]string{"plan", "-out=next.tfplan"}, planArgs...)...)
			want, got := withoutDataDestroyNodes(terraform("graph", "-plan=next.tfplan")), p.mustRun("graph", "-plan=next.tfplan")
			assertKeepsTerraformOrder(t, "apply graph", got, want)
		})
	}
}

// terraformIn runs the terraform binary in dir with the CLI configuration
// rc and no network checks, failing the test when it fails.
func terraformIn(t *testing.T, bin, dir, rc string) func(args ...string) string {
	return func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
		}
		return string(out)
	}
}

// assertKeepsTerraformOrder checks that a DOT graph has the nodes of
// terraform's and keeps every order terraform's edges give.
func assertKeepsTerraformOrder(t *testing.T, what, got, want string) {
	t.Helper()
	if nodes, wantNodes := dotDeclarations(got), dotDeclarations(want); nodes != wantNodes {
		t.Errorf("%s nodes differ from terraform's:\n--- terrane\n%s--- terraform\n%s", what, nodes, wantNodes)
	}
	reach := dotReachability(got)
	for _, edge := range dotEdges(want) {
		if !reach(edge[0], edge[1]) {
			t.Errorf("terraform orders %s after %s; Terrane's %s does not:\n%s", edge[0], edge[1], what, got)
		}
	}
}

// withoutDataDestroyNodes drops the lines of a DOT text that declare or
// connect a data source's destroy node.
func withoutDataDestroyNodes(dot string) string {
	var kept []string
	for _, line := range strings.Split(dot, "\n") {
		if strings.Contains(line, "] data.") && strings.Contains(line, " (destroy)\"") {
			continue
		}
		kept = append(kept, line)
	}
	return strings.Join(kept, "\n")
}
