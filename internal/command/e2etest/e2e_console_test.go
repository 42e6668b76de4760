package e2etest

import (
	"strings"
	"testing"
)

const consoleConfig = `
variable "name" {
  type    = string
  default = "web"
}

variable "password" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

variable "settings" {
  type = object({
    size = number
    tags = optional(map(string), {})
  })
  default = { size = 2 }
}

variable "zones" {
  type    = list(string)
  default = ["a", "b"]
}

locals {
  prefix = "${var.name}-prod"
  names  = [for z in var.zones : "${local.prefix}-${z}"]
}
`

// newConsoleProject is a project holding consoleConfig and hello.txt.
func newConsoleProject(t *testing.T) *e2eProject {
	t.Helper()
	p := newBareProject(t)
	p.writeFiles(map[string]string{"main.tf": consoleConfig, "hello.txt": "Hello World"})
	return p
}

// runConsoleIn runs the console in a fresh consoleProject, feeding it
// input, and returns stdout, stderr and the status.
func runConsoleIn(t *testing.T, input string, args ...string) (string, string, int) {
	t.Helper()
	return newConsoleProject(t).runConsole(input, args...)
}

// runConsole runs the console in the project, feeding it input.
func (p *e2eProject) runConsole(input string, args ...string) (string, string, int) {
	p.t.Helper()
	return p.runWithInput(input, append([]string{"console", "-no-color"}, args...)...)
}

func TestConsolePrintsValuesAsTofuDoes(t *testing.T) {
	t.Parallel()
	tests := []struct{ input, want string }{
		{`"hello"`, `"hello"`},
		{`1.5 + 2`, `3.5`},
		{`true && false`, `false`},
		{`null`, `null`},
		{`tostring(null)`, `tostring(null)`},
		{`tolist(null)`, `tolist(null) /* of dynamic */`},
		{`var.name`, `"web"`},
		{`local.prefix`, `"web-prod"`},
		{`local.names`, "[\n  \"web-prod-a\",\n  \"web-prod-b\",\n]"},
		{`var.zones`, "tolist([\n  \"a\",\n  \"b\",\n])"},
		{`toset(["b", "a", "b"])`, "toset([\n  \"a\",\n  \"b\",\n])"},
		{`tomap({x = 1})`, "tomap({\n  \"x\" = 1\n})"},
		{`var.settings`, "{\n  \"size\" = 2\n  \"tags\" = tomap({})\n}"},
		{`{a = {b = [1]}, long_name = "x"}`, "{\n  \"a\" = {\n    \"b\" = [\n      1,\n    ]\n  }\n  \"long_name\" = \"x\"\n}"},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`var.password`, `(sensitive value)`},
		{`{secret = var.password}`, "{\n  \"secret\" = (sensitive value)\n}"},
		{`nonsensitive(var.password)`, `"hunter2"`},
		{`"line1\nline2"`, "<<EOT\nline1\nline2\nEOT"},
		{`{text = "a\nEOT\n"}`, "{\n  \"text\" = <<-EOT_\n  a\n  EOT\n  \n  EOT_\n}"},
		{`path.module`, `"."`},
		{`terraform.workspace`, `"default"`},
		{`type(var.settings)`, "object({\n    size: number,\n    tags: map(string),\n})"},
		{`type([{a = 1}])`, "tuple([\n    object({\n        a: number,\n    }),\n])"},
		{`type(var.zones)`, "list(string)"},
		// One expression from each function family.
		{`max(5, 12, 9)`, `12`},
		{`format("%s-%03d", var.name, 7)`, `"web-007"`},
		{`zipmap(["a", "b"], [1, 2])`, "{\n  \"a\" = 1\n  \"b\" = 2\n}"},
		{`jsonencode({a = [1, true]})`, `"{\"a\":[1,true]}"`},
		{`yamldecode("a: [1, 2]")`, "{\n  \"a\" = [\n    1,\n    2,\n  ]\n}"},
		{`file("hello.txt")`, `"Hello World"`},
		{`fileexists("nope.txt")`, `false`},
		{`formatdate("YYYY-MM-DD", "2024-02-29T10:00:00Z")`, `"2024-02-29"`},
		{`sha256("abc")`, `"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`},
		{`cidrsubnets("10.0.0.0/16", 8, 8)`, "tolist([\n  \"10.0.0.0/24\",\n  \"10.0.1.0/24\",\n])"},
		{`tonumber("42")`, `42`},
		{`try(var.settings.missing, "fallback")`, `"fallback"`},
		{`startswith("terrane", "terr")`, `true`},
		{`provider::terraform::encode_expr({a = 1})`, "<<EOT\n{\n  a = 1\n}\nEOT"},
	}
	var input, want strings.Builder
	for _, test := range tests {
		input.WriteString(test.input + "\n")
		want.WriteString(test.want + "\n")
	}
	stdout, stderr, code := runConsoleIn(t, input.String())
	if code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, stderr)
	}
	gotLines, wantLines := stdout, want.String()
	if gotLines != wantLines {
		gotParts, wantParts := strings.Split(gotLines, "\n"), strings.Split(wantLines, "\n")
		for i := range min(len(gotParts), len(wantParts)) {
			if gotParts[i] != wantParts[i] {
				t.Fatalf("output differs at line %d:\ngot  %q\nwant %q\n\nfull output:\n%s", i+1, gotParts[i], wantParts[i], stdout)
			}
		}
		t.Fatalf("output length differs:\n%s", stdout)
	}
}

