package reconcile_test

import (
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/reconcile"
)

// A provider_limit is one budget of reads shared by every workspace: with
// a burst of one read and the next allowed only after 100 s, the first
// workspace's first read spends it, and every other read of either
// workspace fails at once (its 30 s run would end before the wait) with a
// Failed condition naming the limit, instead of reading.
func TestProviderLimitIsSharedAcrossWorkspaces(t *testing.T) {
	l := newLab(t)
	pair := `
resource "tpf_thing" "a" { name = "a" }
resource "tpf_thing" "b" { name = "b" }
`
	first, second := l.project("first", pair), l.project("second", pair)
	first.mustRun("apply", "-auto-approve")
	second.mustRun("apply", "-auto-approve")
	service := first.service()
	rec, err := reconcile.New(service, reconcile.Options{Limits: []reconcile.ProviderLimit{
		{Provider: "terrane/tpf", ReadsPerSecond: 0.01, Burst: 1},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*project{first, second} {
		ws := p.workspace(p.name)
		ws.Timeout = 30 * time.Second
		if err := rec.Register(ws); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][2]int{"first": {1, 1}, "second": {0, 2}} // InSync, Failed
	for _, p := range []*project{first, second} {
		report, err := rec.ReconcileNow(t.Context(), p.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := [2]int{report.Tally.InSync, report.Tally.Failed}; got != want[p.name] {
			t.Errorf("%s: %d in sync and %d failed, want %v", p.name, got[0], got[1], want[p.name])
		}
		for _, addr := range []string{"tpf_thing.a", "tpf_thing.b"} {
			c := condition(t, p.instanceRecord(service, addr))
			if c.GetType() == reconcile.ConditionFailed && !strings.Contains(c.GetMessage(), "read rate limit of registry.terraform.io/terrane/tpf") {
				t.Errorf("%s %s: Failed with %q, which does not name the limit", p.name, addr, c.GetMessage())
			}
		}
	}
}
