package engine

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/plans"
)

// dependencyPending reports whether a managed resource the data source
// refers to or depends on has a change planned, through its own
// depends_on or that of a module call enclosing it: OpenTofu then reads
// the data source at apply, once what it waits for is done, rather than
// reading what is about to change.
func (w *walker) dependencyPending(work *resourceWork, addr addrs.AbsResourceInstance) bool {
	r := work.v.resource
	if w.dependsOnPending(r.DependsOn, addr.Module) {
		return true
	}
	refs, _ := lang.ReferencesInBlock(r.Config, work.schema.Block.DecoderSpec())
	for _, ref := range refs {
		for _, target := range resourceOf(ref.Subject) {
			if w.resourcePending(addrs.AbsResource{Module: addr.Module, Resource: target}) {
				return true
			}
		}
	}
	module, inst := work.v.module, addr.Module
	for module.Parent != nil {
		call := module.Parent.Module.ModuleCalls[module.Path[len(module.Path)-1]]
		inst = inst.Parent()
		if call != nil && w.dependsOnPending(call.DependsOn, inst) {
			return true
		}
		module = module.Parent
	}
	return false
}

// dependsOnPending reports whether a depends_on list, written in module
// instance inst, names a managed resource with a change planned. An entry
// naming a whole module is taken conservatively: any pending managed change
// counts.
func (w *walker) dependsOnPending(entries []hcl.Traversal, inst addrs.ModuleInstance) bool {
	for _, t := range entries {
		ref, hd := addrs.ParseRef(t)
		if hd.HasErrors() {
			continue
		}
		switch ref.Subject.(type) {
		case addrs.ModuleCall, addrs.ModuleCallInstance:
			if w.anyManagedChangePending() {
				return true
			}
			continue
		}
		for _, target := range resourceOf(ref.Subject) {
			if w.resourcePending(addrs.AbsResource{Module: inst, Resource: target}) {
				return true
			}
		}
	}
	return false
}

// resourcePending reports whether a managed resource has an instance with
// a change planned, or instances not known yet.
func (w *walker) resourcePending(abs addrs.AbsResource) bool {
	if abs.Resource.Mode != addrs.ManagedResourceMode {
		return false
	}
	exp := w.values.resourceExpansion(abs)
	if exp == nil {
		return false
	}
	if exp.unknown {
		return true
	}
	for _, key := range exp.keys {
		if a, ok := w.plannedAction(abs.Instance(key)); ok && a != plans.NoOp {
			return true
		}
	}
	return false
}

func (w *walker) anyManagedChangePending() bool {
	w.plan.mu.Lock()
	defer w.plan.mu.Unlock()
	for _, a := range w.plan.actions {
		if a != plans.NoOp && a != plans.Read {
			return true
		}
	}
	return false
}

func resourceOf(subject addrs.Referenceable) []addrs.Resource {
	switch s := subject.(type) {
	case addrs.Resource:
		return []addrs.Resource{s}
	case addrs.ResourceInstance:
		return []addrs.Resource{s.Resource}
	}
	return nil
}
