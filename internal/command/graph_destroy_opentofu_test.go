package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

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
	terraformBin := oracleTofu(t)
	work := t.TempDir()
	emptyRC := filepath.Join(work, "empty.rc")
	writeFile(t, emptyRC, "")
	t.Setenv("TERRANE_CLI_CONFIG_FILE", emptyRC)
	t.Setenv("TERRANE_SCHEMA_CACHE_DIR", filepath.Join(work, "schemas"))
	for _, tc := range destroyOrderCases {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			tfDir, terraneDir := filepath.Join(base, "terraform"), filepath.Join(base, "terrane")
			for _, dir := range []string{tfDir, terraneDir} {
				writeFile(t, filepath.Join(dir, "main.tf"), tc.before)
				writeFile(t, filepath.Join(dir, "other.tfstate"), `{"version":4,"terraform_version":"1.11.0","serial":1,"lineage":"other","outputs":{},"resources":[]}`)
			}
			terraform := terraformIn(t, terraformBin, tfDir, emptyRC)
			t.Chdir(terraneDir)
			p := &e2eProject{t: t, dir: terraneDir}
			terraform("init", "-input=false")
			p.mustRun("init")
			terraform("apply", "-input=false", "-auto-approve")
			p.mustRun("apply", "-auto-approve")
			planArgs := []string{"-destroy"}
			if !tc.destroy {
				planArgs = nil
				writeFile(t, filepath.Join(tfDir, "main.tf"), tc.after)
				writeFile(t, filepath.Join(terraneDir, "main.tf"), tc.after)
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
