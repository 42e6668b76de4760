package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// graphConfig has what a graph must show: two providers (tpf twice, once
// aliased, and the built-in terraform provider), count and for_each on
// resources and on a module call, a data source, nested modules, locals,
// variables, outputs referring to a module as a whole and to one output, and
// a check.
const graphConfig = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

variable "prefix" {
  default = "p"
}

provider "tpf" {
  root_dir = "CLOUD"
}

provider "tpf" {
  alias    = "west"
  root_dir = "CLOUD"
}

locals {
  names = toset(["a", "b"])
}

resource "tpf_thing" "each" {
  for_each = local.names
  name     = "${var.prefix}-${each.key}"
}

resource "tpf_thing" "counted" {
  provider = tpf.west
  count    = 2
  name     = "c${count.index}"
}

data "tpf_thing" "look" {
  id = tpf_thing.counted[0].id
}

resource "terraform_data" "after_look" {
  input      = "after"
  depends_on = [data.tpf_thing.look]
}

module "net" {
  source   = "./net"
  for_each = local.names
  label    = tpf_thing.each[each.key].id
}

output "ids" {
  value = [for m in module.net : m.id]
}

check "named" {
  assert {
    condition     = terraform_data.after_look.output != ""
    error_message = "The looked-up thing has no name."
  }
}
`

const graphModule = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

variable "label" {}

locals {
  full = "net-${var.label}"
}

resource "tpf_thing" "inner" {
  name = local.full
}

module "sub" {
  source = "./sub"
  in     = tpf_thing.inner.id
}

output "id" {
  value = module.sub.out
}
`

const graphSubModule = `
variable "in" {}

resource "terraform_data" "leaf" {
  input = var.in
}

output "out" {
  value = terraform_data.leaf.id
}
`

// newGraphProject is newE2EProject for graphConfig and its modules.
func newGraphProject(t *testing.T) *e2eProject {
	t.Helper()
	p := newE2EProjectFiles(t, map[string]string{"main.tf": graphConfig, "net/main.tf": graphModule, "net/sub/main.tf": graphSubModule})
	p.mustRun("init")
	return p
}

// assertGolden compares got with testdata/graph/name; with
// TERRANE_UPDATE_GOLDEN=1 it rewrites the file instead.
func assertGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(graphTestdata, name)
	if os.Getenv("TERRANE_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the golden file (set TERRANE_UPDATE_GOLDEN=1 to write it): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", "graph output", path, got, want)
	}
}

// graphTestdata holds the golden drawings.
var graphTestdata = filepath.Join("testdata", "graph")

// TestGraphPlanApplyDestroy draws the plan graph of a configuration, the
// apply graph of its saved plan, and its destroy graph once applied,
// each compared with a golden drawing in OpenTofu's shape.
func TestGraphPlanApplyDestroy(t *testing.T) {
	t.Parallel()
	p := newGraphProject(t)

	plan := p.mustRun("graph")
	assertGolden(t, "plan.dot", plan)
	if explicit := p.mustRun("graph", "-type=plan"); explicit != plan {
		t.Errorf("graph -type=plan differs from the default:\n%s", explicit)
	}
	if refreshOnly := p.mustRun("graph", "-type=plan-refresh-only"); refreshOnly != plan {
		t.Errorf("a refresh-only plan walks the same graph as a plan, but its drawing differs:\n%s", refreshOnly)
	}
	assertGolden(t, "plan-destroy-empty.dot", p.mustRun("graph", "-type=plan-destroy"))

	p.mustRun("plan", "-out=create.tfplan")
	apply := p.mustRun("graph", "-plan=create.tfplan")
	assertGolden(t, "apply.dot", apply)
	if explicit := p.mustRun("graph", "-type=apply", "-plan=create.tfplan"); explicit != apply {
		t.Errorf("graph -type=apply -plan=… differs from graph -plan=…:\n%s", explicit)
	}

	p.mustRun("apply", "-auto-approve", "create.tfplan")
	destroy := p.mustRun("graph", "-type=plan-destroy")
	assertGolden(t, "plan-destroy.dot", destroy)
	p.mustRun("plan", "-destroy", "-out=destroy.tfplan")
	if saved := p.mustRun("graph", "-plan=destroy.tfplan"); saved != destroy {
		t.Errorf("the apply graph of a saved destroy plan differs from -type=plan-destroy:\n%s", saved)
	}

	// A resource the configuration no longer declares is planned as an
	// orphan, and still destroyed by a destroy.
	withoutAfterLook := strings.Replace(graphConfig, "resource \"terraform_data\" \"after_look\"", "resource \"terraform_data\" \"renamed\"", 1)
	p.write(strings.Replace(withoutAfterLook, "terraform_data.after_look.output", "terraform_data.renamed.output", 1))
	clitest.AssertContains(t, "plan graph with an orphan", p.mustRun("graph"),
		`"[root] terraform_data.after_look (orphan)" [label = "terraform_data.after_look", shape = "box"]`,
		`"[root] terraform_data.after_look (orphan)" -> "[root] provider[\"terraform.io/builtin/terraform\"]"`,
		`"[root] provider[\"terraform.io/builtin/terraform\"] (close)" -> "[root] terraform_data.after_look (orphan)"`)
	clitest.AssertContains(t, "destroy graph with an orphan", p.mustRun("graph", "-type=plan-destroy"),
		`"[root] terraform_data.after_look (destroy)" -> "[root] provider[\"terraform.io/builtin/terraform\"]"`)
}

