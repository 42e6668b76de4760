package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
)

// planWith plans with variable values and returns the plan and its
// diagnostics, errors included.
func (h *harness) planWith(vars map[string]cty.Value) (*plans.Plan, diags.Diagnostics) {
	h.t.Helper()
	in := InputValues{}
	for name, v := range vars {
		in[name] = &InputValue{Value: v, SourceType: ValueFromCLIArg}
	}
	return h.engine(in).Plan(h.t.Context(), PlanOpts{})
}

func findDiag(ds diags.Diagnostics, summary string) *diags.Diagnostic {
	for i := range ds {
		if ds[i].Summary == summary {
			return &ds[i]
		}
	}
	return nil
}

// checkStatuses summarises plan.Checks as object address → status, and
// configuration address → aggregate status.
func checkStatuses(plan *plans.Plan) map[string]plans.CheckStatus {
	out := map[string]plans.CheckStatus{}
	for _, r := range plan.Checks {
		out["config "+r.ConfigAddr] = r.Status
		for _, o := range r.Objects {
			out[o.ObjectAddr] = o.Status
		}
	}
	return out
}

const preconditionConfig = `
variable "size" {
  type = number
}
resource "tpf_thing" "guarded" {
  name = "guarded"
  lifecycle {
    precondition {
      condition     = var.size > 1
      error_message = "The size must be more than one, not ${var.size}."
    }
  }
}
resource "tpf_thing" "free" {
  name = "free"
}
`

func TestResourcePreconditionFailureLeavesInstanceUnplanned(t *testing.T) {
	h := newHarness(t)
	h.config(preconditionConfig)

	plan, ds := h.planWith(map[string]cty.Value{"size": cty.NumberIntVal(1)})
	d := findDiag(ds, "Resource precondition failed")
	if d == nil {
		t.Fatalf("a false precondition gave no error; diagnostics: %v", ds)
	}
	if d.Detail != "The size must be more than one, not 1." || d.Subject == nil || !strings.HasSuffix(d.Subject.Filename, "main.tf") || d.Subject.Start.Line != 18 {
		t.Errorf("precondition error: detail %q at %v; want the error message at main.tf line 18", d.Detail, d.Subject)
	}
	got := actions(plan)
	if _, planned := got["tpf_thing.guarded"]; planned {
		t.Errorf("the instance whose precondition failed was planned: %v", got)
	}
	if got["tpf_thing.free"] != plans.Create {
		t.Errorf("an instance without conditions was not planned: %v", got)
	}
	if !plan.Errored || plan.CanApply() {
		t.Errorf("a plan with a failed precondition can be applied")
	}
	if st := checkStatuses(plan); st["tpf_thing.guarded"] != plans.CheckFail || st["config tpf_thing.guarded"] != plans.CheckFail {
		t.Errorf("check results %v; want tpf_thing.guarded failed", st)
	}

	plan, ds = h.planWith(map[string]cty.Value{"size": cty.NumberIntVal(2)})
	if ds.HasErrors() {
		t.Fatalf("a true precondition failed the plan: %s", ds.Err())
	}
	if actions(plan)["tpf_thing.guarded"] != plans.Create || checkStatuses(plan)["tpf_thing.guarded"] != plans.CheckPass {
		t.Errorf("with a true precondition: actions %v, checks %v", actions(plan), checkStatuses(plan))
	}
}

