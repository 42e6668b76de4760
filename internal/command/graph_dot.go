package command

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plans"
)

// graphKind is which operation a drawn graph is for; it decides how the
// engine's vertices are shown.
type graphKind int

const (
	graphOfPlan graphKind = iota
	// graphOfApply shows each resource's planned instance changes as nodes
	// of their own, after the resource's expansion.
	graphOfApply
	// graphOfDestroy is an apply graph that deletes objects: only what the
	// deletions need is drawn, as OpenTofu prunes its destroy graphs.
	graphOfDestroy
)

// drawing is a graph as the DOT text shows it: nodes named as OpenTofu
// names them ("aws_instance.a (expand)", "provider[\"…\"] (close)"), the
// declared ones with a label and shape, and edges from a node to what it
// depends on.
type drawing struct {
	declared map[string]dotNode
	edges    map[string]map[string]bool
}

type dotNode struct{ label, shape string }

// vertexEnds are the nodes one engine vertex is drawn as: the ones its
// dependencies leave from and the ones its dependents point to. They
// differ for a resource whose instances are drawn after its expansion.
type vertexEnds struct{ from, to []string }

func newDrawing() *drawing {
	return &drawing{declared: map[string]dotNode{}, edges: map[string]map[string]bool{}}
}

func (d *drawing) node(name string) {
	if d.edges[name] == nil {
		d.edges[name] = map[string]bool{}
	}
}

func (d *drawing) declare(name, label, shape string) {
	d.node(name)
	d.declared[name] = dotNode{label: label, shape: shape}
}

func (d *drawing) connect(from, to string) {
	if from == to {
		return
	}
	d.node(from)
	d.node(to)
	d.edges[from][to] = true
}

// drawGraph renders g in the DOT layout of OpenTofu's graph command: every
// node in one "root" subgraph, named with a "[root] " prefix, nodes that
// stand for configuration objects declared with a label and shape, and
// edges after transitive reduction (unless the graph has cycles, whose
// edges -draw-cycles draws in red).
func drawGraph(g *engine.OperationGraph, kind graphKind, drawCycles bool) string {
	vertices := g.Vertices
	if kind != graphOfPlan {
		vertices = withoutOrphans(vertices)
	}
	var refsDropped map[string]bool
	switch kind {
	case graphOfDestroy:
		vertices, refsDropped = prunedForDestroy(vertices, g.Changes)
	case graphOfApply:
		vertices, refsDropped = prunedForApply(vertices, g.Changes)
	}
	d := newDrawing()
	creates, destroys := instanceNodes(g.Changes)
	ends := map[string]vertexEnds{}
	for _, v := range vertices {
		ends[v.Key] = d.addVertex(v, kind, creates[v.Resource.String()], destroys[v.Resource.String()], refsDropped[v.Key])
	}
	destroying := map[string]bool{}
	for _, v := range vertices {
		destroying[v.Key] = v.Kind == engine.GraphDestroy
	}
	for _, v := range vertices {
		for _, dep := range dependenciesDrawn(v) {
			from := ends[v.Key].from
			if destroying[dep] {
				// A replacement's create waits for the delete (and a
				// resource's changes for the deletions they replace), not
				// the resource's expansion: drawn from the instance nodes.
				from = ends[v.Key].to
			}
			for _, source := range from {
				for _, to := range ends[dep].to {
					d.connect(source, to)
				}
			}
		}
		for _, call := range v.WholeModules {
			for _, from := range ends[v.Key].from {
				d.connect(from, call+" (close)")
			}
		}
	}
	d.addProviderCloses(vertices, ends)
	d.addModuleCloses(vertices, ends)
	if kind != graphOfPlan {
		d.addAllModuleCloses(g.Vertices)
	}
	if len(g.Cycles) == 0 {
		d.reduce()
	}
	d.addRoot()
	return d.dot(cycleEdges(g.Cycles, ends, drawCycles))
}

