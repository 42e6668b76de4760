package engine

// createBeforeDestroyForced finds the resources that must be replaced
// create-before-destroy although they do not say so: everything a
// create_before_destroy resource depends on, directly or through other
// resources. Terraform implies it the same way, because replacing a
// dependency destroy-first while its dependent is replaced create-first
// asks for the dependency's destroy both before and after the dependent's
// create — a cycle in the apply order.
func (w *walker) createBeforeDestroyForced(g *graph) map[string]bool {
	forced := map[string]bool{}
	var stack []string
	for k, v := range g.vertices {
		if rv, ok := v.(*resourceVertex); ok && rv.resource.Managed != nil && rv.resource.Managed.CreateBeforeDestroy {
			stack = append(stack, k)
		}
	}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for dep := range w.reachableResources(g, k) {
			if !forced[dep] {
				forced[dep] = true
				stack = append(stack, dep)
			}
		}
	}
	return forced
}

// createBeforeDestroy reports whether replacements of work's resource
// create the new object first, by its own setting or by implication.
func (w *walker) createBeforeDestroy(work *resourceWork) bool {
	if m := work.v.resource.Managed; m != nil && m.CreateBeforeDestroy {
		return true
	}
	return w.cbdForced[work.v.key()]
}
