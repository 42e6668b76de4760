package e2etest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

const variablesConfig = lifecycleHeader + `
variable "size" {
  type = number
}

resource "tpf_thing" "a" {
  name   = "a"
  number = var.size
}
`

// TestE2EVariableDiagnostics checks that bad or stray variable values are
// reported before anything runs, naming where the value came from.
func TestE2EVariableDiagnostics(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, variablesConfig)
	tests := []struct {
		name  string
		args  []string
		wants []string
	}{
		// As OpenTofu words it: where the value was set, and no snippet
		// for a value given outside a file.
		{"wrong type", []string{"-var", `size="big"`}, []string{"Invalid value for input variable", `Unsuitable value for var.size set using -var="size=...": a number is`}},
		{"not a number", []string{"-var", "size=big"}, []string{"Invalid value for input variable", `set using -var="size=...": a number is`, "required"}},
		{"an expression is not a number", []string{"-var", "size=1+1"}, []string{"Invalid value for input variable", "a number is", "required"}},
		{"undeclared", []string{"-var", "size=1", "-var", "colour=red"}, []string{"Value for undeclared variable", `"colour"`}},
		{"missing", nil, []string{"No value for required variable", `"size"`, "main.tf"}},
		{"missing file", []string{"-var-file=nope.tfvars"}, []string{"Failed to read variables file", "nope.tfvars"}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			out, errOut, code := p.run(append([]string{"plan", "-no-color"}, test.args...)...)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errOut)
			}
			clitest.AssertContains(t, "errors", errOut, test.wants...)
		})
	}

	clitest.WriteFile(t, filepath.Join(p.dir, "terraform.tfvars"), "size  = 3\nstray = true\n")
	out, errOut, code := p.run("plan", "-no-color")
	if code != 0 {
		t.Fatalf("plan with a stray tfvars value: exit %d\n%s", code, errOut)
	}
	clitest.AssertContains(t, "warnings", out, "Warning: Value for undeclared variable", `variable named "stray" but a value was`, `found in file "terraform.tfvars"`)
	out = p.mustRun("plan", "-no-color", "-compact-warnings")
	clitest.AssertContains(t, "compact warnings", out, "Warnings:", "- Value for undeclared variable", "-compact-warnings")
	if strings.Contains(out, "does not declare a variable") {
		t.Errorf("-compact-warnings still shows the snippet:\n%s", out)
	}
}

// TestE2ERefresh checks that refresh records changes made outside Terrane
// without changing any object.
func TestE2ERefresh(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, variablesConfig)
	p.mustRun("apply", "-auto-approve", "-var=size=1")
	obj := p.objects("tpf_thing")["a"]
	p.editObject(obj, func(attrs map[string]any) { attrs["description"] = "set by hand" })

	// As OpenTofu's refresh does (views.RefreshHuman), it shows its
	// progress and the outputs, not what changed nor a summary.
	out := p.mustRun("refresh", "-no-color", "-var=size=1")
	clitest.AssertContains(t, "refresh", out, "tpf_thing.a: Refreshing state...")
	if strings.Contains(out, "has changed") || strings.Contains(out, "Apply complete!") {
		t.Errorf("refresh shows a plan or a summary:\n%s", out)
	}
	if got := p.objects("tpf_thing")["a"].attrs["description"]; got != "set by hand" {
		t.Errorf("refresh changed the object: description %v", got)
	}
	// Without refreshing, the plan now starts from the refreshed record.
	out = p.mustRun("plan", "-no-color", "-refresh=false", "-var=size=1")
	clitest.AssertContains(t, "plan from refreshed records", out, `- description = "set by hand" -> null`)
}