// TestGraphCycles refuses to draw a graph with a cycle, -draw-cycles or
// not, as OpenTofu does: the cycle is an error naming its nodes.
func TestGraphCycles(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, `
resource "terraform_data" "a" {
  input = terraform_data.b.output
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}

resource "terraform_data" "free" {}
`)
	for _, args := range [][]string{{"graph", "-no-color"}, {"graph", "-draw-cycles", "-no-color"}} {
		out, errOut, code := p.run(args...)
		if code != 1 || out != "" {
			t.Errorf("terrane %s: exit %d, stdout %q; want exit 1 and nothing drawn", strings.Join(args, " "), code, out)
		}
		clitest.AssertContains(t, "cycle diagnostic", errOut, "Cycle: terraform_data.a (expand), terraform_data.b (expand)")
	}
}

// TestGraphArguments rejects what OpenTofu's graph command rejects, with
// diagnostics that say what to do, and accepts its ignored options.
func TestGraphArguments(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, `
variable "required" {}

resource "terraform_data" "a" {
  input = var.required
}
`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"graph", "-type=sideways"}, `must be either "plan", "plan-refresh-only", "plan-destroy", or "apply".`},
		{[]string{"graph", "-type=validate"}, `The graph type "validate" is no longer available. Use -type=plan instead`},
		{[]string{"graph", "somewhere"}, "Too many command line arguments. Did you mean to use -chdir?"},
		{[]string{"graph", "-plan=missing.tfplan"}, `Encountered an error while opening the plan file "missing.tfplan": stat missing.tfplan: no such file or directory`},
	} {
		out, errOut, code := p.run(append(tc.args, "-no-color")...)
		// A command line with an extra argument has the usage follow.
		usage := tc.args[1] == "somewhere"
		if code != 1 || (out != "") != usage || !strings.Contains(clitest.Unwrapped(errOut), tc.want) {
			t.Errorf("terrane %s: exit %d, stdout %q, stderr %s; want exit 1 saying %q", strings.Join(tc.args, " "), code, out, errOut, tc.want)
		}
	}
	// A required variable without a value does not stop the drawing:
	// references, not values, make the graph.
	out := p.mustRun("graph", "-module-depth=1", "-verbose", "-var", "required=x", "-var-file=none.tfvars")
	clitest.AssertContains(t, "graph with ignored options", out, `"[root] terraform_data.a (expand)" -> "[root] var.required (expand, reference)"`)
	if bare := p.mustRun("graph"); bare != out {
		t.Errorf("ignored options changed the graph:\n%s", bare)
	}

	if helpOut, _, code := p.run("graph", "-help"); code != 0 || !strings.Contains(helpOut, "Usage: terrane [global options] graph [options]") {
		t.Errorf("graph -help: exit %d, stdout %s; want the usage and exit 0", code, helpOut)
	}

	p.mustRun("plan", "-var", "required=x", "-out=saved.tfplan")
	clitest.WriteFile(t, filepath.Join(p.dir, "more.tf"), "resource \"terraform_data\" \"b\" {}\n")
	_, errOut, code := p.run("graph", "-plan=saved.tfplan", "-no-color")
	if code != 1 || !strings.Contains(errOut, "Configuration changed since the plan was made") {
		t.Errorf("graph of a saved plan whose configuration changed: exit %d, stderr %s; want it refused as apply refuses it", code, errOut)
	}

	clitest.WriteFile(t, filepath.Join(p.dir, "broken.tf"), "resource \"terraform_data\" {\n")
	_, errOut, _ = p.run("graph", "-no-color")
	clitest.AssertContains(t, "broken configuration", errOut, "broken.tf")
}
