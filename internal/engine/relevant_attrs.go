package engine

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/plans"
)

// relevantAttributes lists the resource attributes the plan's changes may
// have read, as Terraform and OpenTofu do: for every change that does
// something (a deletion included), every root output that changes and
// every module output that is not null, what its configuration refers to,
// followed through locals, module variables, module outputs and the
// configuration of the resources referred to. An object's own drift is not
// relevant to its own change: the change already shows the difference.
// Renderers show drift outside a refresh-only plan only where it lies
// under one of these attributes.
func (w *walker) relevantAttributes(changes, drift []*plans.ResourceInstanceChangeSrc, outputs []*plans.OutputChangeSrc) []plans.ResourceAttr {
	a := &relevanceAnalyzer{w: w, visited: map[string]bool{}, attrs: map[string]plans.ResourceAttr{}}
	for _, list := range [][]*plans.ResourceInstanceChangeSrc{changes, drift} {
		for _, src := range list {
			a.known = append(a.known, src.Addr)
		}
	}
	for _, src := range changes {
		if src.Action != plans.NoOp && src.DeposedKey == addrs.NotDeposed {
			a.followResource(src.Addr.Module, src.Addr.Resource.Resource, nil)
		}
	}
	// As OpenTofu's relevantResourceAttrsForPlan does, what a changed
	// output reads is relevant too.
	for _, src := range outputs {
		if src.Action == plans.NoOp {
			continue
		}
		module := w.cfg.Descendant(src.Addr.Module.Module())
		if module == nil {
			continue
		}
		if out := module.Module.Outputs[src.Addr.OutputValue.Name]; out != nil {
			a.enqueueExpr(src.Addr.Module, out.Expr)
		}
	}
	// Module outputs are changes too while OpenTofu plans (node_output.go
	// records a "create" for every one whose value is not null; only the
	// root's reach the plan file), so what they read is relevant as well.
	a.followModuleOutputValues(w.cfg)
	a.drain()
	out := make([]plans.ResourceAttr, 0, len(a.attrs))
	for _, attr := range a.attrs {
		out = append(out, attr)
	}
	sort.Slice(out, func(i, j int) bool {
		return relevantAttrKey(out[i].Resource, out[i].Attr) < relevantAttrKey(out[j].Resource, out[j].Attr)
	})
	return out
}

// followModuleOutputValues queues the expressions of the outputs of every
// instance of the modules under cfg whose value is not null.
func (a *relevanceAnalyzer) followModuleOutputValues(cfg *config.Config) {
	names := make([]string, 0, len(cfg.Children))
	for name := range cfg.Children {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		child := cfg.Children[name]
		for _, inst := range a.w.values.moduleInstancesOf(child.Path) {
			for outName, out := range child.Module.Outputs {
				val, ok := a.w.values.get(a.w.values.outputs, namedKey(inst, outName))
				if !ok || val.IsNull() || !a.visit(inst.String()+".output."+outName) {
					continue
				}
				a.enqueueExpr(inst, out.Expr)
			}
		}
		a.followModuleOutputValues(child)
	}
}

// relevanceAnalyzer follows references from configuration to configuration,
// visiting each expression once.
type relevanceAnalyzer struct {
	w *walker
	// known are the instances the plan mentions: a reference to a whole
	// resource with count or for_each stands for each of them.
	known   []addrs.AbsResourceInstance
	pending []scopedReference
	visited map[string]bool
	attrs   map[string]plans.ResourceAttr
}

// scopedReference is a reference together with the module instance whose
// configuration it is written in.
type scopedReference struct {
	module addrs.ModuleInstance
	ref    *addrs.Reference
}

func relevantAttrKey(addr addrs.AbsResourceInstance, path cty.Path) string {
	key := addr.String()
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			key += "." + s.Name
		case cty.IndexStep:
			key += "[" + s.Key.GoString() + "]"
		}
	}
	return key
}

func (a *relevanceAnalyzer) emit(addr addrs.AbsResourceInstance, path cty.Path) {
	a.attrs[relevantAttrKey(addr, path)] = plans.ResourceAttr{Resource: addr, Attr: path}
}

// visit reports whether the thing named by key is seen for the first time.
func (a *relevanceAnalyzer) visit(key string) bool {
	if a.visited[key] {
		return false
	}
	a.visited[key] = true
	return true
}

func (a *relevanceAnalyzer) enqueue(module addrs.ModuleInstance, refs []*addrs.Reference) {
	for _, ref := range refs {
		a.pending = append(a.pending, scopedReference{module: module, ref: ref})
	}
}

func (a *relevanceAnalyzer) enqueueExpr(module addrs.ModuleInstance, expr hcl.Expression) {
	refs, _ := lang.ReferencesInExpr(expr)
	a.enqueue(module, refs)
}

func (a *relevanceAnalyzer) drain() {
	for len(a.pending) > 0 {
		next := a.pending[len(a.pending)-1]
		a.pending = a.pending[:len(a.pending)-1]
		a.follow(next)
	}
}

