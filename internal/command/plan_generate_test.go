package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const generateConfigProvider = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}
`

// TestPlanGenerateConfigOut imports an object for an import block that has
// no resource block: plan writes the block, plans the import with it, and
// after apply the written configuration matches the object.
func TestPlanGenerateConfigOut(t *testing.T) {
	p := newE2EProject(t, generateConfigProvider+`
resource "tpf_thing" "made" {
  name        = "made"
  description = "made elsewhere"
}
`)
	p.mustRun("apply", "-auto-approve")
	id := strings.TrimSuffix(filepath.Base(p.objects("tpf_thing")["made"].path), ".json")
	p.mustRun("state", "rm", "tpf_thing.made")
	p.write(generateConfigProvider + `
import {
  to = tpf_thing.adopted
  id = "` + id + `"
}
`)

	out := p.mustRun("plan", "-no-color", "-generate-config-out=generated.tf")
	assertContains(t, "plan", out, "# tpf_thing.adopted will be imported", "# (config will be generated)",
		"Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.")
	generated, err := os.ReadFile(filepath.Join(p.dir, "generated.tf"))
	if err != nil {
		t.Fatalf("plan wrote no generated.tf: %v", err)
	}
	assertContains(t, "generated.tf", string(generated), "# __generated__ by Terrane", `# __generated__ by Terrane from "`+id+`"`,
		`resource "tpf_thing" "adopted" {`, `description`, `"made elsewhere"`)

	_, errOut, code := p.run("plan", "-no-color", "-generate-config-out=generated.tf")
	if code != 1 || !strings.Contains(errOut, "Target generated file already exists") {
		t.Errorf("a second plan into the same file: exit %d, stderr %s; want exit 1 refusing the existing file", code, errOut)
	}

	out = p.mustRun("apply", "-auto-approve", "-no-color")
	assertContains(t, "apply", out, "tpf_thing.adopted will be imported", "Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.")
	p.expectNoChanges("plan after applying the generated configuration")
	if got := p.recordedInstances(); len(got) != 1 || got[0] != "tpf_thing.adopted" {
		t.Errorf("records after apply: %v", got)
	}
}

func TestPlanGenerateConfigOutRefusesOtherModes(t *testing.T) {
	for _, mode := range []string{"-destroy", "-refresh-only"} {
		var out, errBuf strings.Builder
		code := Run([]string{"plan", mode, "-generate-config-out=generated.tf"}, Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errBuf})
		errOut := errBuf.String()
		if code != 1 || !strings.Contains(errOut, "Configuration can be generated only in the normal planning mode") {
			t.Errorf("plan %s -generate-config-out: exit %d, stderr %s", mode, code, errOut)
		}
	}
}
