package tpf

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The values of the "fail" attribute. Each provokes one misbehaviour so the
// host's handling of it can be tested against a real provider process.
const (
	failPlanError         = "plan_error"         // PlanResourceChange returns an error diagnostic
	failPlanCrash         = "crash_plan"         // the process panics inside PlanResourceChange
	failPlanHang          = "hang_plan"          // PlanResourceChange blocks until the call is cancelled
	failInconsistentPlan  = "inconsistent_plan"  // the planned description differs from the configured one
	failApplyError        = "apply_error"        // ApplyResourceChange returns an error diagnostic
	failApplyCrash        = "crash"              // the process panics inside ApplyResourceChange
	failApplyHang         = "hang"               // ApplyResourceChange blocks until the call is cancelled
	failApplySlow         = "slow"               // ApplyResourceChange takes slowApply, then succeeds
	failInconsistentApply = "inconsistent_apply" // the new description differs from the planned one
	failReadError         = "read_error"         // ReadResource returns an error diagnostic
	failReadHang          = "hang_read"          // ReadResource blocks until the call is cancelled
	failDeleteError       = "delete_error"       // destroying returns an error diagnostic
)

var failValues = []string{
	failPlanError, failPlanCrash, failPlanHang, failInconsistentPlan,
	failApplyError, failApplyCrash, failApplyHang, failApplySlow, failInconsistentApply,
	failReadError, failReadHang, failDeleteError,
}

var (
	failPath        = path.Root("fail")
	descriptionPath = path.Root("description")
)

type attributeGetter interface {
	GetAttribute(context.Context, path.Path, any) diag.Diagnostics
}

// failSwitch returns the resource's "fail" attribute, or "" when the
// resource has none or it is null or unknown.
func (r *cloudResource) failSwitch(ctx context.Context, data attributeGetter) string {
	if _, ok := r.schema.Attributes["fail"]; !ok {
		return ""
	}
	var fail types.String
	if diags := data.GetAttribute(ctx, failPath, &fail); diags.HasError() {
		return ""
	}
	return fail.ValueString()
}

// applyFailure acts out the apply-time switches. It reports true when the
// call must stop.
func applyFailure(ctx context.Context, fail string, diags *diag.Diagnostics) bool {
	switch fail {
	case failApplyError:
		diags.AddAttributeError(failPath, "Apply failed on request", `The resource has fail = "apply_error".`)
		return true
	case failApplyCrash:
		panic(`test provider crash requested by fail = "crash"`)
	case failApplyHang:
		return hang(ctx, diags)
	case failApplySlow:
		select {
		case <-time.After(slowApply):
		case <-ctx.Done():
			diags.AddError("Call cancelled while slow", ctx.Err().Error())
			return true
		}
	}
	return false
}

// slowApply is how long an apply with fail = "slow" takes: long enough for
// a test to take the host's state store away while the call runs.
const slowApply = 3 * time.Second

// planFailure acts out the plan-time switches on a planned new state.
func planFailure(ctx context.Context, fail string, plan *tfsdk.Plan, diags *diag.Diagnostics) {
	switch fail {
	case failPlanError:
		diags.AddAttributeError(failPath, "Plan failed on request", `The resource has fail = "plan_error".`)
	case failPlanCrash:
		panic(`test provider crash requested by fail = "crash_plan"`)
	case failPlanHang:
		hang(ctx, diags)
	case failInconsistentPlan:
		var description types.String
		diags.Append(plan.GetAttribute(ctx, descriptionPath, &description)...)
		diags.Append(plan.SetAttribute(ctx, descriptionPath, description.ValueString()+" (altered by plan)")...)
	}
}

// breakConsistencyOnApply makes the new state differ from the plan in a
// non-computed attribute when asked, which the host must reject.
func breakConsistencyOnApply(ctx context.Context, fail string, state *tfsdk.State, diags *diag.Diagnostics) {
	if fail != failInconsistentApply {
		return
	}
	var description types.String
	diags.Append(state.GetAttribute(ctx, descriptionPath, &description)...)
	diags.Append(state.SetAttribute(ctx, descriptionPath, description.ValueString()+" (altered by apply)")...)
}

// hang blocks until the host cancels the call (or kills the process), the
// way a provider stuck on an unresponsive API behaves.
func hang(ctx context.Context, diags *diag.Diagnostics) bool {
	<-ctx.Done()
	diags.AddError("Call cancelled while hanging", ctx.Err().Error())
	return true
}

type privateEntry struct {
	Owner string `json:"owner"`
	ID    string `json:"id"`
}

func privateValue(typeName, id string) []byte {
	data, _ := json.Marshal(privateEntry{Owner: typeName, ID: id})
	return data
}

type privateGetter interface {
	GetKey(context.Context, string) ([]byte, diag.Diagnostics)
}

// checkPrivate fails an update whose request lacks the private state the
// provider returned earlier: the protocol requires the host to hand it back.
func checkPrivate(ctx context.Context, private privateGetter, key, typeName, id string, diags *diag.Diagnostics) {
	var data []byte
	if private != nil {
		var getDiags diag.Diagnostics
		data, getDiags = private.GetKey(ctx, key)
		diags.Append(getDiags...)
	}
	var entry privateEntry
	if len(data) == 0 || json.Unmarshal(data, &entry) != nil || entry.ID != id {
		diags.AddError("Private state lost",
			fmt.Sprintf("%s %q: the update request does not carry the private state key %q the provider returned earlier (got %q).", typeName, id, key, data))
	}
}
