package moduletest

import (
	"fmt"
	"sort"
	"testing"

	"github.com/terrane/terrane/internal/diags"
)

func TestDependenciesKeepWhatOrderMeans(t *testing.T) {
	f := loadSource(t, "main.tftest.hcl", `
run "a_apply" {}

run "b_plan" {
  command = plan
}

run "c_plan" {
  command = plan
}

run "d_setup" {
  module {
    source = "./setup"
  }
}

run "e_apply" {}

run "f_uses_setup" {
  command = plan
  module {
    source = "./other"
  }
  variables {
    x = run.d_setup.out
  }
}

run "g_asserts_on_e" {
  command = plan
  module {
    source = "./other"
  }
  assert {
    condition     = run.e_apply.out == 1
    error_message = "x"
  }
}
`)
	if f.Diagnostics.HasErrors() {
		t.Fatal(f.Diagnostics.Err())
	}
	got := map[string]string{}
	for i, deps := range dependencies(f) {
		var names []string
		for _, d := range deps {
			names = append(names, f.Runs[d].Name)
		}
		sort.Strings(names)
		got[f.Runs[i].Name] = fmt.Sprint(names)
	}
	want := map[string]string{
		"a_apply":        "[]",
		"b_plan":         "[a_apply]",               // reads the state a_apply changed
		"c_plan":         "[a_apply]",               // not b_plan: plans change nothing
		"d_setup":        "[]",                      // a state of its own
		"e_apply":        "[a_apply b_plan c_plan]", // their plans must not see its changes
		"f_uses_setup":   "[d_setup]",
		"g_asserts_on_e": "[e_apply]",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s waits for %s, want %s", name, got[name], w)
		}
	}
}

func TestExpectFailures(t *testing.T) {
	failed := func(addr string, sev diags.Severity) diags.Diagnostic {
		return diags.Diagnostic{Severity: sev, Summary: "failed", Object: addr, FailedCheck: true}
	}
	fromCheck := func(d diags.Diagnostic) diags.Diagnostic {
		d.FromCheckBlock = true
		return d
	}
	f := loadSource(t, "main.tftest.hcl", `
run "r" {
  expect_failures = [var.v, tpf_thing.all, tpf_thing.one[1], check.c, output.never]
}
`)
	expected, ds := parseExpectedFailures(f.Runs[0].ExpectFailures)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	in := diags.Diagnostics{
		failed("var.v", diags.Error),
		failed("tpf_thing.all[0]", diags.Error),
		failed("tpf_thing.all[1]", diags.Error),
		failed("tpf_thing.one[0]", diags.Error),
		failed("tpf_thing.one[1]", diags.Error),
		fromCheck(failed("check.c", diags.Warning)),
		fromCheck(failed("check.other", diags.Warning)),
		failed("module.m.var.v", diags.Error),
		failed("output.o", diags.Warning),
		{Severity: diags.Error, Summary: "unrelated", Address: "var.v"},
	}
	var out []string
	for _, d := range expectFailures(expected, in) {
		out = append(out, fmt.Sprintf("%s %s %s", d.Severity, d.Object+d.Address, d.Summary))
	}
	want := []string{
		"Error tpf_thing.one[0] failed",
		"Error check.other failed",
		"Error module.m.var.v failed",
		"Warning output.o failed",
		"Error var.v unrelated",
		"Error  Missing expected failure",
	}
	if fmt.Sprint(out) != fmt.Sprint(want) {
		t.Errorf("got\n%q\nwant\n%q", out, want)
	}
}

// Overrides of one target twice are an error of each run, the file's
// first, as OpenTofu reports them when a run starts.
func TestValidateRunReportsDuplicateOverrides(t *testing.T) {
	f := loadSource(t, "main.tftest.hcl", `
override_module { target = module.a }
override_module { target = module.a }

run "r" {
  override_resource { target = terraform_data.t }
  override_resource { target = terraform_data.t }
}
`)
	if f.Diagnostics.HasErrors() {
		t.Fatalf("reading the file: %s", f.Diagnostics.Err())
	}
	fr := newFileRunner(&Suite{}, f)
	_, ds := fr.validateRun(f.Runs[0])
	var got []string
	for _, d := range ds {
		got = append(got, d.Summary)
	}
	want := []string{"Duplicated `override_module` block", "Duplicated `override_resource` block"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
