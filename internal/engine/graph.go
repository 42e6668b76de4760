package engine

import (
	"sort"
	"strings"
)

// graph is a dependency graph of vertices named by unique keys. An edge
// from a to b means a depends on b: b must finish before a starts.
type graph struct {
	vertices map[string]vertex
	deps     map[string]map[string]struct{}
}

// vertex is one unit of work of a walk.
type vertex interface {
	// key names the vertex uniquely in its graph and in messages.
	key() string
}

func newGraph() *graph {
	return &graph{vertices: map[string]vertex{}, deps: map[string]map[string]struct{}{}}
}

func (g *graph) add(v vertex) {
	k := v.key()
	if _, ok := g.vertices[k]; ok {
		return
	}
	g.vertices[k] = v
	g.deps[k] = map[string]struct{}{}
}

// connect makes from depend on to; edges to vertices that do not exist
// are ignored, so callers can add edges for every reference.
func (g *graph) connect(from, to string) {
	if from == to {
		return
	}
	if _, ok := g.vertices[to]; !ok {
		return
	}
	if set, ok := g.deps[from]; ok {
		set[to] = struct{}{}
	}
}

// connectUnlessCycle makes from depend on to unless to already depends on
// from, directly or not: for orderings that are wanted but must give way
// to the ones the configuration demands.
func (g *graph) connectUnlessCycle(from, to string) {
	if _, ok := g.vertices[from]; !ok || g.reaches(to, from) {
		return
	}
	g.connect(from, to)
}

// reaches reports whether from depends on to, directly or not.
func (g *graph) reaches(from, to string) bool {
	seen := map[string]bool{from: true}
	stack := []string{from}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for dep := range g.deps[k] {
			if dep == to {
				return true
			}
			if !seen[dep] {
				seen[dep] = true
				stack = append(stack, dep)
			}
		}
	}
	return false
}

// dependents inverts the edges: for each vertex, the vertices that depend
// on it.
func (g *graph) dependents() map[string][]string {
	out := make(map[string][]string, len(g.vertices))
	for from, set := range g.deps {
		for to := range set {
			out[to] = append(out[to], from)
		}
	}
	return out
}

// cycles returns each set of vertices that depend on one another, in a
// stable order (Tarjan's strongly connected components, O(V+E)).
func (g *graph) cycles() [][]string {
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var result [][]string
	next := 0
	var strongConnect func(v string)
	strongConnect = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := range g.deps[v] {
			if _, seen := index[w]; !seen {
				strongConnect(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var component []string
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			component = append(component, w)
			if w == v {
				break
			}
		}
		if len(component) > 1 {
			sort.Strings(component)
			result = append(result, component)
		}
	}
	keys := make([]string, 0, len(g.vertices))
	for k := range g.vertices {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, seen := index[k]; !seen {
			strongConnect(k)
		}
	}
	return result
}

// CycleSummaryPrefix begins the summary of the error for a cycle, which
// then names its objects.
const CycleSummaryPrefix = "Cycle: "

func describeCycle(component []string) string {
	return strings.Join(component, ", ")
}