// addVertex declares the nodes of v and returns them.
func (d *drawing) addVertex(v engine.GraphVertex, kind graphKind, creates, destroys []string, noReference bool) vertexEnds {
	single := func(name string) vertexEnds {
		d.node(name)
		return vertexEnds{from: []string{name}, to: []string{name}}
	}
	switch v.Kind {
	case engine.GraphProvider:
		d.declare(v.Key, v.Key, "diamond")
		return single(v.Key)
	case engine.GraphVariable:
		// OpenTofu draws a variable as two nodes: the one that takes its
		// value (a root variable, or a module's "(expand, input)") and
		// the "(expand, reference)" node the variable's users wait for.
		input := v.Key + " (expand, input)"
		if v.Module.IsRoot() {
			input = v.Key
			d.declare(input, v.Key, "note")
			if noReference {
				return single(input)
			}
		}
		reference := v.Key + " (expand, reference)"
		d.connect(reference, input)
		return vertexEnds{from: []string{input}, to: []string{reference}}
	case engine.GraphResource:
		expand := v.Key + " (expand)"
		d.declare(expand, v.Key, "box")
		if len(creates) == 0 {
			return single(expand)
		}
		for _, inst := range creates {
			d.declare(inst, v.Key, "box")
			d.connect(inst, expand)
		}
		return vertexEnds{from: []string{expand}, to: creates}
	case engine.GraphOrphan:
		d.declare(v.Key, v.Resource.String(), "box")
		return single(v.Key)
	case engine.GraphDestroy:
		if len(destroys) == 0 {
			destroys = []string{v.Key}
		}
		for _, inst := range destroys {
			d.declare(inst, v.Resource.String(), "box")
		}
		return vertexEnds{from: destroys, to: destroys}
	case engine.GraphCheck:
		if kind != graphOfPlan {
			break
		}
		// OpenTofu's plan reports a check's result in a node of its own,
		// which the check's expansion waits for.
		expand, report := v.Key+" (expand)", v.Key+" (report)"
		d.connect(expand, report)
		return vertexEnds{from: []string{expand}, to: []string{expand}}
	}
	return single(v.Key + " (expand)")
}

// dependenciesDrawn are v's dependencies other than the module calls it
// refers to as a whole and their outputs.
func dependenciesDrawn(v engine.GraphVertex) []string {
	if len(v.WholeModules) == 0 {
		return v.DependsOn
	}
	var out []string
	for _, dep := range v.DependsOn {
		covered := false
		for _, call := range v.WholeModules {
			if dep == call || strings.HasPrefix(dep, call+".output.") {
				covered = true
			}
		}
		if !covered {
			out = append(out, dep)
		}
	}
	return out
}

// instanceNodes names the instance nodes of an apply graph's changes, by
// configuration resource: the ones that create or update objects, and the
// ones that delete them.
func instanceNodes(changes []*plans.ResourceInstanceChangeSrc) (creates, destroys map[string][]string) {
	creates, destroys = map[string][]string{}, map[string][]string{}
	for _, c := range changes {
		resource := c.Addr.ContainingResource().Config().String()
		if c.Action == plans.Delete || c.Action.IsReplace() {
			name := c.Addr.String() + " (destroy)"
			if c.DeposedKey != "" {
				name = fmt.Sprintf("%s (destroy deposed %s)", c.Addr, c.DeposedKey)
			}
			destroys[resource] = appendNew(destroys[resource], name)
		}
		if c.Action != plans.Delete && c.Action != plans.NoOp {
			creates[resource] = appendNew(creates[resource], c.Addr.String())
		}
	}
	return creates, destroys
}

func appendNew(list []string, name string) []string {
	if slices.Contains(list, name) {
		return list
	}
	return append(list, name)
}

