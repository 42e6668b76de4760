package arguments

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

func TestParsePlanOptions(t *testing.T) {
	plan, ds := ParsePlan([]string{
		"-out=tfplan", "-var", "a=1", "-var-file=x.tfvars", "-var=b=2",
		"-target=module.app", "-target", `tpf_thing.web["a"]`, "-target=tpf_thing.db",
		"-replace=tpf_thing.web[0]", "-refresh=false", "-parallelism=3",
		"-input=false", "-lock=false", "-lock-timeout=5s", "-no-color",
		"-compact-warnings", "-detailed-exitcode", "-json",
	})
	if ds.HasErrors() {
		t.Fatalf("unexpected errors: %v", ds.Err())
	}
	if plan.Out != "tfplan" || !plan.DetailedExitCode || !plan.NoColor || !plan.JSON || !plan.CompactWarnings {
		t.Errorf("view/out options lost: %+v", plan)
	}
	wantVars := []inputvars.VarOption{{Text: "a=1"}, {File: true, Text: "x.tfvars"}, {Text: "b=2"}}
	if len(plan.Vars) != len(wantVars) {
		t.Fatalf("vars = %+v, want %+v", plan.Vars, wantVars)
	}
	for i := range wantVars {
		if plan.Vars[i] != wantVars[i] {
			t.Errorf("var option %d = %+v, want %+v (order decides precedence)", i, plan.Vars[i], wantVars[i])
		}
	}
	var targets []string
	for _, target := range plan.Targets {
		targets = append(targets, target.String())
	}
	if got, want := strings.Join(targets, " "), `module.app tpf_thing.web["a"] tpf_thing.db`; got != want {
		t.Errorf("targets = %s, want %s", got, want)
	}
	if len(plan.Replace) != 1 || plan.Replace[0].String() != "tpf_thing.web[0]" {
		t.Errorf("replace = %v", plan.Replace)
	}
	if plan.Refresh || plan.Input || plan.Lock || plan.Parallelism != 3 || plan.LockTimeout != 5*time.Second {
		t.Errorf("operation options lost: %+v", plan.Operation)
	}
}

func TestParsePlanDefaults(t *testing.T) {
	plan, ds := ParsePlan(nil)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if !plan.Refresh || !plan.Input || !plan.Lock || plan.Parallelism != DefaultParallelism || plan.Destroy || plan.RefreshOnly {
		t.Errorf("defaults differ from Terraform's: %+v", plan.Operation)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name    string
		parse   func([]string) (*Apply, error)
		args    []string
		summary string
	}{
		{"destroy and refresh-only", applyParser(ParseApply), []string{"-destroy", "-refresh-only"}, "Incompatible plan mode options"},
		{"refresh-only without refresh", applyParser(ParseApply), []string{"-refresh-only", "-refresh=false"}, "Incompatible refresh options"},
		// OpenTofu's texts; -replace with -destroy is refused by the plan.
		{"replace of a data resource", applyParser(ParseApply), []string{"-replace=data.a.b"}, `Invalid force-replace address "data.a.b"`},
		{"replace of a whole module", applyParser(ParseApply), []string{"-replace=module.x"}, `Invalid force-replace address "module.x"`},
		{"bad target", applyParser(ParseApply), []string{"-target=foo"}, `Invalid target "foo": Resource specification must include a resource type and name.`},
		{"bad exclude", applyParser(ParseApply), []string{"-exclude=a.b.c.d"}, `Invalid exclude "a.b.c.d": Unexpected extra operators after address.`},
		{"target and exclude", applyParser(ParseApply), []string{"-target=a.b", "-exclude=a.c"}, "Invalid combination of arguments"},
		{"zero parallelism", applyParser(ParseApply), []string{"-parallelism=0"}, "Invalid -parallelism option"},
		{"unknown flag", applyParser(ParseApply), []string{"-frobnicate"}, "Failed to parse command-line flags"},
		{"two plan files", applyParser(ParseApply), []string{"a", "b"}, "Too many command line arguments"},
		{"destroy takes no plan file", applyParser(ParseDestroy), []string{"tfplan"}, "Too many command line arguments"},
		{"plan options with a saved plan", applyParser(ParseApply), []string{"-replace=a.b", "tfplan"}, "Invalid options for a saved plan"},
		{"plan takes no arguments", func(args []string) (*Apply, error) { _, ds := ParsePlan(args); return nil, ds.Err() }, []string{"dir"}, "Too many command line arguments"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			_, err := test.parse(test.args)
			if err == nil {
				t.Fatalf("%v accepted", test.args)
			}
			if !strings.Contains(err.Error(), test.summary) {
				t.Errorf("error %q does not say %q", err, test.summary)
			}
		})
	}
}

func applyParser(parse func([]string) (*Apply, diags.Diagnostics)) func([]string) (*Apply, error) {
	return func(args []string) (*Apply, error) {
		apply, ds := parse(args)
		return apply, ds.Err()
	}
}

func TestParseApplyModes(t *testing.T) {
	apply, ds := ParseApply([]string{"-auto-approve", "tfplan"})
	if ds.HasErrors() || apply.PlanFile != "tfplan" || !apply.AutoApprove {
		t.Errorf("apply with plan file: %+v %v", apply, ds.Err())
	}
	destroy, ds := ParseDestroy([]string{"-target=tpf_thing.a"})
	if ds.HasErrors() || !destroy.Destroy || destroy.AutoApprove {
		t.Errorf("destroy: %+v %v", destroy, ds.Err())
	}
	refresh, ds := ParseRefresh(nil)
	if ds.HasErrors() || !refresh.RefreshOnly || !refresh.AutoApprove || refresh.Destroy {
		t.Errorf("refresh is apply -refresh-only -auto-approve: %+v %v", refresh, ds.Err())
	}
	help, ds := ParseApply([]string{"-help"})
	if ds.HasErrors() || !help.Help {
		t.Errorf("-help: %+v %v", help, ds.Err())
	}
}

func TestParseTargetFiles(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/targets.txt"
	if err := os.WriteFile(path, []byte("# a comment\nmodule.m[\"a\"]\n  # another\ntpf_thing.x[1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plan, ds := ParsePlan([]string{"-target=tpf_thing.y", "-target-file=" + path})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	var got []string
	for _, target := range plan.Targets {
		got = append(got, target.String())
	}
	if want := `tpf_thing.y module.m["a"] tpf_thing.x[1]`; strings.Join(got, " ") != want {
		t.Errorf("targets = %q, want %q", strings.Join(got, " "), want)
	}
	// As in OpenTofu, a blank line is not a comment: it must be an address.
	if err := os.WriteFile(path, []byte("tpf_thing.x\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ds := ParsePlan([]string{"-exclude-file=" + path}); !ds.HasErrors() || ds[0].Subject == nil || ds[0].Subject.Start.Line != 2 {
		t.Errorf("blank line accepted or misplaced: %v", ds)
	}
	// -target and -exclude are ignored with a saved plan, as in OpenTofu.
	if _, ds := ParseApply([]string{"-target=a.b", "tfplan"}); ds.HasErrors() {
		t.Errorf("-target with a saved plan refused: %v", ds.Err())
	}
}