func TestPostconditionKnownAtPlanFailsThePlan(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "x" {
  name = "bad"
  lifecycle {
    postcondition {
      condition     = self.name != "bad"
      error_message = "The name ${self.name} is not allowed."
    }
  }
}
`)
	plan, ds := h.planWith(nil)
	if d := findDiag(ds, "Resource postcondition failed"); d == nil || d.Detail != "The name bad is not allowed." {
		t.Fatalf("plan diagnostics %v; want the postcondition failure", ds)
	}
	if plan.CanApply() {
		t.Errorf("a plan whose postcondition failed can be applied")
	}
}

func TestPostconditionUnknownAtPlanIsCheckedAfterApply(t *testing.T) {
	h := newHarness(t)
	h.config(`
resource "tpf_thing" "x" {
  name = "x"
  lifecycle {
    postcondition {
      condition     = self.revision > 1
      error_message = "Revision ${self.revision} is too young."
    }
  }
}
resource "tpf_thing" "after" {
  name = "after-${tpf_thing.x.id}"
}
`)
	plan, ds := h.planWith(nil)
	if ds.HasErrors() {
		t.Fatalf("a postcondition on values known only after apply failed the plan: %s", ds.Err())
	}
	if st := checkStatuses(plan); st["tpf_thing.x"] != plans.CheckUnknown {
		t.Fatalf("check results %v; want tpf_thing.x unknown", st)
	}
	ads := h.engine(nil).Apply(t.Context(), plan)
	d := findDiag(ads, "Resource postcondition failed")
	if d == nil || d.Detail != "Revision 1 is too young." {
		t.Fatalf("apply diagnostics %v; want the postcondition's failure", ads)
	}
	if got := h.instances(); !slices.Equal(got, []string{"tpf_thing.x"}) {
		t.Fatalf("after apply, state has %v; want only tpf_thing.x: the object is recorded, what depends on it is not created", got)
	}

	// Now known during planning: the plan itself fails, and says so.
	plan, ds = h.planWith(nil)
	if d := findDiag(ds, "Resource postcondition failed"); d == nil || d.Subject == nil || d.Subject.Start.Line != 15 {
		t.Fatalf("second plan diagnostics %v; want the postcondition failure at line 15", ds)
	}
	if st := checkStatuses(plan); st["tpf_thing.x"] != plans.CheckFail {
		t.Errorf("check results %v; want tpf_thing.x failed", st)
	}
}

func TestCheckResultsForOutputsChecksAndVariables(t *testing.T) {
	h := newHarness(t)
	h.config(`
variable "names" {
  type = list(string)
  validation {
    condition     = length(var.names) > 0
    error_message = "Give at least one name."
  }
}
resource "tpf_thing" "each" {
  for_each = toset(var.names)
  name     = each.key
  lifecycle {
    precondition {
      condition     = length(each.key) < 3
      error_message = "Name ${each.key} is too long."
    }
  }
}
output "ids" {
  value = var.names
  precondition {
    condition     = length(var.names) < 5
    error_message = "Too many names."
  }
}
check "nothing_named_b" {
  assert {
    condition     = !contains(var.names, "b")
    error_message = "b is taken."
  }
}
`)
	plan, ds := h.planWith(map[string]cty.Value{"names": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("ccc")})})
	want := map[string]plans.CheckStatus{
		"var.names": plans.CheckPass, "config var.names": plans.CheckPass,
		`tpf_thing.each["a"]`: plans.CheckPass, `tpf_thing.each["b"]`: plans.CheckPass, `tpf_thing.each["ccc"]`: plans.CheckFail,
		"config tpf_thing.each": plans.CheckFail,
		"output.ids":            plans.CheckPass, "config output.ids": plans.CheckPass,
		"check.nothing_named_b": plans.CheckFail, "config check.nothing_named_b": plans.CheckFail,
	}
	if got := checkStatuses(plan); !mapsEqual(got, want) {
		t.Errorf("check results:\n got %v\nwant %v", got, want)
	}
	if d := findDiag(ds, "Check block assertion failed"); d == nil || d.Severity != diags.Warning {
		t.Errorf("a failed check block assertion should warn; diagnostics: %v", ds)
	}

	_, ds = h.planWith(map[string]cty.Value{"names": cty.ListValEmpty(cty.String)})
	if d := findDiag(ds, "Invalid value for variable"); d == nil || !strings.HasPrefix(d.Detail, "Give at least one name.") {
		t.Errorf("a failed variable validation: diagnostics %v", ds)
	}
}
