package arguments

import (
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/diags"
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
	wantVars := []VarOption{{Text: "a=1"}, {File: true, Text: "x.tfvars"}, {Text: "b=2"}}
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
		{"replace in destroy", applyParser(ParseDestroy), []string{"-replace=a.b"}, "Invalid -replace option"},
		{"replace of a data resource", applyParser(ParseApply), []string{"-replace=data.a.b"}, "Invalid replace address"},
		{"replace of a whole module", applyParser(ParseApply), []string{"-replace=module.x"}, "Invalid replace address"},
		{"bad target", applyParser(ParseApply), []string{"-target=foo"}, "Invalid target address"},
		{"bad exclude", applyParser(ParseApply), []string{"-exclude=a.b.c.d"}, "Invalid exclude address"},
		{"target and exclude", applyParser(ParseApply), []string{"-target=a.b", "-exclude=a.c"}, "Incompatible targeting options"},
		{"zero parallelism", applyParser(ParseApply), []string{"-parallelism=0"}, "Invalid -parallelism option"},
		{"unknown flag", applyParser(ParseApply), []string{"-frobnicate"}, "Failed to parse command-line flags"},
		{"two plan files", applyParser(ParseApply), []string{"a", "b"}, "Too many command line arguments"},
		{"destroy takes no plan file", applyParser(ParseDestroy), []string{"tfplan"}, "Too many command line arguments"},
		{"targets with a saved plan", applyParser(ParseApply), []string{"-target=a.b", "tfplan"}, "Invalid options for a saved plan"},
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

