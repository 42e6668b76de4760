package engine

import (
	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
)

// limitToTargets drops from the apply the changes of a plan made with
// -target that OpenTofu's apply leaves out: its apply graph takes the
// changed instances the targets name and what they depend on instance by
// instance, so an instance of one module instance does not bring in the
// changes of another instance of the same module, which the plan (working
// resource by resource) may hold. Plans made with -exclude, and destroy
// plans, are applied whole: their scope is already exact.
func (w *walker) limitToTargets(g *graph, plan *plans.Plan) {
	if len(plan.TargetAddrs) == 0 || plan.UIMode == plans.DestroyMode {
		return
	}
	var targets []addrs.Targetable
	for _, s := range plan.TargetAddrs {
		if t, ok := parseTargetable(s); ok {
			targets = append(targets, t)
		}
	}
	byResource := map[string][]addrs.AbsResourceInstance{}
	var seeds []addrs.AbsResourceInstance
	for _, c := range plan.Changes.Resources {
		if c.Action == plans.NoOp {
			continue
		}
		k := c.Addr.ContainingResource().Config().String()
		byResource[k] = append(byResource[k], c.Addr)
		if containedIn(targets, c.Addr) {
			seeds = append(seeds, c.Addr)
		}
	}
	applied := map[string]bool{}
	seenVertex := map[string]bool{}
	var instances []addrs.AbsResourceInstance
	var vertices []string
	// An instance depends on the instances of what its resource refers to
	// in its own module instance; anything else (a local, a module's
	// variable or output, a resource as a whole) depends on every instance.
	follow := func(from string, module *addrs.ModuleInstance) {
		for dep := range g.deps[from] {
			if _, ok := g.vertices[dep].(*resourceVertex); ok {
				for _, inst := range byResource[dep] {
					if module == nil || !inOtherInstanceOfSameModule(*module, inst.Module) {
						instances = append(instances, inst)
					}
				}
			}
			vertices = append(vertices, dep)
		}
	}
	instances = append(instances, seeds...)
	for len(instances) > 0 || len(vertices) > 0 {
		if n := len(instances); n > 0 {
			inst := instances[n-1]
			instances = instances[:n-1]
			if !applied[inst.String()] {
				applied[inst.String()] = true
				follow(inst.ContainingResource().Config().String(), &inst.Module)
			}
			continue
		}
		v := vertices[len(vertices)-1]
		vertices = vertices[:len(vertices)-1]
		if !seenVertex[v] {
			seenVertex[v] = true
			follow(v, nil)
		}
	}
	for name, c := range w.applier.changes {
		if c.Action != plans.NoOp && !applied[c.Addr.String()] {
			delete(w.applier.changes, name)
		}
	}
	for res, changes := range w.applier.deletes {
		var kept []*plans.ResourceInstanceChangeSrc
		for _, c := range changes {
			if applied[c.Addr.String()] {
				kept = append(kept, c)
			}
		}
		if len(kept) == 0 {
			delete(w.applier.deletes, res)
		} else {
			w.applier.deletes[res] = kept
		}
	}
}
