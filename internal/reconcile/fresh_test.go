package reconcile_test

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/command"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/reconcile"
)

// plan -refresh-max-age uses the records a reconciler found in sync
// recently instead of reading their objects, and reads everything else.
func TestPlanRefreshMaxAgeUsesRecentInSyncRecords(t *testing.T) {
	p := newProject(t, twoThings)
	p.mustRun("apply", "-auto-approve")
	rec, err := reconcile.New(p.service(), reconcile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Register(p.workspace("prod")); err != nil {
		t.Fatal(err)
	}
	reconcileNow := func() reconcile.Report {
		t.Helper()
		report, err := rec.ReconcileNow(t.Context(), "prod")
		if err != nil || report.Failure != nil {
			t.Fatalf("%v %+v", err, report.Failure)
		}
		return report
	}
	reconcileNow()
	p.editObject(p.cloudFile("tpf_thing", "web"), func(attrs map[string]any) { attrs["description"] = "changed by hand" })

	// Found in sync a moment ago: the plan trusts the record.
	if code, out := p.plan("-refresh-only", "-detailed-exitcode", "-refresh-max-age=1h"); code != 0 {
		t.Errorf("with -refresh-max-age=1h after an InSync run: exit %d, want 0 (nothing read)\n%s", code, out)
	}
	// Too old for the limit, and without it: the object is read.
	if code, out := p.plan("-refresh-only", "-detailed-exitcode", "-refresh-max-age=1ns"); code != 2 || !strings.Contains(out, "changed by hand") {
		t.Errorf("with -refresh-max-age=1ns: exit %d, want 2 (drift found)\n%s", code, out)
	}
	if code, out := p.plan("-refresh-only", "-detailed-exitcode"); code != 2 {
		t.Errorf("without -refresh-max-age: exit %d, want 2\n%s", code, out)
	}
	// Once a run saw the drift, the record is no longer fresh.
	if report := reconcileNow(); report.Tally.Drifted != 1 {
		t.Fatalf("%+v", report.Tally)
	}
	if code, out := p.plan("-refresh-only", "-detailed-exitcode", "-refresh-max-age=1h"); code != 2 || !strings.Contains(out, "changed by hand") {
		t.Errorf("with -refresh-max-age=1h after a Drifted run: exit %d, want 2\n%s", code, out)
	}
}

func (p *project) plan(args ...string) (int, string) {
	var out strings.Builder
	code := command.Run(append([]string{"-chdir=" + p.dir, "plan", "-no-color"}, args...), views.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out})
	return code, out.String()
}
