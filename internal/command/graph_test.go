package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGraphFollowsDependenciesToResources graphs the corpus configuration:
// resources in modules, dependencies through module inputs and outputs,
// locals and depends_on become direct edges between resources.
func TestGraphFollowsDependenciesToResources(t *testing.T) {
	p := newStateProject(t)
	copyConfigWithoutRemoteState(t, filepath.Join(stateCorpusDir, "configs", "basic"), p.dir)
	writeFile(t, filepath.Join(p.dir, "extra.tf"), `
locals {
  first = terraform_data.counted[0].id
}

resource "terraform_data" "via_local" {
  input = local.first
}

resource "terraform_data" "via_module" {
  input = module.single_child.out
}
`)
	p.mustRun("init", "-no-color")
	out := p.mustRun("graph")
	for _, want := range []string{
		"digraph G {",
		`"terraform_data.single" [label="terraform_data.single"];`,
		`"terraform_data.each" -> "terraform_data.single";`,
		`"terraform_data.via_local" -> "terraform_data.counted";`,
		`"terraform_data.via_module" -> "module.single_child.terraform_data.dependent";`,
		`"module.child.terraform_data.dependent" -> "module.child.terraform_data.inner";`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("graph lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "local.first") || strings.Contains(out, `"terraform_data.via_module" -> "module.single_child.terraform_data.inner"`) {
		t.Errorf("graph shows objects other than resources, or dependencies the resource does not have:\n%s", out)
	}
	if apply := p.mustRun("graph", "-type=apply"); apply != out {
		t.Errorf("-type=apply graph differs:\n%s", apply)
	}
	assertContains(t, "bad type", p.mustFail("graph", "-type=sideways"), "Invalid graph type")
	writeFile(t, filepath.Join(p.dir, "broken.tf"), "resource \"terraform_data\" {\n")
	assertContains(t, "broken config", p.mustFail("graph"), "broken.tf")
}
