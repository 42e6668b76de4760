package reconcile_test

import (
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/reconcile"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/testing/sharedstore"
	"github.com/terrane/terrane/internal/workdir"
	"github.com/terrane/terrane/proto/pbresource"
)

// A workspace whose configuration no longer loads and one whose provider
// hangs each get a Failed condition, and the workspace beside them is
// still refreshed.
func TestBrokenWorkspacesFailAloneAndOthersGoOn(t *testing.T) {
	l := newLab(t)
	good := l.project("good", `resource "tpf_thing" "a" { name = "a" }`)
	broken := l.project("broken", `resource "tpf_thing" "b" { name = "b" }`)
	hanging := l.project("hanging", `
resource "tpf_thing" "slow" {
  name = "slow"
  fail = "hang_read"
}
resource "tpf_thing" "fine" { name = "fine" }
`)
	for _, p := range []*project{good, broken, hanging} {
		p.mustRun("apply", "-auto-approve")
	}
	broken.write(`resource "tpf_thing" "b" { name = `)

	service := good.service()
	rec, err := reconcile.New(service, reconcile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*project{good, broken, hanging} {
		ws := p.workspace(p.name)
		ws.Timeout = 5 * time.Second
		if err := rec.Register(ws); err != nil {
			t.Fatal(err)
		}
	}
	reports := map[string]reconcile.Report{}
	for _, name := range []string{"broken", "hanging", "good"} {
		report, err := rec.ReconcileNow(t.Context(), name)
		if err != nil {
			t.Fatal(err)
		}
		reports[name] = report
	}

	if f := reports["broken"].Failure; f == nil || f.Reason != reconcile.ReasonConfigurationInvalid || !strings.Contains(f.Message, "main.tf") {
		t.Errorf("broken: failure %+v, want ConfigurationInvalid naming main.tf", f)
	}
	if c := workspaceCondition(t, service, broken, reconcile.ConditionReconciled); c.GetState() != pbresource.Condition_STATE_FALSE || c.GetReason() != reconcile.ReasonConfigurationInvalid {
		t.Errorf("broken workspace condition: %v", c)
	}

	if f := reports["hanging"].Failure; f == nil || f.Reason != reconcile.ReasonRunTimeout {
		t.Errorf("hanging: failure %+v, want RunTimeout", f)
	}
	if c := condition(t, hanging.instanceRecord(service, "tpf_thing.slow")); c.GetType() != reconcile.ConditionFailed || c.GetReason() != reconcile.ReasonProviderTimeout {
		t.Errorf("slow: %s/%s (%s), want Failed/ProviderTimeout", c.GetType(), c.GetReason(), c.GetMessage())
	}
	if c := condition(t, hanging.instanceRecord(service, "tpf_thing.fine")); c.GetType() == reconcile.ConditionDrifted || c.GetType() == reconcile.ConditionMissing {
		t.Errorf("fine: %s, want InSync or Failed", c.GetType())
	}

	if r := reports["good"]; r.Failure != nil || r.Tally.InSync != 1 {
		t.Errorf("good: %+v", r)
	}
	if c := condition(t, good.instanceRecord(service, "tpf_thing.a")); c.GetType() != reconcile.ConditionInSync {
		t.Errorf("a: %s", c.GetType())
	}
}

func workspaceCondition(t *testing.T, service *resourceservice.Service, p *project, kind string) *pbresource.Condition {
	t.Helper()
	res, err := service.Read(t.Context(), store.StrongConsistency, records.WorkspaceID(workdir.DefaultProject, p.name))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.GetStatus()[reconcile.StatusKey].GetConditions() {
		if c.GetType() == kind {
			return c
		}
	}
	t.Fatalf("workspace %s has no %s condition: %v", p.name, kind, res.GetStatus())
	return nil
}

// While the store is down the run reports StoreUnavailable; once it is
// back the next run records the state of things.
func TestStoreOutageIsReportedAndRiddenOut(t *testing.T) {
	etcd := sharedstore.Etcd(t)
	etcd.Setenv(t)
	l := newEnvLab(t)
	p := l.project("prod", `resource "tpf_thing" "a" { name = "a" }`)
	p.mustRun("apply", "-auto-approve")
	service := p.service()
	rec, err := reconcile.New(service, reconcile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws := p.workspace("prod")
	ws.Timeout = 3 * time.Second
	if err := rec.Register(ws); err != nil {
		t.Fatal(err)
	}
	etcd.Etcd.Stop()
	report, err := rec.ReconcileNow(t.Context(), "prod")
	if err != nil {
		t.Fatal(err)
	}
	if report.Failure == nil || report.Failure.Reason != reconcile.ReasonStoreUnavailable {
		t.Fatalf("with the store down: %+v", report.Failure)
	}
	if reports := rec.Reports(); len(reports) != 1 || reports[0].Failure == nil {
		t.Errorf("the reconciler's own view lost the failure: %+v", reports)
	}
	etcd.Etcd.Restart(t)
	deadline := time.Now().Add(30 * time.Second)
	for {
		report, err = rec.ReconcileNow(t.Context(), "prod")
		if err != nil {
			t.Fatal(err)
		}
		if report.Failure == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if report.Failure != nil || report.Tally.InSync != 1 {
		t.Fatalf("after the store came back: %+v", report)
	}
	if c := condition(t, p.instanceRecord(service, "tpf_thing.a")); c.GetType() != reconcile.ConditionInSync {
		t.Errorf("a: %s", c.GetType())
	}
}
