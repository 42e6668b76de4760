package command

import (
	"maps"
	"slices"

	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plans"
)

// reduce removes every edge a→c for which another path from a to c exists
// (transitive reduction), so the drawing shows only the dependencies that
// decide the order. The drawing must have no cycle. Reachability is kept as
// one bit set per node, built in reverse topological order: O(V·E/64).
func (d *drawing) reduce() {
	names := slices.Sorted(maps.Keys(d.edges))
	index := make(map[string]int, len(names))
	for i, name := range names {
		index[name] = i
	}
	words := (len(names) + 63) / 64
	reach := make([][]uint64, len(names)) // nodes reachable by a path of one or more edges
	var visit func(i int)
	visit = func(i int) {
		if reach[i] != nil {
			return
		}
		set := make([]uint64, words)
		for to := range d.edges[names[i]] {
			j := index[to]
			visit(j)
			set[j/64] |= 1 << (j % 64)
			for w := range set {
				set[w] |= reach[j][w]
			}
		}
		reach[i] = set
	}
	for i := range names {
		visit(i)
	}
	for _, from := range names {
		deps := d.edges[from]
		for to := range deps {
			j := index[to]
			for other := range deps {
				k := index[other]
				if other != to && reach[k][j/64]&(1<<(j%64)) != 0 {
					delete(deps, to)
					break
				}
			}
		}
	}
}

// withoutOrphans drops the vertices of resources left only in state from
// an apply graph, linking what waited for each to what it waited for: on
// apply they only resolve interrupted runs' intents before the deletions.
func withoutOrphans(vertices []engine.GraphVertex) []engine.GraphVertex {
	orphans := map[string][]string{}
	for _, v := range vertices {
		if v.Kind == engine.GraphOrphan {
			orphans[v.Key] = v.DependsOn
		}
	}
	var out []engine.GraphVertex
	for _, v := range vertices {
		if v.Kind == engine.GraphOrphan {
			continue
		}
		var deps []string
		for _, dep := range v.DependsOn {
			if through, ok := orphans[dep]; ok {
				deps = append(deps, through...)
			} else {
				deps = append(deps, dep)
			}
		}
		slices.Sort(deps)
		v.DependsOn = slices.Compact(deps)
		out = append(out, v)
	}
	return out
}

// prunedForDestroy keeps what deleting objects needs: the destroy
// vertices, the providers they use and what those providers' blocks refer
// to, and the root module's outputs (which a destroy removes without
// evaluating). Everything else does no work in a destroy.
func prunedForDestroy(vertices []engine.GraphVertex, changes []*plans.ResourceInstanceChangeSrc) ([]engine.GraphVertex, map[string]bool) {
	changing := map[string]bool{}
	for _, c := range changes {
		if c.Action != plans.Delete && c.Action != plans.NoOp {
			changing[c.Addr.ContainingResource().Config().String()] = true
		}
	}
	keptKeys := map[string]bool{}
	byKey := map[string]engine.GraphVertex{}
	var keep func(key string)
	keep = func(key string) {
		if keptKeys[key] {
			return
		}
		keptKeys[key] = true
		for _, dep := range byKey[key].DependsOn {
			keep(dep)
		}
	}
	for _, v := range vertices {
		if v.Kind == engine.GraphOutput && v.Module.IsRoot() {
			v.DependsOn, v.WholeModules = nil, nil
		}
		byKey[v.Key] = v
	}
	for _, v := range vertices {
		// A root variable's value node is never pruned in OpenTofu.
		rootValue := (v.Kind == engine.GraphOutput || v.Kind == engine.GraphVariable) && v.Module.IsRoot()
		if v.Kind == engine.GraphDestroy || rootValue || (v.Kind == engine.GraphResource && changing[v.Key]) {
			keep(v.Key)
		}
	}
	// A root variable's reference node stays only while something kept
	// refers to the variable.
	refsDropped := map[string]bool{}
	for _, v := range vertices {
		if v.Kind == engine.GraphVariable && v.Module.IsRoot() {
			refsDropped[v.Key] = true
		}
	}
	var out []engine.GraphVertex
	for _, v := range vertices {
		if !keptKeys[v.Key] {
			continue
		}
		out = append(out, byKey[v.Key])
		for _, dep := range byKey[v.Key].DependsOn {
			delete(refsDropped, dep)
		}
	}
	return out, refsDropped
}

// prunedForApply drops from an apply graph what OpenTofu's apply prunes
// as unused: a resource with no instance changes that no other expanding
// object waits for (a root output does not keep it), values nothing refers
// to any more, and providers no remaining object uses. A root variable's
// value node stays; only its reference node goes (refsDropped).
func prunedForApply(vertices []engine.GraphVertex, changes []*plans.ResourceInstanceChangeSrc) (kept []engine.GraphVertex, refsDropped map[string]bool) {
	changing := map[string]bool{}
	for _, c := range changes {
		if c.Action != plans.NoOp {
			changing[c.Addr.ContainingResource().Config().String()] = true
		}
	}
	removed := map[string]bool{}
	refsDropped = map[string]bool{}
	dependents := func(key string) []engine.GraphVertex {
		var out []engine.GraphVertex
		for _, v := range vertices {
			if !removed[v.Key] && slices.Contains(v.DependsOn, key) {
				out = append(out, v)
			}
		}
		return out
	}
	for again := true; again; {
		again = false
		for _, v := range vertices {
			if removed[v.Key] || refsDropped[v.Key] || keptOnApply(v, changing, dependents(v.Key)) {
				continue
			}
			if v.Kind == engine.GraphVariable && v.Module.IsRoot() {
				refsDropped[v.Key] = true
			} else {
				removed[v.Key] = true
			}
			again = true
		}
	}
	for _, v := range vertices {
		if !removed[v.Key] {
			kept = append(kept, v)
		}
	}
	return kept, refsDropped
}

// keptOnApply reports whether v survives OpenTofu's pruning of an apply
// graph, given the remaining vertices that depend on it.
func keptOnApply(v engine.GraphVertex, changing map[string]bool, dependents []engine.GraphVertex) bool {
	switch v.Kind {
	case engine.GraphVariable, engine.GraphLocal:
		// Temporary values: kept while anything refers to them.
		return len(dependents) > 0
	case engine.GraphOutput:
		return v.Module.IsRoot() || len(dependents) > 0
	case engine.GraphProvider:
		for _, d := range dependents {
			if d.Kind != engine.GraphProvider {
				return true
			}
		}
		return false
	case engine.GraphResource, engine.GraphModuleCall:
		if v.Kind == engine.GraphResource && changing[v.Key] {
			return true
		}
		for _, d := range dependents {
			if d.Kind != engine.GraphOutput || !d.Module.IsRoot() {
				return true
			}
		}
		return false
	}
	return true
}
