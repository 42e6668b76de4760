package e2etest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

const refreshOnlyMovedConfig = lifecycleHeader + `
resource "tpf_thing" "b" {
  name = "a"
}

resource "tpf_thing" "still" {
  name = "still"
}

moved {
  from = tpf_thing.a
  to   = tpf_thing.b
}
`

// TestE2ERefreshOnlyPlanAppliesMoves checks a refresh-only plan against
// terraform 1.11 (OpenTofu's refresh-only mode is the same): moved blocks
// are applied, a move without drift is reported as drift of its own ("has
// moved to"), the plan's prior_state is the refreshed state at the new
// addresses, and applying the plan records the move and the refreshed
// values.
func TestE2ERefreshOnlyPlanAppliesMoves(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{"main.tf": lifecycleHeader + `
resource "tpf_thing" "a" {
  name = "a"
}

resource "tpf_thing" "still" {
  name = "still"
}
`})
	p.expectCode("apply", p.result("apply", "-no-color", "-auto-approve"), 0)
	p.writeFiles(map[string]string{"main.tf": refreshOnlyMovedConfig})
	p.editObject(p.objects("tpf_thing")["still"], func(attrs map[string]any) { attrs["description"] = "drifted" })
	res := p.result("plan", "-no-color", "-refresh-only", "-out=refresh.tfplan")
	p.expectCode("plan", res, 0)
	clitest.AssertContains(t, "plan", res.stdout, "# tpf_thing.a has moved to tpf_thing.b", "# tpf_thing.still has changed", `+ description = "drifted"`)

	got := priorStateSummary(t, p.result("show", "-json", "refresh.tfplan").stdout)
	want := map[string]any{"tpf_thing.b": nil, "tpf_thing.still": "drifted"}
	if len(got) != len(want) || got["tpf_thing.b"] != want["tpf_thing.b"] || got["tpf_thing.still"] != want["tpf_thing.still"] {
		t.Errorf("prior_state %v, want %v", got, want)
	}

	p.expectCode("apply", p.result("apply", "-no-color", "refresh.tfplan"), 0)
	if got := p.recordedInstances(); strings.Join(got, " ") != "tpf_thing.b tpf_thing.still" {
		t.Errorf("records after applying the refresh-only plan: %v", got)
	}
	res = p.result("plan", "-no-color", "-refresh=false")
	clitest.AssertContains(t, "plan from the refreshed records", res.stdout, `- description = "drifted" -> null`)
}

// priorStateSummary maps each managed resource of a plan's prior_state to
// its description.
func priorStateSummary(t *testing.T, doc string) map[string]any {
	t.Helper()
	var plan struct {
		PriorState struct {
			Values struct {
				RootModule struct {
					Resources []struct {
						Address string         `json:"address"`
						Values  map[string]any `json:"values"`
					} `json:"resources"`
				} `json:"root_module"`
			} `json:"values"`
		} `json:"prior_state"`
	}
	if err := json.Unmarshal([]byte(doc), &plan); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	out := map[string]any{}
	for _, r := range plan.PriorState.Values.RootModule.Resources {
		out[r.Address] = r.Values["description"]
	}
	return out
}

// TestE2EApplySavedPlanWithoutChanges checks that a saved plan that changes
// nothing is applied, its check evaluated and its outputs shown, as
// terraform 1.11 and OpenTofu do, instead of being refused.
func TestE2EApplySavedPlanWithoutChanges(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{"main.tf": `
variable "greeting" {
  default = "hello"
}

output "greeting" {
  value = var.greeting
}

check "polite" {
  assert {
    condition     = var.greeting == "good morning"
    error_message = "not polite enough"
  }
}
`})
	p.expectCode("apply", p.result("apply", "-no-color", "-auto-approve"), 0)
	p.expectCode("plan", p.result("plan", "-no-color", "-out=nothing.tfplan"), 0)
	res := p.result("apply", "-no-color", "nothing.tfplan")
	p.expectCode("apply of a plan without changes", res, 0)
	clitest.AssertContains(t, "apply", res.stdout+res.stderr, "Apply complete! Resources: 0 added, 0 changed, 0 destroyed.",
		`greeting = "hello"`, "Warning: Check block assertion failed", "not polite enough")
}

// TestE2EPlanOptionsThatMatchNothing checks two plan options that would
// otherwise do nothing without a word, against terraform 1.11 (OpenTofu
// words them the same): -replace with a resource address whose instances
// have keys warns "Incompletely-matched force-replace resource instance"
// and lists the -replace options that would work, and -target leaving out
// an end of a pending move is refused with "Moved resource instances
// excluded by targeting".
func TestE2EPlanOptionsThatMatchNothing(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{"main.tf": lifecycleHeader + `
resource "tpf_thing" "other" {
  name = "other"
}

resource "tpf_thing" "cnt" {
  count = 2
  name  = "cnt${count.index}"
}
`})
	p.expectCode("apply", p.result("apply", "-no-color", "-auto-approve"), 0)
	res := p.result("plan", "-no-color", "-replace=tpf_thing.cnt")
	p.expectCode("plan -replace", res, 0)
	clitest.AssertContains(t, "plan -replace", res.stdout+res.stderr, "Incompletely-matched force-replace resource instance",
		`-replace="tpf_thing.cnt[0]"`, `-replace="tpf_thing.cnt[1]"`)

	p.writeFiles(map[string]string{"main.tf": lifecycleHeader + `
resource "tpf_thing" "other" {
  name = "other"
}

resource "tpf_thing" "cnt" {
  for_each = toset(["x", "y"])
  name     = each.key == "x" ? "cnt0" : "cnt1"
}

moved {
  from = tpf_thing.cnt[0]
  to   = tpf_thing.cnt["x"]
}

moved {
  from = tpf_thing.cnt[1]
  to   = tpf_thing.cnt["y"]
}
`})
	res = p.result("plan", "-no-color", "-target=tpf_thing.other")
	p.expectCode("plan -target", res, 1)
	clitest.AssertContains(t, "plan -target", res.stderr, "Moved resource instances excluded by targeting", `-target="tpf_thing.cnt"`)
	p.expectCode("plan -target with both ends", p.result("plan", "-no-color", "-target=tpf_thing.cnt"), 0)
}
