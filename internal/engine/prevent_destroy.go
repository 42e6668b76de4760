package engine

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
)

// checkPreventDestroy evaluates a resource's prevent_destroy for the change
// a plan recorded for one of its instances, as OpenTofu 1.12 does: the
// expression may refer to variables, locals and other objects, but not to
// count or each (an instance on its way out has neither); its value must be
// a bool that is known, not null and not sensitive when the change
// destroys the object, and true refuses that change.
func (w *walker) checkPreventDestroy(work *resourceWork, addr addrs.AbsResourceInstance, action plans.Action) diags.Diagnostics {
	m := work.v.resource.Managed
	if m == nil || m.PreventDestroy == nil {
		return nil
	}
	expr := m.PreventDestroy
	refs, _ := lang.ReferencesInExpr(expr)
	var ds diags.Diagnostics
	for _, ref := range refs {
		switch ref.Subject.(type) {
		case addrs.CountAttr, addrs.ForEachAttr:
			ds = ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid reference in prevent_destroy",
				Detail: fmt.Sprintf("A prevent_destroy argument cannot refer to %s, because Terrane needs to evaluate this argument for instances that have already been removed from the configuration and so whose per-instance data is no longer available.",
					ref.Subject.String()),
				Subject: ref.SourceRange.Ptr()})
		}
	}
	if ds.HasErrors() {
		return ds
	}
	val, ctx, hd := w.scopeIn(work.v.module, addr.Module, repetition{}, nil).EvalExprIn(expr, cty.DynamicPseudoType)
	if ds = ds.Append(hd); hd.HasErrors() {
		return ds
	}
	invalid := func(detail string) diags.Diagnostics {
		return ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for prevent_destroy", Detail: detail, Subject: expr.Range().Ptr(),
			Expression: expr, EvalContext: ctx})
	}
	val, err := convert.Convert(val, cty.Bool)
	if err != nil {
		return invalid(fmt.Sprintf("Resource instance %s has an invalid value for its prevent_destroy argument: %s.", addr, err))
	}
	sensitive, ephemeral := marks.Contains(val, marks.Sensitive), marks.Contains(val, marks.Ephemeral)
	val, _ = val.UnmarkDeep()
	switch {
	case sensitive:
		return invalid(fmt.Sprintf("Resource instance %s has a sensitive value for its prevent_destroy argument, which is invalid because it would cause Terrane to disclose the sensitive value by whether deletion is blocked.\n\nIf you know this value is not sensitive in practice, consider using the nonsensitive function to declare that.", addr))
	case ephemeral:
		return invalid(fmt.Sprintf("Resource instance %s has an ephemeral value for its prevent_destroy argument, which is invalid because the decision for whether it's okay to destroy instances of this resource instance must stay consistent between plan and apply.", addr))
	}
	if action != plans.Delete && !action.IsReplace() {
		// Not destroying: a value that cannot be right in any case was
		// refused above; the rest may be right by the time it destroys.
		return ds
	}
	switch {
	case !val.IsKnown():
		return invalid(fmt.Sprintf("Resource instance %s has a prevent_destroy argument but its value will not be known until the apply step, so Terrane can't predict whether destroying this is acceptable.\n\nTo proceed, exclude instances of this resource from this round using:\n    -exclude=%q", addr, addr.ContainingResource().String()))
	case val.IsNull():
		return invalid(fmt.Sprintf("Resource instance %s has prevent_destroy set to null. When making a dynamic decision to allow destroy, use false instead.", addr))
	case val.True():
		return ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Resource instance cannot be destroyed",
			Detail: fmt.Sprintf("Resource instance %s has prevent_destroy set, but the plan calls for it to be destroyed.\n\nTo proceed, either disable prevent_destroy for this resource or exclude instances of this resource from this round using:\n    -exclude=%q",
				addr, addr.ContainingResource().String()),
			Subject: work.v.resource.DeclRange.Ptr()})
	}
	return ds
}
