package engine

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
)

// ValidateLifecycle checks the lifecycle arguments of every managed
// resource against the schemas before a plan walks anything, as OpenTofu's
// validation before planning does: ignore_changes must name attributes of
// the resource type, replace_triggered_by must name declared resources and
// attributes their types have, and a prevent_destroy that refers to
// nothing must be a bool. A problem here means no plan is made at all.
func ValidateLifecycle(cfg *config.Config, schemas *providers.Schemas) diags.Diagnostics {
	var ds diags.Diagnostics
	cfg.DeepEach(func(c *config.Config) {
		for _, r := range sortedResourceBlocks(c.Module.Resources) {
			if r.Managed == nil || r.Mode != addrs.ManagedResourceMode {
				continue
			}
			s, ok := schemas.ResourceType(r.Provider, false, r.Type)
			if !ok {
				continue // reported when the resource is planned
			}
			addr := addrs.ConfigResource{Module: c.Path, Resource: r.Addr()}
			ids := diags.Diagnostics{}.Append(s.Block.ValidateIgnoreChanges(r.Managed.IgnoreChanges, r.TypeRange))
			ds = ds.Append(ids)
			ds = ds.Append(validateTriggers(c, r, addr, schemas))
			ds = ds.Append(validatePreventDestroyConstant(r, addr))
		}
	})
	return ds
}

// validateTriggers checks that each replace_triggered_by element names a
// resource of its module, and only attributes that resource's type has.
func validateTriggers(c *config.Config, r *config.Resource, addr addrs.ConfigResource, schemas *providers.Schemas) diags.Diagnostics {
	var ds diags.Diagnostics
	key := addrs.InstanceKey(nil)
	switch {
	case r.Count != nil:
		key = addrs.IntKey(0)
	case r.ForEach != nil:
		key = addrs.StringKey("")
	}
	for _, expr := range r.Managed.ReplaceTriggeredBy {
		ref, rds := triggerReference(expr, key)
		if ds = ds.Append(rds); rds.HasErrors() {
			continue
		}
		target, ok := triggerTarget(ref)
		if !ok {
			continue
		}
		declared := c.Module.Resources[target]
		if declared == nil {
			ds = ds.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Undeclared resource in replace_triggered_by",
				Detail:  fmt.Sprintf("Resource %s refers to %s in replace_triggered_by, but it is not declared in this module.", addr, target),
				Subject: expr.Range().Ptr()})
			continue
		}
		if len(ref.Remaining) == 0 {
			continue
		}
		if s, ok := schemas.ResourceType(declared.Provider, declared.Mode == addrs.DataResourceMode, declared.Type); ok {
			ds = ds.Append(s.Block.StaticValidateTraversal(ref.Remaining))
		}
	}
	return ds
}

// validatePreventDestroyConstant refuses a prevent_destroy that refers to
// nothing and is not a bool; one that refers to something is checked when
// a plan evaluates it.
func validatePreventDestroyConstant(r *config.Resource, addr addrs.ConfigResource) diags.Diagnostics {
	expr := r.Managed.PreventDestroy
	if expr == nil {
		return nil
	}
	val, hd := expr.Value(nil)
	if hd.HasErrors() {
		return nil
	}
	if _, err := convert.Convert(val, cty.Bool); err != nil {
		return diags.Diagnostics{}.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for prevent_destroy",
			Detail:  fmt.Sprintf("Resource instance %s has an invalid value for its prevent_destroy argument: %s.", addr, err),
			Subject: expr.Range().Ptr()})
	}
	return nil
}

// sortedResourceBlocks lists a module's resource blocks in address order,
// so that their diagnostics come in a stable order.
func sortedResourceBlocks(m map[addrs.Resource]*config.Resource) []*config.Resource {
	out := make([]*config.Resource, 0, len(m))
	for _, r := range m {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr().String() < out[j].Addr().String() })
	return out
}
