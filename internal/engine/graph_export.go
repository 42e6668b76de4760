package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// GraphVertexKind says what a vertex of an OperationGraph stands for.
type GraphVertexKind int

// The kinds of vertices a walk has.
const (
	GraphProvider GraphVertexKind = iota
	GraphVariable
	GraphLocal
	GraphOutput
	GraphModuleCall
	GraphResource
	GraphCheck
	// GraphOrphan is a resource left in state that the configuration no
	// longer declares.
	GraphOrphan
	// GraphDestroy deletes the objects of one resource during apply.
	GraphDestroy
)

// GraphVertex is one vertex of an OperationGraph.
type GraphVertex struct {
	// Key names the vertex uniquely, as the engine's messages do:
	// "module.a.tpf_thing.x", "module.a.var.v", "provider[\"…\"].alias",
	// "tpf_thing.gone (orphan)", "tpf_thing.x (destroy)".
	Key  string
	Kind GraphVertexKind
	// Module is the module the object is declared in; for a module call,
	// the calling module.
	Module addrs.Module
	// Resource is the resource of GraphResource, GraphOrphan and
	// GraphDestroy vertices.
	Resource addrs.ConfigResource
	// DependsOn are the keys of the vertices that must finish first,
	// sorted.
	DependsOn []string
	// WholeModules are the keys of the module calls the vertex refers to
	// as a whole ("module.net", not "module.net.id"), sorted; the vertex
	// depends on the call and every output of the called module.
	WholeModules []string
}

// OperationGraph is the dependency graph a plan or apply walk runs, for
// drawing: one vertex per configuration object (expanded into instances
// when the walk reaches it), per resource left only in state, and, in apply
// graphs, per resource whose objects are deleted.
type OperationGraph struct {
	// Vertices are sorted by key.
	Vertices []GraphVertex
	// Cycles are the sets of vertex keys that depend on one another; the
	// walk refuses to start while there are any.
	Cycles [][]string
	// Changes are an apply graph's planned resource instance changes, so
	// a drawing can show the instances each resource vertex works on.
	Changes []*plans.ResourceInstanceChangeSrc
}

// PlanGraph builds the graph a plan in mode would walk, without calling
// providers other than for their schemas (which say where the references
// in resource and provider blocks are). Cycles are reported as error
// diagnostics and listed in the graph, which is returned whenever it
// could be built.
func (e *Engine) PlanGraph(ctx context.Context, mode plans.Mode) (*OperationGraph, diags.Diagnostics) {
	snap, set, ds := e.graphInputs(ctx)
	if ds.HasErrors() {
		return nil, ds
	}
	rf, rds := e.prepareRefactoring(snap, mode)
	if ds = ds.Append(rds); rds.HasErrors() {
		return nil, ds
	}
	w := e.newWalker(ctx, walkPlan, rf.snapshot, set)
	w.planOpts = PlanOpts{Mode: mode}
	g, gds := w.buildGraph(rf.snapshot.State)
	return exportGraph(g, nil), ds.Append(gds)
}

// ApplyGraph builds the graph applying plan would walk: the plan graph
// with a destroy vertex for every resource whose objects plan deletes,
// ordered after everything that depends on them. With a nil plan it is
// the graph of applying an empty plan.
func (e *Engine) ApplyGraph(ctx context.Context, plan *plans.Plan) (*OperationGraph, diags.Diagnostics) {
	snap, set, ds := e.graphInputs(ctx)
	if ds.HasErrors() {
		return nil, ds
	}
	if plan == nil {
		plan = &plans.Plan{UIMode: plans.NormalMode}
	}
	return e.applyGraphOf(ctx, plan, snap, set, ds)
}

// DestroyGraph is the apply graph of a plan that deletes every managed
// object in the workspace's records, the order `destroy` works in.
func (e *Engine) DestroyGraph(ctx context.Context) (*OperationGraph, diags.Diagnostics) {
	snap, set, ds := e.graphInputs(ctx)
	if ds.HasErrors() {
		return nil, ds
	}
	return e.applyGraphOf(ctx, deleteEverythingPlan(snap.State), snap, set, ds)
}

func (e *Engine) applyGraphOf(ctx context.Context, plan *plans.Plan, snap *recordstore.Snapshot, set *providerSet, ds diags.Diagnostics) (*OperationGraph, diags.Diagnostics) {
	w := e.newWalker(ctx, walkApply, snap, set)
	w.applier = newApplier(plan, snap, nil)
	w.planOpts = PlanOpts{Mode: plan.UIMode}
	g, gds := w.buildGraph(snap.State)
	ds = ds.Append(gds)
	if !gds.HasErrors() {
		w.cbdForced = w.createBeforeDestroyForced(g)
		ds = ds.Append(w.addDestroyVertices(g))
	}
	return exportGraph(g, plan.Changes.Resources), ds
}

// graphInputs loads the workspace's records and the providers' schemas.
func (e *Engine) graphInputs(ctx context.Context) (*recordstore.Snapshot, *providerSet, diags.Diagnostics) {
	snap, err := e.opts.State.Load(ctx)
	if err != nil {
		return nil, nil, diags.Diagnostics{diags.Errorf("Cannot read the state", "Reading workspace %q failed: %s", e.opts.Workspace, err)}
	}
	set, ds := e.loadSchemas(ctx, neededProviders(e.opts.Config, snap.State))
	return snap, set, ds
}