// addProviderCloses adds each provider's "(close)" node, after every node
// that works with the provider: the provider process is stopped there.
func (d *drawing) addProviderCloses(vertices []engine.GraphVertex, ends map[string]vertexEnds) {
	for _, v := range vertices {
		if v.Kind != engine.GraphResource && v.Kind != engine.GraphOrphan && v.Kind != engine.GraphDestroy {
			continue
		}
		for _, dep := range v.DependsOn {
			if !strings.Contains(dep, "provider[") {
				continue
			}
			for _, user := range ends[v.Key].to {
				d.connect(dep+" (close)", user)
			}
		}
	}
}

// addModuleCloses adds each module call's "(close)" node, after every node
// of the called module and the modules it calls in turn.
func (d *drawing) addModuleCloses(vertices []engine.GraphVertex, ends map[string]vertexEnds) {
	var calls []string
	for _, v := range vertices {
		if v.Kind == engine.GraphModuleCall {
			calls = append(calls, v.Key)
		}
	}
	for _, call := range calls {
		closeNode := call + " (close)"
		d.node(closeNode)
		for _, v := range vertices {
			module := v.Module.String()
			if v.Kind == engine.GraphProvider || (module != call && !strings.HasPrefix(module, call+".")) {
				continue
			}
			for _, name := range ends[v.Key].to {
				d.connect(closeNode, name)
			}
			if v.Kind == engine.GraphModuleCall {
				d.connect(closeNode, v.Key+" (close)")
			}
		}
	}
}

// addAllModuleCloses adds the "(close)" node of every module call to an
// apply graph, as OpenTofu keeps them when it prunes the rest of the
// module: each after the closes of the calls in its module.
func (d *drawing) addAllModuleCloses(all []engine.GraphVertex) {
	for _, v := range all {
		if v.Kind != engine.GraphModuleCall {
			continue
		}
		d.node(v.Key + " (close)")
		if !v.Module.IsRoot() {
			d.connect(v.Module.String()+" (close)", v.Key+" (close)")
		}
	}
}

// addRoot adds the "root" node, after every node nothing else waits for.
func (d *drawing) addRoot() {
	waited := map[string]bool{}
	for _, deps := range d.edges {
		for to := range deps {
			waited[to] = true
		}
	}
	var leaves []string
	for name := range d.edges {
		if !waited[name] {
			leaves = append(leaves, name)
		}
	}
	for _, name := range leaves {
		d.connect("root", name)
	}
}

// cycleEdges are the edges between nodes of one cycle, drawn in red with
// -draw-cycles.
func cycleEdges(cycles [][]string, ends map[string]vertexEnds, drawCycles bool) map[[2]string]bool {
	out := map[[2]string]bool{}
	if !drawCycles {
		return out
	}
	for _, cycle := range cycles {
		inCycle := map[string]bool{}
		for _, key := range cycle {
			for _, name := range append(slices.Clone(ends[key].from), ends[key].to...) {
				inCycle[name] = true
			}
		}
		for name := range inCycle {
			for other := range inCycle {
				out[[2]string{name, other}] = true
			}
		}
	}
	return out
}

// dot prints the drawing: declared nodes sorted by name, then edges
// sorted as text, as OpenTofu orders them.
func (d *drawing) dot(red map[[2]string]bool) string {
	var b strings.Builder
	b.WriteString("digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n")
	for _, name := range slices.Sorted(maps.Keys(d.declared)) {
		n := d.declared[name]
		fmt.Fprintf(&b, "\t\t%s [label = %q, shape = %q]\n", dotName(name), n.label, n.shape)
	}
	var lines []string
	for from, deps := range d.edges {
		for to := range deps {
			line := dotName(from) + " -> " + dotName(to)
			if red[[2]string{from, to}] {
				line += ` [color = "red", penwidth = "2.0"]`
			}
			lines = append(lines, line)
		}
	}
	slices.Sort(lines)
	for _, line := range lines {
		b.WriteString("\t\t" + line + "\n")
	}
	b.WriteString("\t}\n}\n")
	return b.String()
}

// dotName is a node's quoted DOT identifier.
func dotName(name string) string {
	return strconv.Quote("[root] " + name)
}