// follow records what one reference reads and queues the references of
// the configuration that gives it its value.
func (a *relevanceAnalyzer) follow(r scopedReference) {
	module := a.w.cfg.Descendant(r.module.Module())
	if module == nil {
		return
	}
	switch s := r.ref.Subject.(type) {
	case addrs.InputVariable:
		if r.module.IsRoot() || !a.visit(r.module.String()+".var."+s.Name) {
			return // a root variable's value comes from outside the configuration
		}
		a.enqueueExpr(r.module.Parent(), module.CallArgument(s.Name))
	case addrs.LocalValue:
		if l := module.Module.Locals[s.Name]; l != nil && a.visit(r.module.String()+".local."+s.Name) {
			a.enqueueExpr(r.module, l.Expr)
		}
	case addrs.ModuleCall:
		a.followModuleOutputs(r.module, module, s.Name, addrs.NoKey, false, "")
	case addrs.ModuleCallInstance:
		a.followModuleOutputs(r.module, module, s.Call.Name, s.Key, s.Key != addrs.NoKey, "")
	case addrs.ModuleCallInstanceOutput:
		a.followModuleOutputs(r.module, module, s.Call.Call.Name, s.Call.Key, s.Call.Key != addrs.NoKey, s.Name)
	case addrs.Resource:
		a.followResourceRef(r.module, s, addrs.NoKey, false, nil)
	case addrs.ResourceInstance:
		a.followResourceRef(r.module, s.Resource, s.Key, s.Key != addrs.NoKey, r.ref.Remaining)
	}
}

// followModuleOutputs follows a reference to a child module's output (all
// of them when output is empty) into each instance of the child it may
// name.
func (a *relevanceAnalyzer) followModuleOutputs(caller addrs.ModuleInstance, callerCfg *config.Config, call string, key addrs.InstanceKey, keyed bool, output string) {
	child := callerCfg.Children[call]
	if child == nil {
		return
	}
	instances := []addrs.ModuleInstance{caller.Child(call, key)}
	if !keyed {
		instances = a.childInstances(caller, call)
	}
	for _, instance := range instances {
		for name, out := range child.Module.Outputs {
			if output != "" && name != output {
				continue
			}
			if a.visit(instance.String() + ".output." + name) {
				a.enqueueExpr(instance, out.Expr)
			}
		}
	}
}

// childInstances are the instances of a module call the plan mentions, or
// the call's single instance when it mentions none.
func (a *relevanceAnalyzer) childInstances(caller addrs.ModuleInstance, call string) []addrs.ModuleInstance {
	seen := map[string]bool{}
	var out []addrs.ModuleInstance
	for _, addr := range a.known {
		m := addr.Module
		if len(m) <= len(caller) || !m[:len(caller)].Equal(caller) || m[len(caller)].Name != call {
			continue
		}
		instance := m[:len(caller)+1]
		if !seen[instance.String()] {
			seen[instance.String()] = true
			out = append(out, instance)
		}
	}
	if len(out) == 0 {
		out = append(out, caller.Child(call, addrs.NoKey))
	}
	return out
}

// followResourceRef records the attribute a reference to a resource reads
// and follows the configuration that sets it. An unkeyed reference to a
// resource with several instances stands for each of them.
func (a *relevanceAnalyzer) followResourceRef(module addrs.ModuleInstance, res addrs.Resource, key addrs.InstanceKey, keyed bool, remaining hcl.Traversal) {
	path := referencedPath(remaining)
	abs := addrs.AbsResource{Module: module, Resource: res}
	if res.Mode == addrs.EphemeralResourceMode {
		// Never in state, so never drifted: only what configures it may
		// be relevant.
		a.followResource(module, res, nil)
		return
	}
	if keyed {
		a.emit(abs.Instance(key), path)
	} else {
		found := false
		for _, addr := range a.known {
			if addr.ContainingResource().String() == abs.String() {
				a.emit(addr, path)
				found = true
			}
		}
		if !found {
			a.emit(abs.Instance(addrs.NoKey), path)
		}
	}
	a.followResource(module, res, path)
}

// followResource queues the references of a resource's configuration that
// may set the attribute at path: the argument itself when the
// configuration sets it, else (for the whole object) everything the block
// refers to. A computed attribute the configuration does not set comes
// from the provider alone.
func (a *relevanceAnalyzer) followResource(module addrs.ModuleInstance, res addrs.Resource, path cty.Path) {
	cfg := a.w.cfg.Descendant(module.Module())
	if cfg == nil {
		return
	}
	rc := cfg.Module.Resources[res]
	if rc == nil || rc.Config == nil {
		return
	}
	base := addrs.AbsResource{Module: module, Resource: res}.String()
	if len(path) == 0 {
		if !a.visit(base) {
			return
		}
		rv := &resourceVertex{module: cfg, resource: rc}
		body := a.w.resourceBody(rv)
		refs, _ := lang.ReferencesInBlock(body.body, body.spec)
		a.enqueue(module, refs)
		for _, expr := range []hcl.Expression{rc.Count, rc.ForEach, rc.Enabled} {
			if expr != nil {
				a.enqueueExpr(module, expr)
			}
		}
		return
	}
	name, ok := path[0].(cty.GetAttrStep)
	if !ok || !a.visit(base+"."+name.Name) || a.visited[base] {
		return
	}
	content, _, _ := rc.Config.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: name.Name}}})
	if content == nil {
		return
	}
	if attr := content.Attributes[name.Name]; attr != nil {
		a.enqueueExpr(module, attr.Expr)
	}
}

// referencedPath turns the steps after a reference's subject into an
// attribute path, stopping at the first step that is not a plain attribute
// or literal index (a splat reads everything beyond it).
func referencedPath(remaining hcl.Traversal) cty.Path {
	var path cty.Path
	for _, step := range remaining {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			path = path.GetAttr(s.Name)
		case hcl.TraverseIndex:
			path = path.Index(s.Key)
		default:
			return path
		}
	}
	return path
}
