package inputvars

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// loadDecls writes a configuration and the given extra files into a fresh
// directory and returns the directory and its root module's variables.
func loadDecls(t *testing.T, mainTF string, files map[string]string) (string, map[string]*config.Variable) {
	t.Helper()
	dir := t.TempDir()
	files["main.tf"] = mainTF
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mod, loadDiags := config.NewParser().LoadModule(dir)
	if loadDiags.HasErrors() {
		t.Fatal(loadDiags.Error())
	}
	return dir, mod.Variables
}

const precedenceConfig = `
variable "a" {}
variable "b" {}
variable "c" {}
variable "d" {}
variable "e" {}
variable "f" {}
variable "g" { default = "from default" }
`

// TestPrecedence gives each variable from every source up to its own rank,
// so its final value names the source that must win.
func TestPrecedence(t *testing.T) {
	dir, decls := loadDecls(t, precedenceConfig, map[string]string{
		"terraform.tfvars":      "b = \"tfvars\"\nc = \"tfvars\"\nd = \"tfvars\"\ne = \"tfvars\"\nf = \"tfvars\"\n",
		"terraform.tfvars.json": `{"c": "tfvars.json", "d": "tfvars.json", "e": "tfvars.json", "f": "tfvars.json"}`,
		"a.auto.tfvars":         "d = \"a.auto\"\ne = \"a.auto\"\nf = \"a.auto\"\n",
		"b.auto.tfvars.json":    `{"e": "b.auto.json", "f": "b.auto.json"}`,
		"named.tfvars":          "f = \"named\"\n",
	})
	env := Environ{"TF_VAR_a=env", "TF_VAR_b=env", "TF_VAR_c=env", "TF_VAR_d=env", "TF_VAR_e=env", "TF_VAR_f=env"}
	values, ds := CollectValues(dir, decls, []VarOption{{Text: "f=cli"}, {File: true, Text: filepath.Join(dir, "named.tfvars")}}, env)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	final, ds := Resolve(decls, values)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want := map[string]string{"a": "env", "b": "tfvars", "c": "tfvars.json", "d": "a.auto", "e": "b.auto.json", "f": "named", "g": "from default"}
	for name, w := range want {
		if got := final[name]; !got.RawEquals(cty.StringVal(w)) {
			t.Errorf("var.%s = %#v, want %q", name, got, w)
		}
	}
	if values.ByName["f"].Source != SourceNamedFile || values.ByName["a"].Source != SourceEnv || values.ByName["d"].Source != SourceAutoFile {
		t.Errorf("sources recorded wrongly: f=%s a=%s d=%s", values.ByName["f"].Source, values.ByName["a"].Source, values.ByName["d"].Source)
	}
	// A later -var beats an earlier -var-file.
	values, _ = CollectValues(dir, decls, []VarOption{{File: true, Text: filepath.Join(dir, "named.tfvars")}, {Text: "f=cli"}}, env)
	if got := values.ByName["f"].Value; !got.RawEquals(cty.StringVal("cli")) {
		t.Errorf("later -var lost to earlier -var-file: %#v", got)
	}
}

func TestTypedValuesFromText(t *testing.T) {
	dir, decls := loadDecls(t, `
variable "n" { type = number }
variable "l" { type = list(string) }
variable "s" { type = string }
variable "o" {
  type = object({ name = string, size = optional(number, 3) })
}
`, map[string]string{})
	values, ds := CollectValues(dir, decls, []VarOption{
		{Text: "n=42"}, {Text: `l=["x", "y"]`}, {Text: `s=[not, parsed]`}, {Text: `o={ name = "web" }`},
	}, nil)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	final, ds := Resolve(decls, values)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	checks := map[string]cty.Value{
		"n": cty.NumberIntVal(42),
		"l": cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")}),
		"s": cty.StringVal("[not, parsed]"),
		"o": cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("web"), "size": cty.NumberIntVal(3)}),
	}
	for name, want := range checks {
		if got := final[name]; !got.RawEquals(want) {
			t.Errorf("var.%s = %#v, want %#v", name, got, want)
		}
	}
}

