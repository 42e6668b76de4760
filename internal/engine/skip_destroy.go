package engine

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
)

// OpenTofu's lifecycle destroy = false: objects of such a resource are
// forgotten (removed from state, left to exist) where a plan would destroy
// them, and replaced by forgetting the old object and creating a new one.
// The setting is recorded with each object (skip_destroy), so an object
// whose resource left the configuration is forgotten too.

// skipDestroyOf is the resource's lifecycle destroy = false; a value that
// is not a bool constant was reported when planning.
func skipDestroyOf(work *resourceWork) bool {
	skip, _ := work.v.resource.Managed.SkipDestroy()
	return skip
}

// skipDestroy evaluates the resource's lifecycle destroy for a plan.
func skipDestroy(managed *config.ManagedResource) (bool, diags.Diagnostics) {
	skip, hd := managed.SkipDestroy()
	return skip, diags.Diagnostics{}.Append(hd)
}

// forgetReason says why a plan forgets an object rather than destroying
// it, and whether it does: the configuration says lifecycle destroy =
// false, or the object was recorded with it.
func forgetReason(configSkip, recordedSkip bool) (plans.ActionReason, bool) {
	switch {
	case configSkip:
		return plans.ForgotBecauseLifecycleDestroyInConfig, true
	case recordedSkip:
		return plans.ForgotBecauseLifecycleDestroyInState, true
	}
	return plans.ReasonNone, false
}

// planForget records the forgetting of an object a plan would otherwise
// destroy.
func (w *walker) planForget(p *configuredProvider, types plans.ObjectTypes, addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, r *refreshed, reason plans.ActionReason) diags.Diagnostics {
	change := &plans.ResourceInstanceChange{
		ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr, DeposedKey: deposed,
			ProviderAddr: p.instanceAddr(), ActionReason: reason, Private: r.current.Private},
		Change: plans.Change{Action: plans.Forget, Before: r.current.Value, After: cty.NullVal(types.Value),
			BeforeIdentity: identityOrNil(r.identity, types.Identity), AfterIdentity: identityOrNil(cty.NilVal, types.Identity)},
	}
	return w.addChange(change, types, r.encoded...)
}

// leavesManagementWarning is OpenTofu's warning for an object forgotten
// because its resource is gone or it is deposed.
func leavesManagementWarning(addr addrs.AbsResourceInstance) diags.Diagnostic {
	return diags.Diagnostic{Severity: diags.Warning, Summary: "Resource will be removed from the state", Sourceless: true,
		Detail: fmt.Sprintf("After this plan is applied, the resource %s will not be managed anymore by Terrane.\n\nIn case you want to manage the resource again, you will have to import it.", addr)}
}
