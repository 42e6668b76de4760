package engine

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/states"
)

// The vertices of a walk: one per configuration object (not per instance;
// a vertex expands into its instances when it runs).
type (
	providerVertex struct {
		addr   addrs.AbsProviderConfig
		module *config.Config   // where the provider block is
		block  *config.Provider // nil for an implied empty configuration
	}
	variableVertex struct {
		module   *config.Config
		variable *config.Variable
	}
	localVertex struct {
		module *config.Config
		local  *config.Local
	}
	outputVertex struct {
		module *config.Config
		output *config.Output
	}
	callVertex struct {
		module *config.Config // the calling module
		call   *config.ModuleCall
	}
	resourceVertex struct {
		module   *config.Config
		resource *config.Resource
		provider addrs.AbsProviderConfig
	}
	checkVertex struct {
		module *config.Config
		check  *config.Check
	}
	// ephemeralVertex opens the instances of an ephemeral block; they are
	// closed once everything that depends on them is done.
	ephemeralVertex struct {
		resourceVertex
	}
	// orphanVertex is a resource in state that the configuration no
	// longer has, or whose module is gone.
	orphanVertex struct {
		addr     addrs.ConfigResource
		provider addrs.AbsProviderConfig
	}
	// destroyVertex deletes the objects of one resource that the plan
	// deletes (apply only), after everything that depends on them.
	destroyVertex struct {
		addr addrs.ConfigResource
	}
)

func modulePrefix(path addrs.Module) string {
	if path.IsRoot() {
		return ""
	}
	return path.String() + "."
}

func (v *providerVertex) key() string { return v.addr.String() }
func (v *variableVertex) key() string {
	return modulePrefix(v.module.Path) + "var." + v.variable.Name
}
func (v *localVertex) key() string  { return modulePrefix(v.module.Path) + "local." + v.local.Name }
func (v *outputVertex) key() string { return modulePrefix(v.module.Path) + "output." + v.output.Name }
func (v *callVertex) key() string   { return modulePrefix(v.module.Path) + "module." + v.call.Name }
func (v *resourceVertex) key() string {
	return addrs.ConfigResource{Module: v.module.Path, Resource: v.resource.Addr()}.String()
}
func (v *checkVertex) key() string   { return modulePrefix(v.module.Path) + "check." + v.check.Name }
func (v *orphanVertex) key() string  { return v.addr.String() + " (orphan)" }
func (v *destroyVertex) key() string { return v.addr.String() + " (destroy)" }

func callKey(path addrs.Module) string {
	return modulePrefix(path.Parent()) + "module." + path[len(path)-1]
}

// buildGraph makes the walk's graph: a vertex per configuration object
// and per resource left only in state, with an edge for every reference,
// depends_on entry, provider and enclosing module call.
func (w *walker) buildGraph(prior *states.State) (*graph, diags.Diagnostics) {
	g := newGraph()
	if missing := config.MissingProviderConfigs(w.cfg, false); missing.HasErrors() {
		return g, diags.Diagnostics{}.Append(missing)
	}
	var refs []pendingRefs
	w.cfg.DeepEach(func(c *config.Config) {
		refs = append(refs, w.addModuleVertices(g, c)...)
	})
	refs = append(refs, w.importReferences(w.cfg)...)
	if w.op != walkEval {
		w.addOrphanVertices(g, prior)
	}
	ds := undeclaredFunctionProviders(refs)
	if ds.HasErrors() {
		return g, ds
	}
	ds = w.addFunctionProviders(g, refs)
	for _, r := range refs {
		for _, ref := range r.refs {
			for _, target := range referenceTargets(r.module, ref) {
				g.connect(r.from, target)
			}
		}
		for _, fn := range r.functions {
			if fn.IsBuiltin() {
				continue
			}
			g.connect(r.from, resolveProviderConfig(r.module, addrs.LocalProviderConfig{LocalName: fn.ProviderName, Alias: fn.Alias}).String())
		}
		if !r.module.Path.IsRoot() {
			g.connect(r.from, callKey(r.module.Path))
		}
	}
	for _, cycle := range g.cycles() {
		// OpenTofu's graph error: the summary names the cycle, and there is
		// no detail.
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: CycleSummaryPrefix + describeCycle(cycle)})
	}
	return g, ds
}

// undeclaredFunctionProviders refuses provider-defined functions called
// through a name the calling module does not declare in required_providers.
func undeclaredFunctionProviders(refs []pendingRefs) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, r := range refs {
		declared := func(name string) bool { return r.module.Module.RequiredProviders[name] != nil }
		ds = ds.Append(lang.UndeclaredFunctionProviders(r.functions, declared))
	}
	return ds
}