func TestVariableDiagnostics(t *testing.T) {
	mainTF := `
variable "n" { type = number }
variable "l" { type = list(number) }
variable "required" {}
`
	tests := []struct {
		name     string
		files    map[string]string
		options  []VarOption
		env      Environ
		severity diags.Severity
		summary  string
		mention  string
	}{
		{"undeclared -var", nil, []VarOption{{Text: "nope=1"}}, nil, diags.Error, "Value for undeclared variable", `"nope"`},
		{"-var without equals", nil, []VarOption{{Text: "novalue"}}, nil, diags.Error, "Invalid -var option", "novalue"},
		{"undeclared in tfvars", map[string]string{"terraform.tfvars": "stray = 1\n"}, nil, nil, diags.Warning, "Value for undeclared variable", "terraform.tfvars"},
		{"missing -var-file", nil, []VarOption{{File: true, Text: "absent.tfvars"}}, nil, diags.Error, "Failed to read variables file", "absent.tfvars"},
		{"broken tfvars", map[string]string{"x.auto.tfvars": "n = = 1\n"}, nil, nil, diags.Error, "", "x.auto.tfvars"},
		// Values of a primitive type are taken literally, as OpenTofu takes
		// them, and checked against the type when the plan evaluates them;
		// others are expressions, read here.
		{"bad -var expression", nil, []VarOption{{Text: "l=[1,"}}, nil, diags.Error, "", "var.l"},
		{"bad env expression", nil, nil, Environ{"TF_VAR_l=}"}, diags.Error, "", "<value for var.l>"}, // OpenTofu names no variable source
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			if test.files == nil {
				test.files = map[string]string{}
			}
			dir, decls := loadDecls(t, mainTF, test.files)
			options := test.options
			for i := range options {
				if options[i].File {
					options[i].Text = filepath.Join(dir, options[i].Text)
				}
			}
			_, ds := CollectValues(dir, decls, append(options, VarOption{Text: "required=x"}), test.env)
			found := findDiag(ds, test.severity, test.summary, test.mention)
			if !found {
				t.Errorf("no %s diagnostic %q mentioning %q in:\n%s", test.severity, test.summary, test.mention, describe(ds))
			}
		})
	}
}

func TestUndeclaredEnvironmentIgnored(t *testing.T) {
	dir, decls := loadDecls(t, `variable "a" {}`, map[string]string{})
	values, ds := CollectValues(dir, decls, nil, Environ{"TF_VAR_other=1", "TF_VAR_a=x", "PATH=/bin"})
	if len(ds) != 0 {
		t.Errorf("undeclared TF_VAR_ reported:\n%s", describe(ds))
	}
	if !values.ByName["a"].Value.RawEquals(cty.StringVal("x")) {
		t.Errorf("TF_VAR_a lost: %#v", values.ByName["a"])
	}
}

func TestUndeclaredFileWarningsSummarised(t *testing.T) {
	dir, decls := loadDecls(t, `variable "a" { default = 1 }`, map[string]string{
		"terraform.tfvars": "w = 1\nx = 2\ny = 3\nz = 4\n",
	})
	_, ds := CollectValues(dir, decls, nil, nil)
	var single, summary int
	for _, d := range ds {
		switch d.Summary {
		case "Value for undeclared variable":
			single++
		case "Values for undeclared variables":
			summary++
			if !strings.Contains(d.Detail, "2 other variable(s)") {
				t.Errorf("summary miscounts: %s", d.Detail)
			}
		}
	}
	if single != 2 || summary != 1 || ds.HasErrors() {
		t.Errorf("want two warnings and a summary, got:\n%s", describe(ds))
	}
}

func TestResolveErrorsNameTheSource(t *testing.T) {
	dir, decls := loadDecls(t, `
variable "n" { type = number }
variable "required" {}
`, map[string]string{"terraform.tfvars": "n = \"many\"\n"})
	values, ds := CollectValues(dir, decls, nil, nil)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	_, ds = Resolve(decls, values)
	if !findDiag(ds, diags.Error, "Invalid value for input variable", "automatically-loaded variables file") {
		t.Errorf("type error does not name its source:\n%s", describe(ds))
	}
	for _, d := range ds {
		if d.Summary == "Invalid value for input variable" && (d.Subject == nil || !strings.HasSuffix(d.Subject.Filename, "terraform.tfvars")) {
			t.Errorf("type error does not point into terraform.tfvars: %+v", d.Subject)
		}
	}
	if !findDiag(ds, diags.Error, "No value for required variable", `"required"`) {
		t.Errorf("missing required variable not reported:\n%s", describe(ds))
	}
}

func findDiag(ds diags.Diagnostics, severity diags.Severity, summary, mention string) bool {
	for _, d := range ds {
		text := d.Summary + " " + d.Detail
		if d.Subject != nil {
			text += " " + d.Subject.Filename
		}
		if d.Severity == severity && strings.Contains(d.Summary, summary) && strings.Contains(text, mention) {
			return true
		}
	}
	return false
}

func describe(ds diags.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Severity.String() + ": " + d.String() + "\n")
	}
	return b.String()
}
