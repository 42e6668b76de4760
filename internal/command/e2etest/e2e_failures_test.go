package e2etest

import (
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// failingConfig has two good instances and one, applied after them, whose
// provider call fails the given way.
func failingConfig(fail string) string {
	return lifecycleHeader + `
resource "tpf_thing" "good" {
  count = 2
  name  = "good-${count.index}"
}

resource "tpf_thing" "bad" {
  name        = "bad"
  description = "planned"
  fail        = "` + fail + `"
  depends_on  = [tpf_thing.good]
}
`
}

// TestE2EProviderFailures checks that a provider failing on one resource
// gets a diagnostic naming that resource and the failure, while everything
// that succeeded before it is recorded.
func TestE2EProviderFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fail string
		// planFails is true when the failure shows up while planning, so
		// nothing at all is applied.
		planFails bool
		summary   string
		// badRecorded is whether the failing instance ends up in the
		// records: a result that came back, even an inconsistent one, is
		// kept so the object is not forgotten, and a create that got no
		// answer stays recorded as an open intent.
		badRecorded bool
		// unfinished is true when the next plan must report the failing
		// instance's create as unfinished rather than plan it again.
		unfinished bool
	}{
		{fail: "apply_error", summary: "tpf_thing.bad"},
		{fail: "crash", summary: "Provider crashed", badRecorded: true, unfinished: true},
		{fail: "inconsistent_plan", planFails: true, summary: "Provider produced invalid plan"},
		{fail: "inconsistent_apply", summary: "Provider produced inconsistent result after apply", badRecorded: true},
	}
	for _, test := range tests {
		t.Run(test.fail, func(t *testing.T) {
			t.Parallel()
			p := newE2EProject(t, failingConfig(test.fail))
			out, errOut, code := p.run("apply", "-auto-approve", "-no-color")
			if code != 1 {
				t.Fatalf("apply with fail=%s: exit %d, want 1\n%s\n%s", test.fail, code, out, errOut)
			}
			clitest.AssertContains(t, "error output", errOut, test.summary, "tpf_thing.bad")
			if strings.Contains(errOut, "goroutine ") && test.fail != "crash" {
				t.Errorf("a Go panic reached the user:\n%s", errOut)
			}
			records := p.recordedInstances()
			wantGood := !test.planFails
			for _, addr := range []string{"tpf_thing.good[0]", "tpf_thing.good[1]"} {
				if slices.Contains(records, addr) != wantGood {
					t.Errorf("%s recorded = %v, want %v (records %v)", addr, !wantGood, wantGood, records)
				}
			}
			if slices.Contains(records, "tpf_thing.bad") != test.badRecorded {
				t.Errorf("tpf_thing.bad recorded = %v, want %v", !test.badRecorded, test.badRecorded)
			}
			if got := len(p.objects("tpf_thing")); !test.planFails && got < 2 {
				t.Errorf("the good objects were not created: %d objects", got)
			}
			if test.planFails {
				return
			}
			// The next plan proposes only what is left to do.
			p.write(strings.Replace(failingConfig(test.fail), `fail        = "`+test.fail+`"`, "", 1))
			if test.unfinished {
				_, errOut, code := p.run("plan", "-no-color")
				if code != 1 {
					t.Errorf("plan after a create without an answer: exit %d, want 1", code)
				}
				clitest.AssertContains(t, "plan after a create without an answer", errOut, "Unfinished create", "tpf_thing.bad", "import")
				return
			}
			out = p.mustRun("plan", "-no-color")
			if strings.Contains(out, "tpf_thing.good[0] will be created") {
				t.Errorf("a recorded object is planned again:\n%s", out)
			}
		})
	}
}
