package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// staticEvalFiles build module sources from variables and locals, in the
// root module and in a child whose own call passes the variable down.
var staticEvalFiles = map[string]string{
	"main.tf": `
variable "flavour" {
  type    = string
  default = "a"
}

locals {
  modules = "./mods"
}

module "top" {
  source = "${local.modules}/${var.flavour}"
}

module "wrapper" {
  source  = "./wrapper"
  flavour = var.flavour
}

output "top" {
  value = module.top.out
}

output "nested" {
  value = module.wrapper.out
}
`,
	"wrapper/main.tf": `
variable "flavour" {
  type = string
}

module "inner" {
  source = "../mods/${upper(var.flavour)}"
}

output "out" {
  value = module.inner.out
}
`,
	"mods/a/main.tf": `output "out" { value = "from a" }`,
	"mods/b/main.tf": `output "out" { value = "from b" }`,
	"mods/A/main.tf": `output "out" { value = "from A" }`,
	"mods/B/main.tf": `output "out" { value = "from B" }`,
}

// TestE2EEarlyEvaluationOfModuleSources checks OpenTofu's early evaluation
// (OpenTofu 1.8+, "Early variable/locals evaluation": module source and
// version may use variables, locals, path, terraform.workspace and
// built-in functions; internal/configs/static_scope.go refuses resources,
// module outputs and provider functions there, and 1.9 refuses sensitive
// values). terraform 1.11 allows no variables there, so it is not the
// oracle; a source changed since init is refused as both do.
func TestE2EEarlyEvaluationOfModuleSources(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, "")
	for name, src := range staticEvalFiles {
		clitest.WriteFile(t, p.dir+"/"+name, src)
	}
	p.mustRun("init", "-no-color")
	out := p.mustRun("apply", "-no-color", "-auto-approve")
	clitest.AssertContains(t, "apply", out, `top = "from a"`, `nested = "from A"`)

	p.mustRun("init", "-no-color", "-var=flavour=b")
	out = p.mustRun("apply", "-no-color", "-auto-approve", "-var=flavour=b")
	clitest.AssertContains(t, "apply with the other flavour", out, `top = "from b"`, `nested = "from B"`)

	// Applying a saved plan works out sources with the plan's values.
	p.mustRun("plan", "-no-color", "-var=flavour=b", "-out=b.tfplan")
	out = p.mustRun("apply", "-no-color", "b.tfplan")
	clitest.AssertContains(t, "apply of the saved plan", out, `top = "from b"`)

	_, errOut, code := p.run("plan", "-no-color")
	if code != 1 {
		t.Fatalf("a plan whose sources differ from the installed ones: exit %d, want 1", code)
	}
	clitest.AssertContains(t, "plan without init", errOut, "Module source has changed", `Run "terrane init"`)

	refused := []struct{ source, summary string }{
		{`"./mods/${terraform_data.x.id}"`, "Dynamic value in static context"},
		{`"./mods/${module.top.out}"`, "Module output not supported in static context"},
		{`"./mods/${provider::tpf::reverse("a")}"`, "Provider function in static context"},
		{`"./mods/${var.secret}"`, "Sensitive value not allowed"},
		{`"./mods/${local.loop}"`, "Circular reference"},
	}
	for _, test := range refused {
		clitest.WriteFile(t, p.dir+"/main.tf", `
variable "secret" {
  default   = "a"
  sensitive = true
}

locals {
  loop = local.loop
}

resource "terraform_data" "x" {}

module "top" {
  source = "./mods/a"
}

module "refused" {
  source = `+test.source+`
}
`)
		_, errOut, code := p.run("init", "-no-color")
		if code != 1 || !strings.Contains(errOut, test.summary) {
			t.Errorf("source %s: exit %d, want 1 with %q:\n%s", test.source, code, test.summary, errOut)
		}
	}
}

// TestE2EModuleSourceChangedSinceInit checks that a module whose source
// changed since init is refused, as in terraform 1.11 and OpenTofu,
// instead of the old module being used.
func TestE2EModuleSourceChangedSinceInit(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"main.tf":   "module \"m\" {\n  source = \"./a\"\n}\n\noutput \"o\" {\n  value = module.m.out\n}\n",
		"a/main.tf": `output "out" { value = "A" }`,
		"b/main.tf": `output "out" { value = "B" }`,
	}
	p := newInitialisedProject(t, files)
	files["main.tf"] = strings.Replace(files["main.tf"], "./a", "./b", 1)
	p.writeFiles(files)
	res := p.result("plan", "-no-color")
	p.expectCode("plan", res, 1)
	clitest.AssertContains(t, "plan", res.stderr, "Module source has changed")
}
