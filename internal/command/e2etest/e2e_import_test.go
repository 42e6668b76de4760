package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// importConfig configures the provider from a variable, so an import must
// pass -var through to the provider's configuration.
const importConfig = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

variable "cloud" {
  type = string
}

provider "tpf" {
  root_dir = var.cloud
}

resource "tpf_thing" "a" {
  name                = "a"
  description         = "adopted"
  password_wo         = "hunter2"
  password_wo_version = 1
}
`

func TestImportAdoptsAnExistingObject(t *testing.T) {
	t.Parallel()
	testImportAdoptsAnExistingObject(t)
}

// testImportAdoptsAnExistingObject is TestImportAdoptsAnExistingObject in a project whose environment has env too;
// it returns the project.
func testImportAdoptsAnExistingObject(t *testing.T, env ...string) *e2eProject {
	p := newE2EProjectEnv(t, importConfig, env...)
	cloudVar := "-var=cloud=" + p.cloud
	p.mustRun("apply", "-auto-approve", cloudVar)
	id := strings.TrimSuffix(strings.TrimPrefix(p.objects("tpf_thing")["a"].path, p.cloud+"/tpf_thing/"), ".json")
	p.mustRun("state", "rm", "tpf_thing.a")

	out := p.mustRun("import", "-no-color", cloudVar, "tpf_thing.a", id)
	clitest.AssertContains(t, "import", out,
		`tpf_thing.a: Importing from ID "`+id+`"...`,
		"tpf_thing.a: Import prepared!\n  Prepared tpf_thing for import\n",
		"tpf_thing.a: Refreshing state... [id="+id+"]\n",
		"\nImport successful!\n")
	if got := p.recordedInstances(); len(got) != 1 || got[0] != "tpf_thing.a" {
		t.Fatalf("records after import: %v", got)
	}

	shown := p.mustRun("state", "show", "-no-color", "tpf_thing.a")
	clitest.AssertContains(t, "state show", shown,
		"# tpf_thing.a:\nresource \"tpf_thing\" \"a\" {\n",
		`    id                  = "`+id+`"`,
		`    description         = "adopted"`,
		"    password_wo         = (write-only attribute)\n")

	plan := p.mustRun("plan", "-no-color", cloudVar)
	clitest.AssertContains(t, "plan after import", plan, "No changes.")
	return p
}

func TestImportRefusals(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, importConfig)
	cloudVar := "-var=cloud=" + p.cloud
	p.mustRun("apply", "-auto-approve", cloudVar)
	id := strings.TrimSuffix(strings.TrimPrefix(p.objects("tpf_thing")["a"].path, p.cloud+"/tpf_thing/"), ".json")
	cases := []struct {
		name  string
		args  []string
		wants []string
	}{
		{"address already has an object", []string{"tpf_thing.a", id},
			[]string{"Resource already managed by Terrane", "tpf_thing.a", "remove the existing object from the state"}},
		{"no resource block", []string{"tpf_thing.b", id},
			[]string{`resource address "tpf_thing.b" does not exist in the configuration.`, `resource "tpf_thing" "b" {`, "# (resource arguments)"}},
		{"data resource", []string{"data.tpf_thing.a", id}, []string{"Importing into a data resource is not allowed."}},
		{"missing ID", []string{"tpf_thing.a"}, []string{"The import command expects two arguments"}},
		{"bad address", []string{"tpf_thing", id}, []string{"Invalid"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := p.run(append([]string{"import", "-no-color", cloudVar}, tc.args...)...)
			if code == 0 {
				t.Fatal("import succeeded")
			}
			clitest.AssertContains(t, "import error", errOut, tc.wants...)
		})
	}

	p.mustRun("state", "rm", "tpf_thing.a")
	_, errOut, code := p.run("import", "-no-color", cloudVar, "tpf_thing.a", "no-such-thing")
	if code == 0 {
		t.Fatal("import of a missing object succeeded")
	}
	clitest.AssertContains(t, "missing object", errOut, "Cannot import non-existent remote object", `"tpf_thing.a"`)
	if got := p.recordedInstances(); len(got) != 0 {
		t.Errorf("a failed import left records: %v", got)
	}
}
