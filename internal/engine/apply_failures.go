package engine

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
)

// failedDependency marks the value of an instance whose change failed (or
// was skipped because something it needed failed) during apply. Marks
// travel through every expression that reads the value — an index, a
// splat, a function over the whole resource — so an instance's evaluated
// configuration carries the mark exactly when it depends on a failed
// instance, which is finer than the graph's resource-level edges: with
// count, b[1] reading a[count.index] goes ahead when only a[0] failed.
type failedDependency struct{}

var failedMark = failedDependency{}

// failureSet is what failed in an apply walk, for depends_on entries,
// which name objects without reading their values.
type failureSet struct {
	mu        sync.Mutex
	instances map[string]bool // AbsResourceInstance.String()
	resources map[string]bool // AbsResource.String()
}

func newFailureSet() *failureSet {
	return &failureSet{instances: map[string]bool{}, resources: map[string]bool{}}
}

// markFailed records that addr's change did not happen, so that what
// depends on it is not changed either.
func (w *walker) markFailed(addr addrs.AbsResourceInstance) {
	w.failures.mu.Lock()
	w.failures.instances[addr.String()] = true
	w.failures.resources[addr.ContainingResource().String()] = true
	w.failures.mu.Unlock()
	w.values.set(w.values.instances, addr.String(), cty.DynamicVal.Mark(failedMark))
}

// dependsOnFailed reports whether the depends_on entries of the instance's
// resource name an instance, or any instance of a resource, that failed.
func (w *walker) dependsOnFailed(work *resourceWork, addr addrs.AbsResourceInstance) bool {
	w.failures.mu.Lock()
	defer w.failures.mu.Unlock()
	if len(w.failures.resources) == 0 {
		return false
	}
	for _, t := range work.v.resource.DependsOn {
		ref, hd := addrs.ParseRef(t)
		if hd.HasErrors() {
			continue
		}
		switch s := ref.Subject.(type) {
		case addrs.Resource:
			if w.failures.resources[addrs.AbsResource{Module: addr.Module, Resource: s}.String()] {
				return true
			}
		case addrs.ResourceInstance:
			if w.failures.instances[addrs.AbsResourceInstance{Module: addr.Module, Resource: s}.String()] {
				return true
			}
		}
	}
	return false
}

// applyInstanceOrSkip applies one instance unless something it depends on
// failed, and marks it failed when its own change fails. A skipped
// instance gets no diagnostic of its own: the failure that caused it is
// reported already, and Terraform reports the same way.
func (w *walker) applyInstanceOrSkip(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) diags.Diagnostics {
	if w.dependsOnFailed(work, addr) {
		w.logSkip(addr)
		w.markFailed(addr)
		return nil
	}
	ds := w.applyInstance(work, addr, rep)
	if ds.HasErrors() {
		w.markFailed(addr)
	}
	return ds
}

// readsFailed reports whether an evaluated configuration read the value of
// a failed instance; if so the instance is skipped and marked failed.
func (w *walker) readsFailed(addr addrs.AbsResourceInstance, cfgVal cty.Value) bool {
	if !cfgVal.HasMarkDeep(failedMark) {
		return false
	}
	w.logSkip(addr)
	w.markFailed(addr)
	return true
}

func (w *walker) logSkip(addr addrs.AbsResourceInstance) {
	w.e.logger.Info("not changed: something it depends on failed", "address", addr.String())
}
