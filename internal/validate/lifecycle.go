package validate

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/schema"
)

// validateLifecycle checks a managed resource's lifecycle arguments
// against the schemas, as OpenTofu's validate walk does: ignore_changes
// must name attributes of the resource type, replace_triggered_by must
// name resources declared in the module and attributes their types have,
// and a prevent_destroy that refers to nothing must be a bool.
func (m *moduleValidator) validateLifecycle(r *config.Resource, block *schema.Block) hcl.Diagnostics {
	if r.Managed == nil || r.Mode != addrs.ManagedResourceMode {
		return nil
	}
	addr := addrs.ConfigResource{Module: m.cfg.Path, Resource: r.Addr()}
	diags := block.ValidateIgnoreChanges(r.Managed.IgnoreChanges, r.TypeRange)
	diags = append(diags, m.validateTriggers(r, addr)...)
	return append(diags, validatePreventDestroyConstant(r, addr)...)
}

// validateTriggers checks that each replace_triggered_by element names a
// resource of its module, and only attributes that resource's type has.
func (m *moduleValidator) validateTriggers(r *config.Resource, addr addrs.ConfigResource) hcl.Diagnostics {
	var diags hcl.Diagnostics
	key := addrs.InstanceKey(nil)
	switch {
	case r.Count != nil:
		key = addrs.IntKey(0)
	case r.ForEach != nil:
		key = addrs.StringKey("")
	}
	for _, expr := range r.Managed.ReplaceTriggeredBy {
		ref, refDiags := config.ReplaceTriggerReference(expr, key)
		if diags = append(diags, refDiags...); refDiags.HasErrors() {
			continue
		}
		var target addrs.Resource
		switch s := ref.Subject.(type) {
		case addrs.Resource:
			target = s
		case addrs.ResourceInstance:
			target = s.Resource
		default:
			continue
		}
		declared := m.cfg.Module.Resources[target]
		if declared == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Undeclared resource in replace_triggered_by",
				Detail:  fmt.Sprintf("Resource %s refers to %s in replace_triggered_by, but it is not declared in this module.", addr, target),
				Subject: expr.Range().Ptr()})
			continue
		}
		if len(ref.Remaining) == 0 {
			continue
		}
		if s := m.resourceSchema(declared); s != nil {
			diags = append(diags, s.StaticValidateTraversal(ref.Remaining)...)
		}
	}
	return diags
}

// validatePreventDestroyConstant refuses a prevent_destroy that refers to
// nothing and is not a bool; one that refers to something is checked when
// a plan evaluates it.
func validatePreventDestroyConstant(r *config.Resource, addr addrs.ConfigResource) hcl.Diagnostics {
	expr := r.Managed.PreventDestroy
	if expr == nil {
		return nil
	}
	val, valDiags := expr.Value(nil)
	if valDiags.HasErrors() {
		return nil
	}
	if _, err := convert.Convert(val, cty.Bool); err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid value for prevent_destroy",
			Detail:  fmt.Sprintf("Resource instance %s has an invalid value for its prevent_destroy argument: %s.", addr, err),
			Subject: expr.Range().Ptr()}}
	}
	return nil
}
