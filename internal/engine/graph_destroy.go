package engine

import (
	"cmp"
	"slices"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
)

// addDestroyVertices adds a destroy vertex for each resource the plan
// deletes objects of, ordered after the destroys of everything that
// depends on it; replacements order their destroy around their create.
//
// Dependencies are those of the configuration together with those recorded
// in state, as OpenTofu's destroy edges use the recorded ones: an object the
// configuration dropped is still ordered against what depended on it, and
// against what it depended on, when it was last applied.
func (w *walker) addDestroyVertices(g *graph) diags.Diagnostics {
	configDeps := w.resourceDependencies(g)
	w.applier.graph, w.applier.resourceDeps = g, configDeps
	resourceDeps := w.withRecordedDependencies(configDeps)
	updated := w.resourcesWithChanges(g)
	for res := range w.applier.deletes {
		g.add(&destroyVertex{addr: w.configResourceOf(res)})
	}
	// Orderings of a destroy against changes that only state records ask
	// for are added after the required ones, and only where they make no
	// cycle.
	var soft [][2]string
	for res, changes := range w.applier.deletes {
		d := res + " (destroy)"
		// Recovery of the resource's open intents comes first.
		g.connect(d, res+" (orphan)")
		for _, c := range changes {
			g.connect(d, c.ProviderAddr.Config.String())
			switch c.Action {
			case plans.DeleteThenCreate:
				g.connect(res, d)
			case plans.CreateThenDelete:
				g.connect(d, res)
			}
		}
		createFirst := hasCreateThenDelete(changes)
		// Whatever depends on res is destroyed before res is, and changed
		// before it too when either side is create_before_destroy; a
		// dependent changed otherwise waits for the destroy.
		for other, deps := range resourceDeps {
			if !deps[res] {
				continue
			}
			g.connect(d, other+" (destroy)")
			switch {
			case createFirst || w.createsFirst(g, other):
				g.connect(d, other)
			case updated[other]:
				soft = append(soft, [2]string{other, d})
			}
		}
		// What res depended on is changed after res is gone, unless res
		// is replaced create-first (then the new object needs it first).
		for dep := range resourceDeps[res] {
			if updated[dep] && !createFirst && !w.createsFirst(g, dep) {
				soft = append(soft, [2]string{dep, d})
			}
		}
	}
	slices.SortFunc(soft, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	for _, edge := range soft {
		g.connectUnlessCycle(edge[0], edge[1])
	}
	var ds diags.Diagnostics
	for _, cycle := range g.cycles() {
		ds = ds.Append(diags.Errorf("Cycle in the apply order",
			"The changes of these objects must each happen before another's: %s. This happens when create_before_destroy is set on a resource but not on the resources it depends on; set it on those too.", describeCycle(cycle)))
	}
	return ds
}

func hasCreateThenDelete(changes []*plans.ResourceInstanceChangeSrc) bool {
	for _, c := range changes {
		if c.Action == plans.CreateThenDelete {
			return true
		}
	}
	return false
}

// createsFirst reports whether the resource vertex key is
// create_before_destroy, by its own setting or by implication.
func (w *walker) createsFirst(g *graph, key string) bool {
	rv, ok := g.vertices[key].(*resourceVertex)
	if !ok {
		return false
	}
	if m := rv.resource.Managed; m != nil && m.CreateBeforeDestroy {
		return true
	}
	return w.cbdForced[key]
}

// resourcesWithChanges are the resource vertices the plan creates or
// updates instances of: the changes a destroy may have to be ordered
// against.
func (w *walker) resourcesWithChanges(g *graph) map[string]bool {
	out := map[string]bool{}
	for _, c := range w.applier.changes {
		switch c.Action {
		case plans.Create, plans.Update, plans.DeleteThenCreate, plans.CreateThenDelete:
			k := c.Addr.ContainingResource().Config().String()
			if _, ok := g.vertices[k].(*resourceVertex); ok {
				out[k] = true
			}
		}
	}
	return out
}

func (w *walker) configResourceOf(key string) addrs.ConfigResource {
	for _, c := range w.applier.deletes[key] {
		return c.Addr.ContainingResource().Config()
	}
	return addrs.ConfigResource{}
}

// resourceDependencies maps each resource of the configuration to every
// resource it depends on, directly or through other resources, data
// sources, locals, variables, outputs, module calls and the configuration
// of its provider: what OpenTofu records as an object's dependencies (its
// graph's ancestors, the provider's references among them).
func (w *walker) resourceDependencies(g *graph) map[string]map[string]bool {
	closure := newResourceClosure(g)
	out := map[string]map[string]bool{}
	for k, v := range g.vertices {
		if _, ok := v.(*resourceVertex); ok {
			out[k] = closure.of(k)
		}
	}
	return out
}

// withRecordedDependencies adds to deps the dependencies recorded with the
// current objects in state, orphans' included, without changing deps' sets.
func (w *walker) withRecordedDependencies(deps map[string]map[string]bool) map[string]map[string]bool {
	out := make(map[string]map[string]bool, len(deps))
	for k, set := range deps {
		out[k] = set
	}
	copied := map[string]bool{}
	for _, entry := range w.snapshot.State.AllResourceInstances() {
		if entry.Instance.Current == nil || len(entry.Instance.Current.Dependencies) == 0 {
			continue
		}
		k := entry.Addr.ContainingResource().Config().String()
		if !copied[k] {
			set := make(map[string]bool, len(out[k]))
			for dep := range out[k] {
				set[dep] = true
			}
			out[k], copied[k] = set, true
		}
		for _, dep := range entry.Instance.Current.Dependencies {
			out[k][dep.String()] = true
		}
	}
	return out
}

// dependable reports whether a vertex is a resource an object's recorded
// dependencies name: managed, data and, as OpenTofu records them,
// ephemeral.
func dependable(v any) bool {
	switch v.(type) {
	case *resourceVertex, *ephemeralVertex:
		return true
	}
	return false
}

// reachableResources are the resources from depends on, directly or
// through anything, its provider's configuration included.
func (w *walker) reachableResources(g *graph, from string) map[string]bool {
	return newResourceClosure(g).of(from)
}

// resourceClosure works out, once per vertex, the resource vertices a vertex
// depends on transitively.
type resourceClosure struct {
	g    *graph
	memo map[string]map[string]bool
}

func newResourceClosure(g *graph) *resourceClosure {
	return &resourceClosure{g: g, memo: map[string]map[string]bool{}}
}

// of is the set for vertex key; callers must not change it. The graph is
// checked for cycles before this runs; on a cycle the set is incomplete,
// never endless.
func (c *resourceClosure) of(key string) map[string]bool {
	if set, ok := c.memo[key]; ok {
		return set
	}
	set := map[string]bool{}
	c.memo[key] = set
	for dep := range c.g.deps[key] {
		if dependable(c.g.vertices[dep]) {
			set[dep] = true
		}
		for k := range c.of(dep) {
			set[k] = true
		}
	}
	delete(set, key)
	return set
}
