package e2etest

import (
	"slices"
	"strings"
	"testing"
)

const concurrencyConfig = lifecycleHeader + `
variable "suffix" {
  type    = string
  default = ""
}

resource "tpf_thing" "a" {
  name        = "a"
  description = "a${var.suffix}"
}

resource "tpf_thing" "b" {
  name        = "b"
  description = "b${var.suffix}"
}
`

// TestE2EProcesses runs the terrane binary as users do: several processes
// at once on one embedded store, and interrupted with Ctrl-C.
func TestE2EProcesses(t *testing.T) {
	t.Parallel()
	t.Run("disjoint applies", func(t *testing.T) { t.Parallel(); testDisjointApplies(t) })
	t.Run("conflicting applies", func(t *testing.T) { t.Parallel(); testConflictingApplies(t) })
	t.Run("interrupt", func(t *testing.T) { t.Parallel(); testInterrupt(t) })
}

// testDisjointApplies runs two applies at once, each targeting its own
// resource: both must succeed.
func testDisjointApplies(t *testing.T) {
	p := newE2EProject(t, concurrencyConfig)
	results := runProcesses(t, p,
		[]string{"apply", "-auto-approve", "-no-color", "-target=tpf_thing.a"},
		[]string{"apply", "-auto-approve", "-no-color", "-target=tpf_thing.b"})
	for _, r := range results {
		if r.code != 0 {
			t.Errorf("terrane %s: exit %d\n%s\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
		}
	}
	if got := strings.Join(p.recordedInstances(), " "); got != "tpf_thing.a tpf_thing.b" {
		t.Errorf("records after disjoint applies: %s", got)
	}
	if got := strings.Join(sortedNames(p.objects("tpf_thing")), " "); got != "a b" {
		t.Errorf("cloud after disjoint applies: %s", got)
	}
}

// testConflictingApplies applies two saved plans that update the same
// resource from the same records at once: exactly one may win, and the
// other must name the resource.
func testConflictingApplies(t *testing.T) {
	p := newE2EProject(t, concurrencyConfig)
	p.mustRun("apply", "-auto-approve")
	// Two plans made from the same records both update tpf_thing.a; applied
	// at once, only one may win.
	p.mustRun("plan", "-var=suffix=-one", "-target=tpf_thing.a", "-out=one.tfplan")
	p.mustRun("plan", "-var=suffix=-two", "-target=tpf_thing.a", "-out=two.tfplan")
	results := runProcesses(t, p,
		[]string{"apply", "-no-color", "one.tfplan"},
		[]string{"apply", "-no-color", "two.tfplan"})
	var winners, losers []processResult
	for _, r := range results {
		if r.code == 0 {
			winners = append(winners, r)
		} else {
			losers = append(losers, r)
		}
	}
	if len(winners) != 1 || len(losers) != 1 {
		t.Fatalf("want exactly one apply to succeed, got %d successes:\n%+v", len(winners), results)
	}
	// The loser finds out before applying (OpenTofu's words for a plan
	// whose records changed since it was made) or while applying, at the
	// instance the other run changed.
	if lost := losers[0].stderr; !strings.Contains(lost, "Saved plan is stale") && !strings.Contains(lost, "tpf_thing.a was changed in the store by another run") {
		t.Errorf("the losing apply does not say its plan is stale or which instance changed:\n%s", lost)
	}
	winner := "a-one"
	if winners[0].args[2] == "two.tfplan" {
		winner = "a-two"
	}
	if got := p.objects("tpf_thing")["a"].attrs["description"]; got != winner {
		t.Errorf("cloud holds description %v, want the winner's %q", got, winner)
	}
	if !slices.Equal(p.recordedInstances(), []string{"tpf_thing.a", "tpf_thing.b"}) {
		t.Errorf("records after the conflict: %v", p.recordedInstances())
	}
}
