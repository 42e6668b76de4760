package reconcile_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/command"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/reconcile"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// An apply runs while the reconciler refreshes the same workspace over and
// over: the apply succeeds (status writes never stop it), the instance it
// holds an intent on is left to it, and afterwards every instance is
// InSync at its new Generation.
func TestApplyWinsOverTheReconciler(t *testing.T) {
	p := newProject(t, `
resource "tpf_thing" "slow" {
  name        = "slow"
  description = "v1"
}
resource "tpf_thing" "quick" {
  name        = "quick"
  description = "v1"
}
`)
	p.mustRun("apply", "-auto-approve")
	service := p.service()
	rec, err := reconcile.New(service, reconcile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws := p.workspace("prod")
	ws.Interval = 50 * time.Millisecond
	if err := rec.Register(ws); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	var running sync.WaitGroup
	running.Add(1)
	go func() { defer running.Done(); rec.Run(ctx) }()
	defer func() { stop(); running.Wait() }()

	p.write(`
resource "tpf_thing" "slow" {
  name        = "slow"
  description = "v2"
  fail        = "slow"
}
resource "tpf_thing" "quick" {
  name        = "quick"
  description = "v2"
}
`)
	applied := make(chan string, 1)
	go func() {
		var out strings.Builder
		code := command.Run([]string{"-chdir=" + p.dir, "apply", "-auto-approve"}, views.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out})
		if code != 0 {
			applied <- out.String()
			return
		}
		applied <- ""
	}()

	// Once the apply holds an intent on the slow instance, a reconciler
	// run leaves that instance alone.
	claimedSeen := false
	deadline := time.Now().Add(60 * time.Second)
	for !claimedSeen && time.Now().Before(deadline) {
		var inst recordsv1.ResourceInstance
		if err := p.instanceRecord(service, "tpf_thing.slow").GetData().UnmarshalTo(&inst); err != nil {
			t.Fatal(err)
		}
		if inst.GetIntent() == nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		report, err := rec.ReconcileNow(t.Context(), "prod")
		if err != nil {
			t.Fatal(err)
		}
		claimedSeen = report.Tally.Claimed > 0
	}
	if out := <-applied; out != "" {
		t.Fatalf("the apply failed while the reconciler ran:\n%s", out)
	}
	if !claimedSeen {
		t.Error("no reconciler run reported the instance the apply was changing as left to it")
	}
	report, err := rec.ReconcileNow(t.Context(), "prod")
	if err != nil {
		t.Fatal(err)
	}
	if report.Tally.InSync != 2 {
		t.Fatalf("after the apply: %+v", report)
	}
	for _, addr := range []string{"tpf_thing.slow", "tpf_thing.quick"} {
		if c := condition(t, p.instanceRecord(service, addr)); c.GetType() != reconcile.ConditionInSync {
			t.Errorf("%s: %s (%s)", addr, c.GetType(), c.GetMessage())
		}
	}
}