// addFunctionProviders gives every provider configuration whose functions
// are called a vertex, and its provider a schema, even when no resource
// uses it: a provider may be required for its functions alone.
func (w *walker) addFunctionProviders(g *graph, refs []pendingRefs) diags.Diagnostics {
	var missing []addrs.Provider
	seen := map[string]bool{}
	for _, r := range refs {
		for _, fn := range r.functions {
			if fn.IsBuiltin() {
				continue
			}
			addr := resolveProviderConfig(r.module, addrs.LocalProviderConfig{LocalName: fn.ProviderName, Alias: fn.Alias})
			if _, ok := w.providers.schemas.Providers[addr.Provider]; !ok && !seen[addr.Provider.String()] {
				seen[addr.Provider.String()] = true
				missing = append(missing, addr.Provider)
			}
			w.ensureProviderVertex(g, addr)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return w.providers.loadSchemas(w.ctx, missing)
}

// pendingRefs are the references of one vertex, turned into edges once
// every vertex exists.
type pendingRefs struct {
	from      string
	module    *config.Config
	refs      []*addrs.Reference
	functions []lang.ProviderFunctionRef
}

func (w *walker) addModuleVertices(g *graph, c *config.Config) []pendingRefs {
	var out []pendingRefs
	add := func(v vertex, exprs []hcl.Expression, traversals []hcl.Traversal, bodies ...bodyWithSpec) {
		g.add(v)
		p := pendingRefs{from: v.key(), module: c}
		for _, expr := range exprs {
			if expr == nil {
				continue
			}
			r, _ := lang.ReferencesInExpr(expr)
			p.refs = append(p.refs, r...)
			p.functions = append(p.functions, lang.ProviderFunctionsInExpr(expr)...)
		}
		for _, t := range traversals {
			if r, ds := addrs.ParseRef(t); !ds.HasErrors() {
				p.refs = append(p.refs, r)
			}
		}
		for _, b := range bodies {
			r, _ := lang.ReferencesInBlock(b.body, b.spec)
			p.refs = append(p.refs, r...)
			p.functions = append(p.functions, lang.ProviderFunctionsInBody(b.body)...)
		}
		out = append(out, p)
	}
	m := c.Module
	for _, v := range m.Variables {
		vv := &variableVertex{module: c, variable: v}
		if c.Parent != nil {
			// The argument is written in the caller: resolve it there.
			arg := c.CallArgument(v.Name)
			r, _ := lang.ReferencesInExpr(arg)
			out = append(out, pendingRefs{from: vv.key(), module: c.Parent, refs: r, functions: lang.ProviderFunctionsInExpr(arg)})
		}
		add(vv, validationExprs(v), nil)
	}
	for _, l := range m.Locals {
		add(&localVertex{module: c, local: l}, []hcl.Expression{l.Expr}, nil)
	}
	for _, o := range m.Outputs {
		exprs := []hcl.Expression{o.Expr}
		for _, rule := range o.Preconditions {
			exprs = append(exprs, rule.Condition, rule.ErrorMessage)
		}
		add(&outputVertex{module: c, output: o}, exprs, o.DependsOn)
	}
	for _, call := range m.ModuleCalls {
		add(&callVertex{module: c, call: call}, []hcl.Expression{call.Count, call.ForEach, call.Enabled}, call.DependsOn)
	}
	for _, p := range m.ProviderConfigs {
		if !c.HasOwnProviderConfig(p.Addr()) {
			continue // an empty block standing in for a passed configuration
		}
		addr := addrs.AbsProviderConfig{Module: c.Path, Provider: m.ProviderForLocalName(p.Name), Alias: p.Alias}
		add(&providerVertex{addr: addr, module: c, block: p}, []hcl.Expression{p.ForEach}, nil, w.providerBody(addr.Provider, p.Config))
	}
	for _, r := range m.Resources {
		rv := &resourceVertex{module: c, resource: r, provider: resolveProviderConfig(c, r.ProviderConfigAddr())}
		w.ensureProviderVertex(g, rv.provider)
		exprs := []hcl.Expression{r.Count, r.ForEach, r.Enabled, keyedProviderRef(r)}
		for _, rule := range append(append([]*config.CheckRule{}, r.Preconditions...), r.Postconditions...) {
			exprs = append(exprs, rule.Condition, rule.ErrorMessage)
		}
		if r.Managed != nil {
			exprs = append(exprs, r.Managed.ReplaceTriggeredBy...)
			exprs = append(exprs, r.Managed.PreventDestroy)
			attributeTriggerTargets(c, r, w.attrTriggerTargets, w.triggerTargets)
		}
		add(blockVertex(rv), exprs, r.DependsOn, w.resourceBody(rv))
		out = append(out, pendingRefs{from: rv.key(), module: c})
		g.deps[rv.key()][rv.provider.String()] = struct{}{}
	}
	for _, chk := range m.Checks {
		var exprs []hcl.Expression
		for _, rule := range chk.Asserts {
			exprs = append(exprs, rule.Condition, rule.ErrorMessage)
		}
		cv := &checkVertex{module: c, check: chk}
		add(cv, exprs, nil)
		connectCheckData(g, cv)
	}
	return out
}

// connectCheckData makes a check wait for its scoped data source: the
// check's outcome includes the data source's, whether or not an assertion
// reads it.
func connectCheckData(g *graph, cv *checkVertex) {
	if data := cv.check.DataResource; data != nil {
		g.connect(cv.key(), addrs.ConfigResource{Module: cv.module.Path, Resource: data.Addr()}.String())
	}
}

// validationExprs are the expressions of a variable's validation rules.
// They may refer to other objects of the module (OpenTofu's
// nodeInputVariableReference depends on everything its conditions and
// messages name), so the variable waits for them and everything reading
// the variable sees it validated.
func validationExprs(v *config.Variable) []hcl.Expression {
	var exprs []hcl.Expression
	for _, rule := range v.Validations {
		exprs = append(exprs, rule.Condition, rule.ErrorMessage)
	}
	return exprs
}

// blockVertex is the vertex of a resource, data or ephemeral block.
func blockVertex(rv *resourceVertex) vertex {
	if rv.resource.Mode == addrs.EphemeralResourceMode {
		return &ephemeralVertex{resourceVertex: *rv}
	}
	return rv
}

type bodyWithSpec struct {
	body hcl.Body
	spec hcldec.Spec
}

func (w *walker) providerBody(provider addrs.Provider, body hcl.Body) bodyWithSpec {
	if s, ok := w.providers.schemas.ProviderConfig(provider); ok && s.Block != nil {
		return bodyWithSpec{body: body, spec: s.Block.DecoderSpec()}
	}
	return bodyWithSpec{body: body, spec: hcldec.ObjectSpec{}}
}

func (w *walker) resourceBody(rv *resourceVertex) bodyWithSpec {
	r := rv.resource
	if s, ok := w.resourceSchema(r); ok {
		return bodyWithSpec{body: r.Config, spec: s.Block.DecoderSpec()}
	}
	return bodyWithSpec{body: r.Config, spec: hcldec.ObjectSpec{}}
}

// ensureProviderVertex adds the vertex of a provider configuration that
// has no provider block: an implied empty one.
func (w *walker) ensureProviderVertex(g *graph, addr addrs.AbsProviderConfig) {
	if _, ok := g.vertices[addr.String()]; ok {
		return
	}
	module := w.cfg.Descendant(addr.Module)
	if module == nil {
		module = w.cfg
	}
	g.add(&providerVertex{addr: addr, module: module})
}

// addOrphanVertices adds a vertex for each resource in state that the
// configuration does not declare.
func (w *walker) addOrphanVertices(g *graph, prior *states.State) {
	for _, res := range prior.SortedResources() {
		cfgAddr := res.Addr.Config()
		if _, ok := g.vertices[cfgAddr.String()]; ok {
			continue
		}
		if res.Addr.Resource.Mode == addrs.DataResourceMode {
			// A data source's result is read again on every run and has
			// no remote object to delete: one the configuration dropped
			// is dropped too, as Terraform does, even when its provider
			// is gone with it.
			continue
		}
		w.ensureProviderVertex(g, res.ProviderConfig)
		ov := &orphanVertex{addr: cfgAddr, provider: res.ProviderConfig}
		g.add(ov)
		g.connect(ov.key(), res.ProviderConfig.String())
	}
}

// referenceTargets are the vertex keys a reference made in module depends
// on.
func referenceTargets(module *config.Config, ref *addrs.Reference) []string {
	prefix := modulePrefix(module.Path)
	switch s := ref.Subject.(type) {
	case addrs.InputVariable:
		return []string{prefix + "var." + s.Name}
	case addrs.LocalValue:
		return []string{prefix + "local." + s.Name}
	case addrs.Resource:
		return []string{addrs.ConfigResource{Module: module.Path, Resource: s}.String()}
	case addrs.ResourceInstance:
		return []string{addrs.ConfigResource{Module: module.Path, Resource: s.Resource}.String()}
	case addrs.ModuleCall:
		return moduleTargets(module, s.Name, "")
	case addrs.ModuleCallInstance:
		return moduleTargets(module, s.Call.Name, "")
	case addrs.ModuleCallInstanceOutput:
		return moduleTargets(module, s.Call.Call.Name, s.Name)
	}
	return nil
}

// moduleTargets are a module call and the outputs of the child a reference
// to it reads: one when the reference names it, else all of them.
func moduleTargets(module *config.Config, call, output string) []string {
	child := module.Children[call]
	if child == nil {
		return nil
	}
	childPrefix := modulePrefix(child.Path)
	targets := []string{modulePrefix(module.Path) + "module." + call}
	if output != "" {
		return append(targets, childPrefix+"output."+output)
	}
	for name := range child.Module.Outputs {
		targets = append(targets, childPrefix+"output."+name)
	}
	return targets
}
