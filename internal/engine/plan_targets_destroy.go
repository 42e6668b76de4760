package engine

import (
	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
)

// destroyScope lists, by address, the instances whose objects a destroy
// plan with -target or -exclude destroys. It follows the destroy order,
// which the dependencies recorded with each object decide: an object is
// destroyed before the objects it depended on. So a target takes with it
// every object that depended on it, directly or not, and an exclusion
// keeps every object it depended on, directly or not.
func destroyScope(prior *states.State, opts PlanOpts) map[string]bool {
	var entries []states.ResourceInstanceEntry
	for _, e := range prior.AllResourceInstances() {
		if e.Addr.Resource.Resource.Mode == addrs.ManagedResourceMode {
			entries = append(entries, e)
		}
	}
	byResource := map[string][]int{}
	for i, e := range entries {
		key := e.Addr.ContainingResource().Config().String()
		byResource[key] = append(byResource[key], i)
	}
	// dependencies[i] are the entries i's objects recorded a dependency
	// on, and dependents the other way round.
	dependencies := make([][]int, len(entries))
	dependents := make([][]int, len(entries))
	for i, e := range entries {
		for _, dep := range recordedDependencies(e.Instance) {
			for _, j := range byResource[dep] {
				if j == i || inOtherInstanceOfSameModule(e.Addr.Module, entries[j].Addr.Module) {
					continue
				}
				dependencies[i] = append(dependencies[i], j)
				dependents[j] = append(dependents[j], i)
			}
		}
	}
	list, next := opts.Targets, dependents
	if len(opts.Targets) == 0 {
		list, next = opts.Excludes, dependencies
	}
	reached := map[int]bool{}
	var stack []int
	for i, e := range entries {
		if containedIn(list, e.Addr) {
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reached[i] {
			continue
		}
		reached[i] = true
		stack = append(stack, next[i]...)
	}
	out := map[string]bool{}
	for i, e := range entries {
		if reached[i] == (len(opts.Targets) > 0) {
			out[e.Addr.String()] = true
		}
	}
	return out
}

// recordedDependencies are the resources (ConfigResource strings) any
// object of inst recorded a dependency on.
func recordedDependencies(inst *states.ResourceInstance) []string {
	seen := map[string]bool{}
	var out []string
	add := func(obj *states.ResourceInstanceObjectSrc) {
		if obj == nil {
			return
		}
		for _, dep := range obj.Dependencies {
			if key := dep.String(); !seen[key] {
				seen[key] = true
				out = append(out, key)
			}
		}
	}
	add(inst.Current)
	for _, key := range inst.SortedDeposedKeys() {
		add(inst.Deposed[key])
	}
	return out
}

// inOtherInstanceOfSameModule reports whether a and b are different
// instances of one module: their objects are not ordered against each
// other by the dependencies they recorded, as in OpenTofu.
func inOtherInstanceOfSameModule(a, b addrs.ModuleInstance) bool {
	return a.Module().String() == b.Module().String() && a.String() != b.String()
}
