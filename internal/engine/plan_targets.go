package engine

import (
	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// planScope limits a plan to the -target addresses and what they depend on,
// minus the -exclude addresses and what depends on them. Resources outside
// it keep their recorded objects: they are neither refreshed nor changed.
//
// A destroy plan works in two scopes, as OpenTofu's does: objects are
// refreshed within the scope above, and destroyed within the scope of the
// destroy order, where a target brings in what depends on it (those objects
// must go first) and an exclusion keeps what it depends on.
type planScope struct {
	targets  []addrs.Targetable
	excludes []addrs.Targetable
	// targetDeps are the resources (vertex keys) the targets depend on,
	// all of whose instances are in scope.
	targetDeps map[string]bool
	// excludedDeps are the resources (vertex keys) that depend on an
	// excluded address, none of whose instances are in scope.
	excludedDeps map[string]bool
	// destroying, in a destroy plan, are the instances (by address) whose
	// objects the plan destroys; nil in other plans.
	destroying map[string]bool
}

// newPlanScope works out the scope of a plan over g and the state it
// starts from; nil when the plan has neither targets nor excludes.
func newPlanScope(g *graph, prior *states.State, opts PlanOpts) *planScope {
	if len(opts.Targets) == 0 && len(opts.Excludes) == 0 {
		return nil
	}
	s := &planScope{targets: opts.Targets, excludes: opts.Excludes, targetDeps: map[string]bool{}, excludedDeps: map[string]bool{}}
	matching := func(list []addrs.Targetable) []string {
		var keys []string
		for k, v := range g.vertices {
			if rv, ok := v.(*resourceVertex); ok && anyTouches(list, rv) {
				keys = append(keys, k)
			}
		}
		return keys
	}
	if len(opts.Targets) > 0 {
		// A target's own instances are in scope by address (so a[0] does
		// not bring in a[1]); what it depends on is in scope whole, unless
		// a target names it too: then, as in OpenTofu, only the instances
		// the targets name are.
		targeted := matching(opts.Targets)
		for _, k := range targeted {
			for dep := range g.deps[k] {
				markReachable(dep, func(k string) []string { return keysOf(g.deps[k]) }, s.targetDeps)
			}
		}
		for _, k := range targeted {
			delete(s.targetDeps, k)
		}
	}
	if len(opts.Excludes) > 0 {
		dependents := g.dependents()
		for _, k := range matching(opts.Excludes) {
			for _, d := range dependents[k] {
				markReachable(d, func(k string) []string { return dependents[k] }, s.excludedDeps)
			}
		}
	}
	if opts.Mode == plans.DestroyMode {
		s.destroying = destroyScope(prior, opts)
	}
	return s
}

// anyTouches reports whether an address in list names rv's resource, one
// of its instances, or a module instance it may be in (module instances
// are matched by name, since instances are not known before the walk).
func anyTouches(list []addrs.Targetable, rv *resourceVertex) bool {
	for _, t := range list {
		switch t := t.(type) {
		case addrs.AbsResource:
			if t.Config().String() == rv.key() {
				return true
			}
		case addrs.AbsResourceInstance:
			if t.ContainingResource().Config().String() == rv.key() {
				return true
			}
		case addrs.ModuleInstance:
			if modulePathWithin(rv.module.Path, t.Module()) {
				return true
			}
		}
	}
	return false
}

func modulePathWithin(path, prefix addrs.Module) bool {
	if len(path) < len(prefix) {
		return false
	}
	for i := range prefix {
		if path[i] != prefix[i] {
			return false
		}
	}
	return true
}

func markReachable(from string, next func(string) []string, seen map[string]bool) {
	stack := []string{from}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[k] {
			continue
		}
		seen[k] = true
		stack = append(stack, next(k)...)
	}
}

func keysOf(set map[string]struct{}) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	return out
}

// includes reports whether the instance addr, of the resource vertex
// resourceKey, is worked on: refreshed, or planned, or both.
func (s *planScope) includes(resourceKey string, addr addrs.AbsResourceInstance) bool {
	if s == nil {
		return true
	}
	return s.refreshes(resourceKey, addr) || s.destroying[addr.String()]
}

// refreshes reports whether the instance addr, of the resource vertex
// resourceKey, is refreshed and (outside a destroy plan) planned.
func (s *planScope) refreshes(resourceKey string, addr addrs.AbsResourceInstance) bool {
	if s == nil {
		return true
	}
	if len(s.targets) > 0 && !s.targetDeps[resourceKey] && !containedIn(s.targets, addr) {
		return false
	}
	if s.excludedDeps[resourceKey] || containedIn(s.excludes, addr) {
		return false
	}
	return true
}

// destroys reports whether a destroy plan destroys the objects of addr.
func (s *planScope) destroys(addr addrs.AbsResourceInstance) bool {
	return s == nil || s.destroying[addr.String()]
}

// includesResource reports whether any instance of res may be planned:
// what the plan must be able to expand.
func (s *planScope) includesResource(resourceKey string, res addrs.AbsResource) bool {
	if s == nil {
		return true
	}
	covers := func(list []addrs.Targetable) bool {
		for _, t := range list {
			if t.TargetContains(res) {
				return true
			}
		}
		return false
	}
	targeted := func() bool {
		for _, t := range s.targets {
			if inst, ok := t.(addrs.AbsResourceInstance); ok && inst.ContainingResource().String() == res.String() {
				return true
			}
		}
		return covers(s.targets)
	}
	if len(s.targets) > 0 && !s.targetDeps[resourceKey] && !targeted() {
		return false
	}
	return !s.excludedDeps[resourceKey] && !covers(s.excludes)
}

func containedIn(list []addrs.Targetable, addr addrs.AbsResourceInstance) bool {
	for _, t := range list {
		if t.TargetContains(addr) {
			return true
		}
	}
	return false
}

// partialPlanWarning is OpenTofu's warning that a plan made with -target
// or -exclude may not show everything the configuration asks for.
func partialPlanWarning(PlanOpts) diags.Diagnostic {
	return diags.Warnf("Resource targeting is in effect",
		"You are creating a plan with either the -target option or the -exclude option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\n"+
			"The -target and -exclude options are not for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when Terrane specifically suggests to use it as part of an error message.")
}

// IncompleteApplyWarning is OpenTofu's reminder, after applying a plan
// made with -target or -exclude (even one that changes nothing), that other
// changes may be pending; nil for other plans. The line holding only a tab
// is OpenTofu's too.
func IncompleteApplyWarning(plan *plans.Plan) diags.Diagnostics {
	if len(plan.TargetAddrs) == 0 && len(plan.ExcludeAddrs) == 0 {
		return nil
	}
	return diags.Diagnostics{incompleteApplyWarning()}
}

func incompleteApplyWarning() diags.Diagnostic {
	return diags.Warnf("Applied changes may be incomplete",
		"The plan was created with the -target or the -exclude option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    terrane plan\n\t\n"+
			"Note that the -target and -exclude options are not suitable for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when Terrane specifically suggests to use it as part of an error message.")
}
