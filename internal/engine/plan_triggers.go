package engine

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
)

// triggerChange is what replace_triggered_by compares of a planned update
// or replacement: the object before and after, without marks.
type triggerChange struct {
	before, after cty.Value
}

// triggersReplacement reports whether a planned action counts as a change
// for replace_triggered_by, as OpenTofu's CanTriggerDownstreamReplace
// does: one that makes a new or changed object (a create, an update, any
// replacement); reading, deleting or forgetting an object does not.
func triggersReplacement(a plans.Action) bool {
	return a == plans.Update || a.Creates()
}

// attributeTriggerTargets are the resources (ConfigResource strings) that
// some replace_triggered_by names with an attribute path: the plan keeps
// the values of their updates and replacements to compare that attribute.
// any are all the resources some replace_triggered_by names.
func attributeTriggerTargets(c *config.Config, r *config.Resource, into, any map[string]bool) {
	if r.Managed == nil {
		return
	}
	for _, expr := range r.Managed.ReplaceTriggeredBy {
		ref, ds := triggerReference(expr, nil)
		if ds.HasErrors() {
			continue
		}
		target, ok := triggerTarget(ref)
		if !ok {
			continue
		}
		key := addrs.ConfigResource{Module: c.Path, Resource: target}.String()
		any[key] = true
		if len(ref.Remaining) > 0 {
			into[key] = true
		}
	}
}

// noteTriggerTarget records that the plan has a change, maybe a no-op,
// for change's instance of a resource replace_triggered_by names. Called
// with w.plan.mu held.
func (w *walker) noteTriggerTarget(change *plans.ResourceInstanceChange) {
	if change.DeposedKey != addrs.NotDeposed || !w.triggerTargets[change.Addr.ContainingResource().Config().String()] {
		return
	}
	w.plan.triggerPresent[change.Addr.String()] = true
	w.plan.triggerPresent[change.Addr.ContainingResource().String()] = true
}

// triggerTarget is the resource a replace_triggered_by reference names.
func triggerTarget(ref *addrs.Reference) (addrs.Resource, bool) {
	switch s := ref.Subject.(type) {
	case addrs.Resource:
		return s, true
	case addrs.ResourceInstance:
		return s.Resource, true
	}
	return addrs.Resource{}, false
}

// recordTriggerChange keeps what replace_triggered_by needs of a planned
// change to a current object. Called with w.plan.mu held.
func (w *walker) recordTriggerChange(change *plans.ResourceInstanceChange) {
	if !triggersReplacement(change.Action) {
		return
	}
	resource := change.Addr.ContainingResource()
	w.plan.updatedResources[resource.String()] = true
	if w.attrTriggerTargets[resource.Config().String()] {
		before, _ := change.Before.UnmarkDeep()
		after, _ := change.After.UnmarkDeep()
		w.plan.triggerChanges[change.Addr.String()] = triggerChange{before: before, after: after}
	}
}

// replaceTriggered reports whether replace_triggered_by replaces the
// instance at addr: an element names a resource one of whose instances is
// planned to be updated or replaced, or an instance that is, or an
// attribute of an instance that such a change alters. count.index and
// each.key in an index are addr's own.
func (w *walker) replaceTriggered(work *resourceWork, addr addrs.AbsResourceInstance) (bool, diags.Diagnostics) {
	m := work.v.resource.Managed
	if m == nil {
		return false, nil
	}
	var ds diags.Diagnostics
	for _, expr := range m.ReplaceTriggeredBy {
		ref, rds := triggerReference(expr, addr.Resource.Key)
		if ds = ds.Append(rds); rds.HasErrors() {
			continue
		}
		triggered, tds := w.referenceTriggers(addr.Module, ref)
		if ds = ds.Append(tds); triggered {
			return true, ds
		}
	}
	return false, ds
}

// referenceTriggers reports whether the object ref names, in module, is
// planned to change in a way that triggers a replacement.
func (w *walker) referenceTriggers(module addrs.ModuleInstance, ref *addrs.Reference) (bool, diags.Diagnostics) {
	w.plan.mu.Lock()
	defer w.plan.mu.Unlock()
	var inst addrs.AbsResourceInstance
	var named string
	switch s := ref.Subject.(type) {
	case addrs.Resource:
		named = addrs.AbsResource{Module: module, Resource: s}.String()
	case addrs.ResourceInstance:
		named = addrs.AbsResourceInstance{Module: module, Resource: s}.String()
	}
	if named != "" && !w.plan.triggerPresent[named] {
		// As in OpenTofu: a declared resource always has a change planned
		// for each instance it has, a no-op at least.
		return false, diags.Diagnostics{{Severity: diags.Error, Summary: fmt.Sprintf("no change found for %s in %s", ref.Subject, moduleDisplay(module)), Sourceless: true}}
	}
	switch s := ref.Subject.(type) {
	case addrs.Resource:
		resource := addrs.AbsResource{Module: module, Resource: s}
		if len(ref.Remaining) == 0 {
			return w.plan.updatedResources[resource.String()], nil
		}
		// An attribute of a resource without count or for_each: its
		// single instance.
		inst = resource.Instance(addrs.NoKey)
		if _, ok := w.plan.actions[inst.String()]; !ok && w.plan.updatedResources[resource.String()] {
			return false, diags.Diagnostics{{Severity: diags.Error, Summary: "Invalid replace_triggered_by expression",
				Detail:  fmt.Sprintf("%s has several instances, so which one's attribute triggers the replacement is ambiguous. Name an instance, with an index such as [count.index] or [each.key].", resource),
				Subject: ref.SourceRange.Ptr()}}
		}
	case addrs.ResourceInstance:
		inst = addrs.AbsResourceInstance{Module: module, Resource: s}
	default:
		return false, nil
	}
	action, ok := w.plan.actions[inst.String()]
	if !ok || !triggersReplacement(action) {
		return false, nil
	}
	if len(ref.Remaining) == 0 {
		return true, nil
	}
	change, ok := w.plan.triggerChanges[inst.String()]
	path, err := traversalPath(ref.Remaining)
	if !ok || err != nil {
		return true, nil // nothing to compare: count the change, never miss one
	}
	before, errBefore := path.Apply(change.before)
	after, errAfter := path.Apply(change.after)
	if errBefore != nil || errAfter != nil {
		return (errBefore == nil) != (errAfter == nil), nil
	}
	return !before.RawEquals(after), nil
}

// triggerReference is config.ReplaceTriggerReference with engine diagnostics.
func triggerReference(expr hcl.Expression, key addrs.InstanceKey) (*addrs.Reference, diags.Diagnostics) {
	ref, hds := config.ReplaceTriggerReference(expr, key)
	return ref, diags.Diagnostics{}.Append(hds)
}

// moduleDisplay names a module instance in messages, as OpenTofu does.
func moduleDisplay(module addrs.ModuleInstance) string {
	if module.IsRoot() {
		return "the root module"
	}
	return module.String()
}
