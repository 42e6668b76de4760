package command

import (
	"bytes"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/command/views"
)

// consoleStateConfig has resources of every expansion, a data source, a
// child module and a provider function, for the console to read.
var consoleStateFiles = map[string]string{
	"main.tf": lifecycleHeader + `
resource "tpf_thing" "r" {
  name = "r"
}

resource "tpf_thing" "c" {
  count  = 2
  name   = "c${count.index}"
  secret = "s3cret"
}

resource "tpf_thing" "e" {
  for_each = toset(["a"])
  name     = each.key
}

data "tpf_thing" "d" {
  id = tpf_thing.r.id
}

module "m" {
  source = "./m"
  in     = tpf_thing.r.name
}

locals {
  same = tpf_thing.r.id == data.tpf_thing.d.id
}
`,
	"m/main.tf": `
variable "in" {
  type = string
}

output "out" {
  value = "mod-${var.in}"
}
`,
}

// consoleStateInputs are the console inputs compared, one per session.
var consoleStateInputs = []string{
	`tpf_thing.r.name`,
	`tpf_thing.c[0].name`,
	`length(tpf_thing.c)`,
	`tpf_thing.c[1].secret`,
	`tpf_thing.e["a"].name`,
	`data.tpf_thing.d.name`,
	`module.m.out`,
	`local.same`,
	`provider::tpf::reverse("abc")`,
}

// TestE2EConsoleReadsRecordedState checks that the console evaluates
// against the workspace's records, as OpenTofu's eval walk does: before
// the first apply resources are unknown, afterwards every expression gives
// the recorded value, the same as terraform 1.11's console. A provider
// used only for its functions works too.
func TestE2EConsoleReadsRecordedState(t *testing.T) {
	o := newOracleProject(t, consoleStateFiles)
	o.compareConsoles("before apply")
	o.expectCode("apply", o.agree("apply", "-no-color", "-auto-approve"), 0)
	got := o.compareConsoles("after apply")
	want := []string{`"r"`, `"c0"`, `2`, `(sensitive value)`, `"a"`, `"r"`, `"mod-r"`, `true`, `"cba"`}
	for i, input := range consoleStateInputs {
		if got[i] != want[i] {
			t.Errorf("after apply, %s gives %s, want %s", input, got[i], want[i])
		}
	}
	var id string
	for _, obj := range o.objects("tpf_thing") {
		if obj.attrs["name"] == "r" {
			id = obj.attrs["id"].(string)
		}
	}
	if got := o.terraneConsole("tpf_thing.r.id"); got != `"`+id+`"` {
		t.Errorf("tpf_thing.r.id gives %s, want the recorded %q", got, id)
	}
}

// compareConsoles runs each input in its own console session and returns
// the printed results (the corpus's console cases compare them with
// OpenTofu).
func (o *oracleProject) compareConsoles(when string) []string {
	o.t.Helper()
	var results []string
	for _, input := range consoleStateInputs {
		got := o.terraneConsole(input)
		results = append(results, got)
	}
	return results
}

// terraneConsole evaluates one input in a terrane console session.
func (o *oracleProject) terraneConsole(input string) string {
	o.t.Helper()
	var stdout, stderr bytes.Buffer
	if code := runConsole(views.Streams{Stdin: strings.NewReader(input + "\n"), Stdout: &stdout, Stderr: &stderr}, []string{"-no-color"}); code != 0 {
		o.t.Fatalf("console %s: exit %d\n%s", input, code, stderr.String())
	}
	return strings.TrimSpace(stdout.String())
}
