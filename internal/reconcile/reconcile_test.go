package reconcile_test

import (
	"os"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/reconcile"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/workdir"
)

const twoThings = `
resource "tpf_thing" "web" {
  name        = "web"
  description = "serves traffic"
  tags        = { env = "prod" }
  secret      = "hunter2"
}

resource "tpf_thing" "db" {
  name = "db"
}
`

// Objects changed and deleted behind Terrane's back show as Drifted (with
// the attributes that differ) and Missing, without any record's Generation
// moving; an auto-apply undoes the drift with a real apply and the next
// refresh shows everything InSync again.
func TestDriftIsReportedThenUndoneByAutoApply(t *testing.T) {
	p := newProject(t, twoThings)
	p.mustRun("apply", "-auto-approve")
	service := p.service()
	rec, err := reconcile.New(service, reconcile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Register(p.workspace("prod")); err != nil {
		t.Fatal(err)
	}
	report, err := rec.ReconcileNow(t.Context(), "prod")
	if err != nil {
		t.Fatal(err)
	}
	if report.Failure != nil || report.Tally.InSync != 2 {
		t.Fatalf("first run: %+v", report)
	}
	web, db := p.instanceRecord(service, "tpf_thing.web"), p.instanceRecord(service, "tpf_thing.db")
	for _, res := range []string{"tpf_thing.web", "tpf_thing.db"} {
		if c := condition(t, p.instanceRecord(service, res)); c.GetType() != reconcile.ConditionInSync {
			t.Errorf("%s: %s (%s), want InSync", res, c.GetType(), c.GetMessage())
		}
	}

	p.editObject(p.cloudFile("tpf_thing", "web"), func(attrs map[string]any) {
		attrs["description"] = "changed by hand"
		attrs["tags"] = map[string]any{"env": "staging"}
		attrs["secret"] = "leaked-value"
	})
	if err := os.Remove(p.cloudFile("tpf_thing", "db")); err != nil {
		t.Fatal(err)
	}
	report, err = rec.ReconcileNow(t.Context(), "prod")
	if err != nil {
		t.Fatal(err)
	}
	if report.Tally.Drifted != 1 || report.Tally.Missing != 1 || report.AutoApplied != nil {
		t.Fatalf("after the changes: %+v", report)
	}
	webNow := p.instanceRecord(service, "tpf_thing.web")
	c := condition(t, webNow)
	if c.GetType() != reconcile.ConditionDrifted || c.GetReason() != reconcile.ReasonChangedOutside {
		t.Fatalf("web: %s/%s, want Drifted", c.GetType(), c.GetReason())
	}
	for _, path := range []string{"description", `tags["env"]`, "secret"} {
		if !strings.Contains(c.GetMessage(), path) {
			t.Errorf("web's Drifted message %q does not name %s", c.GetMessage(), path)
		}
	}
	if strings.Contains(c.GetMessage(), "leaked-value") || strings.Contains(c.GetMessage(), "staging") {
		t.Errorf("the message shows values: %q", c.GetMessage())
	}
	if webNow.GetGeneration() != web.GetGeneration() {
		t.Error("a status write changed web's Generation")
	}
	dbNow := p.instanceRecord(service, "tpf_thing.db")
	if c := condition(t, dbNow); c.GetType() != reconcile.ConditionMissing {
		t.Errorf("db: %s, want Missing", c.GetType())
	}
	if dbNow.GetGeneration() != db.GetGeneration() {
		t.Error("a status write changed db's Generation")
	}
	wsRecord, err := service.Read(t.Context(), store.StrongConsistency, records.WorkspaceID(workdir.DefaultProject, p.name))
	if err != nil {
		t.Fatal(err)
	}
	summary := wsRecord.GetStatus()[reconcile.StatusKey]
	if summary == nil || len(summary.GetConditions()) < 2 || summary.GetConditions()[1].GetType() != reconcile.ConditionDrifted ||
		!strings.Contains(summary.GetConditions()[1].GetMessage(), "tpf_thing.db, tpf_thing.web") {
		t.Errorf("workspace summary: %v", summary)
	}

	// The same workspace with auto_apply = "drift".
	auto, err := reconcile.New(service, reconcile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws := p.workspace("prod-auto")
	ws.AutoApply = reconcile.AutoApplyDrift
	if err := auto.Register(ws); err != nil {
		t.Fatal(err)
	}
	report, err = auto.ReconcileNow(t.Context(), "prod-auto")
	if err != nil {
		t.Fatal(err)
	}
	if report.AutoApplied == nil || report.AutoApplied.Reason != reconcile.ReasonDriftUndone {
		t.Fatalf("auto-apply: %+v", report.AutoApplied)
	}
	if report.Tally.InSync != 2 || report.Tally.Drifted+report.Tally.Missing != 0 {
		t.Fatalf("after the auto-apply: %+v", report.Tally)
	}
	for _, res := range []string{"tpf_thing.web", "tpf_thing.db"} {
		if c := condition(t, p.instanceRecord(service, res)); c.GetType() != reconcile.ConditionInSync {
			t.Errorf("%s after auto-apply: %s (%s)", res, c.GetType(), c.GetMessage())
		}
	}
	if got := p.readObject(p.cloudFile("tpf_thing", "web"))["description"]; got != "serves traffic" {
		t.Errorf("web's description in the cloud is %v after the auto-apply", got)
	}
	p.cloudFile("tpf_thing", "db") // re-created
}

// An auto-apply undoes only drift: an instance whose configuration was
// also changed (and not yet applied) is left for a person, while the
// drift of the others is undone.
func TestAutoApplyLeavesConfigurationChangesAlone(t *testing.T) {
	p := newProject(t, twoThings)
	p.mustRun("apply", "-auto-approve")
	p.editObject(p.cloudFile("tpf_thing", "web"), func(attrs map[string]any) { attrs["description"] = "changed by hand" })
	p.editObject(p.cloudFile("tpf_thing", "db"), func(attrs map[string]any) { attrs["description"] = "changed by hand" })
	p.write(strings.Replace(twoThings, `"serves traffic"`, `"serves more traffic"`, 1))

	service := p.service()
	rec, err := reconcile.New(service, reconcile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws := p.workspace("prod")
	ws.AutoApply = reconcile.AutoApplyDrift
	if err := rec.Register(ws); err != nil {
		t.Fatal(err)
	}
	report, err := rec.ReconcileNow(t.Context(), "prod")
	if err != nil {
		t.Fatal(err)
	}
	if a := report.AutoApplied; a == nil || a.Reason != reconcile.ReasonDriftUndone ||
		!strings.Contains(a.Message, "undid the drift of tpf_thing.db.") || !strings.Contains(a.Message, "Left alone, as their configuration changed: tpf_thing.web.") {
		t.Fatalf("auto-apply: %+v", report.AutoApplied)
	}
	if got := p.readObject(p.cloudFile("tpf_thing", "web"))["description"]; got != "changed by hand" {
		t.Errorf("web's description is %v: the auto-apply applied a configuration change", got)
	}
	if got := p.readObject(p.cloudFile("tpf_thing", "db"))["description"]; got != nil {
		t.Errorf("db's description is %v: its drift was not undone", got)
	}
	if c := condition(t, p.instanceRecord(service, "tpf_thing.web")); c.GetType() != reconcile.ConditionDrifted {
		t.Errorf("web after the auto-apply: %s, want Drifted still", c.GetType())
	}
	if c := condition(t, p.instanceRecord(service, "tpf_thing.db")); c.GetType() != reconcile.ConditionInSync {
		t.Errorf("db after the auto-apply: %s (%s), want InSync", c.GetType(), c.GetMessage())
	}

	// With only web drifted, nothing is applied at all.
	p.editObject(p.cloudFile("tpf_thing", "web"), func(attrs map[string]any) { attrs["description"] = "changed again" })
	report, err = rec.ReconcileNow(t.Context(), "prod")
	if err != nil {
		t.Fatal(err)
	}
	if a := report.AutoApplied; a == nil || a.Reason != reconcile.ReasonConfigurationChanged || !strings.Contains(a.Message, "tpf_thing.web") {
		t.Fatalf("auto-apply with only a changed configuration drifted: %+v", report.AutoApplied)
	}
	if got := p.readObject(p.cloudFile("tpf_thing", "web"))["description"]; got != "changed again" {
		t.Errorf("web's description is %v", got)
	}
}