// deleteEverythingPlan is a destroy plan for every object of every managed
// resource in state, current and deposed.
func deleteEverythingPlan(state *states.State) *plans.Plan {
	plan := &plans.Plan{UIMode: plans.DestroyMode}
	for _, entry := range state.AllResourceInstances() {
		if entry.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		provider := addrs.AbsProviderConfigInstance{Config: entry.ProviderConfig}
		add := func(deposed addrs.DeposedKey) {
			change := &plans.ResourceInstanceChangeSrc{}
			change.Addr, change.PrevRunAddr, change.DeposedKey, change.ProviderAddr = entry.Addr, entry.Addr, deposed, provider
			change.Action = plans.Delete
			plan.Changes.Resources = append(plan.Changes.Resources, change)
		}
		if entry.Instance.Current != nil {
			add(addrs.NotDeposed)
		}
		for _, key := range entry.Instance.SortedDeposedKeys() {
			add(key)
		}
	}
	return plan
}

func exportGraph(g *graph, changes []*plans.ResourceInstanceChangeSrc) *OperationGraph {
	out := &OperationGraph{Cycles: g.cycles(), Changes: changes}
	for key, v := range g.vertices {
		gv := GraphVertex{Key: key}
		if ev, ok := v.(*ephemeralVertex); ok {
			v = &ev.resourceVertex // drawn as the resource block it is
		}
		switch v := v.(type) {
		case *providerVertex:
			gv.Kind, gv.Module = GraphProvider, v.addr.Module
		case *variableVertex:
			gv.Kind, gv.Module = GraphVariable, v.module.Path
		case *localVertex:
			gv.Kind, gv.Module = GraphLocal, v.module.Path
		case *outputVertex:
			gv.Kind, gv.Module = GraphOutput, v.module.Path
		case *callVertex:
			gv.Kind, gv.Module = GraphModuleCall, v.module.Path
		case *resourceVertex:
			gv.Kind, gv.Module = GraphResource, v.module.Path
			gv.Resource = addrs.ConfigResource{Module: v.module.Path, Resource: v.resource.Addr()}
		case *checkVertex:
			gv.Kind, gv.Module = GraphCheck, v.module.Path
		case *orphanVertex:
			gv.Kind, gv.Module, gv.Resource = GraphOrphan, v.addr.Module, v.addr
		case *destroyVertex:
			gv.Kind, gv.Module, gv.Resource = GraphDestroy, v.addr.Module, v.addr
		}
		gv.WholeModules = wholeModuleReferences(v)
		for dep := range g.deps[key] {
			gv.DependsOn = append(gv.DependsOn, dep)
		}
		slices.Sort(gv.DependsOn)
		out.Vertices = append(out.Vertices, gv)
	}
	slices.SortFunc(out.Vertices, func(a, b GraphVertex) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// wholeModuleReferences lists the module calls v's expressions refer to
// as a whole, by vertex key. References are found without the providers'
// schemas: a whole-module reference is a traversal wherever it appears.
func wholeModuleReferences(v vertex) []string {
	var module *config.Config
	var exprs []hcl.Expression
	var bodies []hcl.Body
	var traversals []hcl.Traversal
	rules := func(rules []*config.CheckRule) {
		for _, rule := range rules {
			exprs = append(exprs, rule.Condition, rule.ErrorMessage)
		}
	}
	switch v := v.(type) {
	case *variableVertex:
		if v.module.Parent == nil {
			return nil
		}
		// The argument is written in, and refers from, the caller.
		module, exprs = v.module.Parent, []hcl.Expression{v.module.CallArgument(v.variable.Name)}
	case *localVertex:
		module, exprs = v.module, []hcl.Expression{v.local.Expr}
	case *outputVertex:
		module, exprs, traversals = v.module, []hcl.Expression{v.output.Expr}, v.output.DependsOn
		rules(v.output.Preconditions)
	case *callVertex:
		module, exprs, traversals = v.module, []hcl.Expression{v.call.Count, v.call.ForEach, v.call.Enabled}, v.call.DependsOn
	case *providerVertex:
		if v.block == nil {
			return nil
		}
		module, exprs, bodies = v.module, []hcl.Expression{v.block.ForEach}, []hcl.Body{v.block.Config}
	case *resourceVertex:
		r := v.resource
		module, exprs, bodies, traversals = v.module, []hcl.Expression{r.Count, r.ForEach, r.Enabled}, []hcl.Body{r.Config}, r.DependsOn
		rules(r.Preconditions)
		rules(r.Postconditions)
	case *checkVertex:
		module = v.module
		rules(v.check.Asserts)
	default:
		return nil
	}
	for _, expr := range exprs {
		if expr != nil {
			traversals = append(traversals, expr.Variables()...)
		}
	}
	for _, body := range bodies {
		traversals = append(traversals, bodyTraversals(body)...)
	}
	var calls []string
	for _, t := range traversals {
		ref, ds := addrs.ParseRef(t)
		if ds.HasErrors() {
			continue
		}
		switch s := ref.Subject.(type) {
		case addrs.ModuleCall:
			calls = append(calls, modulePrefix(module.Path)+"module."+s.Name)
		case addrs.ModuleCallInstance:
			calls = append(calls, modulePrefix(module.Path)+"module."+s.Call.Name)
		}
	}
	slices.Sort(calls)
	return slices.Compact(calls)
}

// bodyTraversals lists the references in a body and its nested blocks
// without the schema that decodes it.
func bodyTraversals(body hcl.Body) []hcl.Traversal {
	if body == nil {
		return nil
	}
	if native, ok := body.(*hclsyntax.Body); ok {
		var out []hcl.Traversal
		for _, attr := range native.Attributes {
			out = append(out, attr.Expr.Variables()...)
		}
		for _, block := range native.Blocks {
			out = append(out, bodyTraversals(block.Body)...)
		}
		return out
	}
	// A JSON body's nested blocks cannot be told from attributes without
	// the schema; its attributes are what can be read.
	attrs, _ := body.JustAttributes()
	var out []hcl.Traversal
	for _, attr := range attrs {
		out = append(out, attr.Expr.Variables()...)
	}
	return out
}
