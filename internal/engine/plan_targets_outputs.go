package engine

import (
	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// OpenTofu evaluates, in a plan or apply limited by -target or -exclude,
// only the root outputs that read resources and nothing but resources in
// the run's scope: an output that reads a resource left out keeps the value
// the last run recorded, and one that reads no resource at all keeps it too.
// An apply counts only the resources it works on: those with changes in the
// plan, and those that something it works on reads (see retainedResources).

// keptRootOutputs lists the root output vertices a limited walk of g
// evaluates. scoped reports whether a resource vertex is in the run's
// scope; retained, when not nil, whether the walk counts it at all.
func keptRootOutputs(g *graph, scoped, retained func(string) bool) map[string]bool {
	kept := map[string]bool{}
	for k, v := range g.vertices {
		ov, ok := v.(*outputVertex)
		if !ok || !ov.module.Path.IsRoot() {
			continue
		}
		found, all := 0, true
		seen := map[string]bool{k: true}
		stack := []string{k}
		for len(stack) > 0 && all {
			cur := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for dep := range g.deps[cur] {
				if seen[dep] {
					continue
				}
				seen[dep] = true
				stack = append(stack, dep)
				if _, isResource := g.vertices[dep].(*resourceVertex); !isResource || (retained != nil && !retained(dep)) {
					continue
				}
				if !scoped(dep) {
					all = false
					break
				}
				found++
			}
		}
		if all && found > 0 {
			kept[k] = true
		}
	}
	return kept
}

// configScoped reports whether the resource vertex key is in the scope of
// the plan at the level of the configuration: named by a target or a
// dependency of one, or neither excluded nor dependent on an exclusion.
func (s *planScope) configScoped(g *graph, key string) bool {
	rv, ok := g.vertices[key].(*resourceVertex)
	if !ok {
		return false
	}
	if len(s.targets) > 0 {
		return s.targetDeps[key] || anyTouches(s.targets, rv)
	}
	if s.excludedDeps[key] {
		return false
	}
	res := addrs.ConfigResource{Module: rv.module.Path, Resource: rv.resource.Addr()}
	for _, e := range s.excludes {
		if excludesWhole(e, res) {
			return false
		}
	}
	return true
}

// excludesWhole reports whether the exclusion e takes every instance of res
// as OpenTofu reads it before expansion: a resource address, or a module
// address without instance keys, that contains it.
func excludesWhole(e addrs.Targetable, res addrs.ConfigResource) bool {
	switch e := e.(type) {
	case addrs.AbsResource:
		return e.String() == res.String()
	case addrs.ModuleInstance:
		if len(e) > len(res.Module) {
			return false
		}
		for i, step := range e {
			if step.Key != addrs.NoKey || step.Name != res.Module[i] {
				return false
			}
		}
		return true
	}
	return false
}

// retainedResources lists the resource vertices an apply of a limited plan
// works on, as OpenTofu prunes its apply graph: a resource with changes in
// the plan, and one that another vertex kept depends on (a root output
// alone does not keep a resource; a local, a module output or another
// resource does).
func retainedResources(g *graph, changes map[string]*plans.ResourceInstanceChangeSrc) map[string]bool {
	kept := map[string]bool{}
	for _, c := range changes {
		if c.Action != plans.NoOp {
			kept[c.Addr.ContainingResource().Config().String()] = true
		}
	}
	for k, v := range g.vertices {
		if ov, ok := v.(*outputVertex); ok && ov.module.Path.IsRoot() {
			kept[k] = true
		}
	}
	dependents := g.dependents()
	for changed := true; changed; {
		changed = false
		for k, v := range g.vertices {
			if kept[k] {
				continue
			}
			_, isResource := v.(*resourceVertex)
			for _, d := range dependents[k] {
				if !kept[d] {
					continue
				}
				if ov, ok := g.vertices[d].(*outputVertex); isResource && ok && ov.module.Path.IsRoot() {
					continue
				}
				kept[k], changed = true, true
				break
			}
		}
	}
	return kept
}

// appliedRootOutputs lists the root output vertices the apply of plan, with
// changes, evaluates; nil (all of them) unless the plan was made with
// -target or -exclude.
func appliedRootOutputs(g *graph, prior *states.State, plan *plans.Plan, changes map[string]*plans.ResourceInstanceChangeSrc) map[string]bool {
	if len(plan.TargetAddrs) == 0 && len(plan.ExcludeAddrs) == 0 {
		return nil
	}
	var opts PlanOpts
	for _, s := range plan.TargetAddrs {
		if t, ok := parseTargetable(s); ok {
			opts.Targets = append(opts.Targets, t)
		}
	}
	for _, s := range plan.ExcludeAddrs {
		if t, ok := parseTargetable(s); ok {
			opts.Excludes = append(opts.Excludes, t)
		}
	}
	scope := newPlanScope(g, prior, opts)
	if scope == nil {
		return nil
	}
	retained := retainedResources(g, changes)
	return keptRootOutputs(g, func(k string) bool { return scope.configScoped(g, k) }, func(k string) bool { return retained[k] })
}

// parseTargetable reads back a target address a plan recorded.
func parseTargetable(s string) (addrs.Targetable, bool) {
	if module, ds := addrs.ParseModuleInstanceStr(s); !ds.HasErrors() && len(module) > 0 {
		return module, true
	}
	inst, ds := addrs.ParseAbsResourceInstanceStr(s)
	if ds.HasErrors() {
		return nil, false
	}
	if inst.Resource.Key == addrs.NoKey {
		return inst.ContainingResource(), true
	}
	return inst, true
}