func TestConsoleMultiLineInputAndExit(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := runConsoleIn(t, "[\n  for z in var.zones :\n  upper(z)\n]\nexit\n\"not evaluated\"\n")
	if code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, stderr)
	}
	if stdout != "[\n  \"A\",\n  \"B\",\n]\n" {
		t.Fatalf("stdout = %q", stdout)
	}
}

func TestConsoleVariablesFromFlagsAndEnvironment(t *testing.T) {
	t.Parallel()
	p := newConsoleProject(t)
	p.setenv("TF_VAR_zones", `["x"]`)
	stdout, stderr, code := p.runConsole("var.name\nvar.zones\n", "-var", "name=db")
	if code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, stderr)
	}
	if stdout != "\"db\"\ntolist([\n  \"x\",\n])\n" {
		t.Fatalf("stdout = %q", stdout)
	}
}

func TestConsoleErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		input, args, wantErr string
	}{
		{"var.nope\n", "", "Reference to undeclared input variable"},
		{"count.index\n", "", `Reference to "count" in non-counted context`},
		{"upper(1, 2)\n", "", "Function \"upper\" expects only 1 argument"},
		{"[type(1)]\n", "", "Invalid use of type function"},
		{"plantimestamp()\n", "", "no function named \"plantimestamp\""},
		{"1 +\n", "", "Missing expression"},
		{"var.name\n", "-var=nope=1", "Value for undeclared variable"},
	}
	for _, test := range tests {
		t.Run(test.input, func(t *testing.T) {
			t.Parallel()
			var args []string
			if test.args != "" {
				args = []string{test.args}
			}
			_, stderr, code := runConsoleIn(t, test.input+"\"after\"\n", args...)
			if code != 1 {
				t.Fatalf("exit status %d, want 1", code)
			}
			if !strings.Contains(stderr, test.wantErr) {
				t.Fatalf("stderr does not contain %q:\n%s", test.wantErr, stderr)
			}
		})
	}
}

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
	t.Parallel()
	p := newInitialisedProject(t, consoleStateFiles)
	p.compareConsoles("before apply")
	p.expectCode("apply", p.result("apply", "-no-color", "-auto-approve"), 0)
	got := p.compareConsoles("after apply")
	want := []string{`"r"`, `"c0"`, `2`, `(sensitive value)`, `"a"`, `"r"`, `"mod-r"`, `true`, `"cba"`}
	for i, input := range consoleStateInputs {
		if got[i] != want[i] {
			t.Errorf("after apply, %s gives %s, want %s", input, got[i], want[i])
		}
	}
	var id string
	for _, obj := range p.objects("tpf_thing") {
		if obj.attrs["name"] == "r" {
			id = obj.attrs["id"].(string)
		}
	}
	if got := p.terraneConsole("tpf_thing.r.id"); got != `"`+id+`"` {
		t.Errorf("tpf_thing.r.id gives %s, want the recorded %q", got, id)
	}
}

// compareConsoles runs each input in its own console session and returns
// the printed results (the corpus's console cases compare them with
// OpenTofu).
func (p *e2eProject) compareConsoles(when string) []string {
	p.t.Helper()
	var results []string
	for _, input := range consoleStateInputs {
		got := p.terraneConsole(input)
		results = append(results, got)
	}
	return results
}

// terraneConsole evaluates one input in a terrane console session.
func (p *e2eProject) terraneConsole(input string) string {
	p.t.Helper()
	stdout, stderr, code := p.runConsole(input + "\n")
	if code != 0 {
		p.t.Fatalf("console %s: exit %d\n%s", input, code, stderr)
	}
	return strings.TrimSpace(stdout)
}
