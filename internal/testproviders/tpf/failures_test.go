package tpf

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestFailureSwitches(t *testing.T) {
	tests := []struct {
		fail string
		// check inspects the outcome of one create (plan then apply).
		check func(t *testing.T, h *harness, plan *tfprotov6.PlanResourceChangeResponse, planned tftypes.Value, apply *tfprotov6.ApplyResourceChangeResponse, result applied)
	}{
		{failPlanError, func(t *testing.T, _ *harness, plan *tfprotov6.PlanResourceChangeResponse, _ tftypes.Value, _ *tfprotov6.ApplyResourceChangeResponse, _ applied) {
			if !strings.Contains(errorText(plan.Diagnostics), "Plan failed on request") {
				t.Errorf("plan diagnostics = %q", errorText(plan.Diagnostics))
			}
		}},
		{failInconsistentPlan, func(t *testing.T, _ *harness, plan *tfprotov6.PlanResourceChangeResponse, planned tftypes.Value, _ *tfprotov6.ApplyResourceChangeResponse, _ applied) {
			if got := attrString(t, planned, "description"); got != "d (altered by plan)" {
				t.Errorf("planned description = %q, want it altered", got)
			}
		}},
		{failApplyError, func(t *testing.T, h *harness, _ *tfprotov6.PlanResourceChangeResponse, _ tftypes.Value, apply *tfprotov6.ApplyResourceChangeResponse, _ applied) {
			if !strings.Contains(errorText(apply.Diagnostics), "Apply failed on request") {
				t.Errorf("apply diagnostics = %q", errorText(apply.Diagnostics))
			}
			if ids, _ := h.cloud.List("tpf_thing"); len(ids) != 0 {
				t.Errorf("failed apply wrote objects %v", ids)
			}
		}},
		{failInconsistentApply, func(t *testing.T, h *harness, _ *tfprotov6.PlanResourceChangeResponse, planned tftypes.Value, apply *tfprotov6.ApplyResourceChangeResponse, result applied) {
			requireNoErrors(t, "ApplyResourceChange", apply.Diagnostics)
			if got := attrString(t, result.state, "description"); got != "d (altered by apply)" {
				t.Errorf("applied description = %q, planned %q", got, attrString(t, planned, "description"))
			}
		}},
	}
	for _, test := range tests {
		t.Run(test.fail, func(t *testing.T) {
			h := newHarness(t)
			s := h.resourceSchema("tpf_thing")
			null := applied{state: tftypes.NewValue(s.ValueType(), nil)}
			config := h.object(s, map[string]tftypes.Value{"name": str("x"), "description": str("d"), "fail": str(test.fail)})
			plan, planned := h.plan("tpf_thing", null, config)
			var apply *tfprotov6.ApplyResourceChangeResponse
			var result applied
			if errorText(plan.Diagnostics) == "" {
				apply, result = h.apply("tpf_thing", null, planned, config, plan.PlannedPrivate)
			}
			test.check(t, h, plan, planned, apply, result)
		})
	}
}

func TestFailureSwitchesOnExistingObject(t *testing.T) {
	for _, fail := range []string{failReadError, failDeleteError} {
		t.Run(fail, func(t *testing.T) {
			h := newHarness(t)
			s := h.resourceSchema("tpf_thing")
			created := h.planApply("tpf_thing", applied{state: tftypes.NewValue(s.ValueType(), nil)}, map[string]tftypes.Value{
				"name": str("x"), "fail": str(fail),
			})
			var diags []*tfprotov6.Diagnostic
			if fail == failReadError {
				resp, _ := h.read("tpf_thing", created)
				diags = resp.Diagnostics
			} else {
				null := tftypes.NewValue(s.ValueType(), nil)
				resp, _ := h.apply("tpf_thing", created, null, null, created.private)
				diags = resp.Diagnostics
			}
			if !strings.Contains(errorText(diags), "failed on request") {
				t.Errorf("diagnostics = %q, want a requested failure", errorText(diags))
			}
		})
	}
}

func TestCrashSwitchPanics(t *testing.T) {
	h := newHarness(t)
	s := h.resourceSchema("tpf_thing")
	null := applied{state: tftypes.NewValue(s.ValueType(), nil)}
	config := h.object(s, map[string]tftypes.Value{"name": str("x"), "fail": str(failApplyCrash)})
	plan, planned := h.plan("tpf_thing", null, config)
	requireNoErrors(t, "PlanResourceChange", plan.Diagnostics)
	defer func() {
		if recover() == nil {
			t.Error(`fail = "crash" did not panic during apply`)
		}
	}()
	h.apply("tpf_thing", null, planned, config, plan.PlannedPrivate)
}

func TestHangSwitchBlocksUntilCancelled(t *testing.T) {
	h := newHarness(t)
	s := h.resourceSchema("tpf_thing")
	null := applied{state: tftypes.NewValue(s.ValueType(), nil)}
	config := h.object(s, map[string]tftypes.Value{"name": str("x"), "fail": str(failApplyHang)})
	plan, planned := h.plan("tpf_thing", null, config)
	requireNoErrors(t, "PlanResourceChange", plan.Diagnostics)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	h.ctx = ctx
	start := time.Now()
	resp, _ := h.apply("tpf_thing", null, planned, config, plan.PlannedPrivate)
	if elapsed := time.Since(start); elapsed < 150*time.Millisecond {
		t.Errorf("hang returned after %v, before the call was cancelled", elapsed)
	}
	if !strings.Contains(errorText(resp.Diagnostics), "cancelled") {
		t.Errorf("diagnostics = %q", errorText(resp.Diagnostics))
	}
}
