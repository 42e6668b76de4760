package engine

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
)

// importTargets are the root module's import blocks, grouped by the
// resource their "to" names. A group is expanded (for_each) and evaluated
// (to, id) once, when the first instance of that resource is planned; the
// graph makes the resource wait for what the group's expressions refer to
// (importReferences), so variables and other values are known by then.
type importTargets struct {
	blocks     []*config.Import
	byResource map[string]*importGroup
}

// importGroup is the import blocks naming one resource.
type importGroup struct {
	blocks []*config.Import

	once    sync.Once
	byAddr  map[string]*importTarget
	evalErr diags.Diagnostics
}

// importTarget is one object an import block asks to adopt.
type importTarget struct {
	addr  addrs.AbsResourceInstance
	id    string
	block *config.Import
	// imported is the object `terrane import` brought in, as its import
	// and read returned it, which is what the command records.
	imported *states.ResourceInstanceObjectSrc
}

// findImportTargets checks that import blocks appear only in the root
// module, as in Terraform, and that each names a declared resource, and
// groups them by that resource.
func findImportTargets(cfg *config.Config) (*importTargets, diags.Diagnostics) {
	var ds diags.Diagnostics
	cfg.DeepEach(func(c *config.Config) {
		if len(c.Path) == 0 {
			return
		}
		for _, imp := range c.Module.Import {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Import block in a child module",
				Detail:  fmt.Sprintf("Import blocks are only allowed in the root module; this one is in %s. Move it to the root module and address the resource through its module call.", c.Path),
				Subject: imp.DeclRange.Ptr()})
		}
	})
	targets := &importTargets{blocks: cfg.Module.Import, byResource: map[string]*importGroup{}}
	for _, block := range cfg.Module.Import {
		static, _, ok := importTargetAddrs(block.To)
		if !ok {
			ds = ds.Append(invalidImportAddress(block))
			continue
		}
		module := cfg.Descendant(static.Module)
		// Only a managed resource's configuration can take an import; as
		// in OpenTofu, a data source's or an ephemeral resource's counts
		// as none.
		if module == nil || static.Resource.Mode != addrs.ManagedResourceMode || module.Module.Resources[static.Resource] == nil {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Configuration for import target does not exist",
				Detail:  fmt.Sprintf("The configuration for the given import %s does not exist. All target instances must have an associated configuration to be imported.", static),
				Subject: block.DeclRange.Ptr()})
			continue
		}
		group := targets.byResource[static.String()]
		if group == nil {
			group = &importGroup{}
			targets.byResource[static.String()] = group
		}
		group.blocks = append(group.blocks, block)
	}
	return targets, ds
}

func invalidImportAddress(block *config.Import) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import address",
		Detail:  "The \"to\" argument of an import block must name a managed resource instance, like aws_instance.web or module.net.aws_vpc.main[\"a\"].",
		Subject: block.To.Range().Ptr()}
}

// importReferences are the references a resource's import blocks make —
// their for_each, id, and the instance keys in their "to" — as graph
// edges from the resource, so they are known when its instances plan.
func (w *walker) importReferences(root *config.Config) []pendingRefs {
	if w.refactor == nil {
		return nil
	}
	var out []pendingRefs
	for key, group := range w.refactor.imports.byResource {
		p := pendingRefs{from: key, module: root}
		for _, block := range group.blocks {
			exprs := append([]hcl.Expression{block.ID, block.ForEach}, importKeyExprs(block.To)...)
			for _, expr := range exprs {
				if expr == nil {
					continue
				}
				refs, _ := lang.ReferencesInExpr(expr)
				p.refs = append(p.refs, refs...)
				p.functions = append(p.functions, lang.ProviderFunctionsInExpr(expr)...)
			}
		}
		out = append(out, p)
	}
	return out
}

// importKeyExprs are the instance key expressions inside an import
// block's "to" address, like each.key in tpf_thing.x[each.key].
func importKeyExprs(expr hcl.Expression) []hcl.Expression {
	switch e := expr.(type) {
	case *hclsyntax.RelativeTraversalExpr:
		return importKeyExprs(e.Source)
	case *hclsyntax.IndexExpr:
		return append(importKeyExprs(e.Collection), e.Key)
	}
	return nil
}

// importTargetFor returns the import planned for addr, evaluating the
// import blocks naming its resource on first use.
func (w *walker) importTargetFor(addr addrs.AbsResourceInstance) (*importTarget, diags.Diagnostics) {
	if target := w.planOpts.commandLineImport; target != nil && target.addr.String() == addr.String() {
		return target, nil
	}
	if w.refactor == nil {
		return nil, nil
	}
	group := w.refactor.imports.byResource[addr.ContainingResource().Config().String()]
	if group == nil {
		return nil, nil
	}
	group.once.Do(func() { group.byAddr, group.evalErr = w.evalImportBlocks(group.blocks) })
	if group.evalErr.HasErrors() {
		return nil, group.evalErr
	}
	return group.byAddr[addr.String()], nil
}

func (w *walker) evalImportBlocks(blocks []*config.Import) (map[string]*importTarget, diags.Diagnostics) {
	var ds diags.Diagnostics
	out := map[string]*importTarget{}
	root := w.cfg
	for _, block := range blocks {
		reps, eds := w.importRepetitions(block)
		if ds = ds.Append(eds); eds.HasErrors() {
			continue
		}
		for _, rep := range reps {
			scope := w.scopeIn(root, addrs.RootModuleInstance, rep, nil)
			target, tds := evalImportTarget(block, func(expr hcl.Expression, ty cty.Type) (cty.Value, hcl.Diagnostics) {
				return scope.EvalExpr(expr, ty)
			})
			if ds = ds.Append(tds); tds.HasErrors() {
				continue
			}
			if other, dup := out[target.addr.String()]; dup {
				ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Duplicate import configuration",
					Detail:  fmt.Sprintf("%s is already imported by the import block at %s. An object can be imported only once; remove one of the blocks.", target.addr, other.block.DeclRange),
					Subject: block.DeclRange.Ptr()})
				continue
			}
			out[target.addr.String()] = target
		}
	}
	return out, ds
}

// importRepetitions expands an import block's for_each. Besides a map or a
// set of strings, as for resources, an import block takes a list or tuple,
// as in OpenTofu: each.key is then the element's index.
func (w *walker) importRepetitions(block *config.Import) ([]repetition, diags.Diagnostics) {
	scope := w.scopeIn(w.cfg, addrs.RootModuleInstance, repetition{}, nil)
	if block.ForEach != nil {
		val, hd := scope.EvalExpr(block.ForEach, cty.DynamicPseudoType)
		if hd.HasErrors() {
			return nil, diags.Diagnostics{}.Append(hd)
		}
		if ty := val.Type(); (ty.IsTupleType() || ty.IsListType()) && val.IsWhollyKnown() && !val.IsNull() && !val.IsMarked() {
			var reps []repetition
			for it := val.ElementIterator(); it.Next(); {
				key, elem := it.Element()
				reps = append(reps, repetition{eachKey: key, eachValue: elem})
			}
			return reps, nil
		}
	}
	exp, ds := w.expand(scope, nil, block.ForEach, nil, lang.Unknowns{})
	if ds.HasErrors() || exp.unknown {
		return nil, ds
	}
	reps := make([]repetition, 0, len(exp.keys))
	for _, key := range exp.keys {
		reps = append(reps, exp.rep(key))
	}
	return reps, ds
}

// evalImportTarget works out one import block's target address and ID.
// The "to" address may index by an expression (each.key), so it is
// rebuilt as a traversal with the index evaluated.
func evalImportTarget(block *config.Import, eval func(hcl.Expression, cty.Type) (cty.Value, hcl.Diagnostics)) (*importTarget, hcl.Diagnostics) {
	traversal, ds := addressTraversal(block.To, eval)
	if ds.HasErrors() {
		return nil, ds
	}
	addr, ads := addrs.ParseAbsResourceInstance(traversal)
	if ads.HasErrors() || addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		return nil, append(ds, invalidImportAddress(block))
	}
	id, ids := eval(block.ID, cty.String)
	ds = append(ds, ids...)
	if ids.HasErrors() {
		return nil, ds
	}
	if id.HasMark(marks.Ephemeral) {
		// The ID is recorded in the plan, which no ephemeral value reaches.
		return nil, append(ds, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import id argument",
			Detail:  "Ephemeral values, or values derived from ephemeral values, cannot be used as import IDs: the ID is recorded in the plan.",
			Subject: block.ID.Range().Ptr()})
	}
	id, _ = id.Unmark()
	if !id.IsKnown() || id.IsNull() || id.AsString() == "" {
		return nil, append(ds, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import id argument",
			Detail:  fmt.Sprintf("The import ID for %s must be a non-empty string known while planning; it cannot depend on values known only after apply.", addr),
			Subject: block.ID.Range().Ptr()})
	}
	return &importTarget{addr: addr, id: id.AsString(), block: block}, ds
}

func addressTraversal(expr hcl.Expression, eval func(hcl.Expression, cty.Type) (cty.Value, hcl.Diagnostics)) (hcl.Traversal, hcl.Diagnostics) {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return e.Traversal, nil
	case *hclsyntax.RelativeTraversalExpr:
		head, ds := addressTraversal(e.Source, eval)
		return append(append(hcl.Traversal{}, head...), e.Traversal...), ds
	case *hclsyntax.IndexExpr:
		head, ds := addressTraversal(e.Collection, eval)
		if ds.HasErrors() {
			return nil, ds
		}
		key, kds := eval(e.Key, cty.DynamicPseudoType)
		if ds = append(ds, kds...); kds.HasErrors() {
			return nil, ds
		}
		if key.HasMark(marks.Ephemeral) {
			return nil, append(ds, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import address",
				Detail: "The instance key in this import address cannot be derived from an ephemeral value.", Subject: e.Key.Range().Ptr()})
		}
		key, _ = key.Unmark()
		if !key.IsKnown() || key.IsNull() {
			return nil, append(ds, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import address",
				Detail: "The instance key in this import address must be known while planning.", Subject: e.Key.Range().Ptr()})
		}
		return append(append(hcl.Traversal{}, head...), hcl.TraverseIndex{Key: key, SrcRange: e.Key.Range()}), ds
	}
	return hcl.AbsTraversalForExpr(expr)
}

// adoptInstance brings an object into the plan that the prior state does
// not have at addr in a form the walk can plan: an object an import block
// names is imported and read, and an object a moved block brought from
// another resource type is converted by the provider (MoveResourceState).
func (w *walker) adoptInstance(work *resourceWork, addr addrs.AbsResourceInstance, inst *states.ResourceInstance) (*states.ResourceInstance, diags.Diagnostics) {
	if w.refactor == nil {
		return inst, nil
	}
	if w.onlyGeneratingConfig(addr) {
		return nil, w.importForGeneration(work, addr)
	}
	if inst != nil && inst.Current != nil {
		if t := w.planOpts.commandLineImport; t != nil && t.addr.String() == addr.String() {
			return inst, w.importOverExisting(work, addr, t.id)
		}
		if m := w.refactor.moves.Moves[addr.String()]; m != nil && m.CrossType {
			return w.moveAcrossTypes(work, addr, inst, m.From)
		}
		return inst, nil
	}
	target, ds := w.importTargetFor(addr)
	if target == nil || ds.HasErrors() || w.planOpts.Mode != plans.NormalMode {
		return inst, ds
	}
	obj, ids := w.importObject(work, addr, target.id)
	if ds = ds.Append(ids); ids.HasErrors() {
		return inst, ds
	}
	src, err := work.encode(obj)
	if err != nil {
		return inst, ds.Append(diags.Errorf("Cannot import", "The object imported for %s could not be encoded: %s", addr, err))
	}
	w.refactor.mu.Lock()
	w.refactor.imported[addr.String()] = &plans.ImportingSrc{ID: target.id}
	if recorder, ok := work.provider.iface.(providers.PlannedImportRecorder); !ok || !recorder.RecordsPlannedImport() {
		target.imported = src
	}
	w.refactor.mu.Unlock()
	return &states.ResourceInstance{Current: src}, ds
}

// importObject calls ImportResourceState and then ReadResource, as
// Terraform does: the import gives a skeleton, the read fills it in.
func (w *walker) importObject(work *resourceWork, addr addrs.AbsResourceInstance, id string) (*states.ResourceInstanceObject, diags.Diagnostics) {
	typeName := addr.Resource.Resource.Type
	commandLine := w.planOpts.commandLineImport != nil
	w.importHooks(func(h ImportHook) { h.PreImport(addr, id, commandLine) })
	var resp providers.ImportResourceStateResponse
	if err := w.providerCall(func(ctx context.Context) {
		resp = work.provider.iface.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: typeName, ID: id})
	}); err != nil {
		return nil, diags.Diagnostics{}.Append(err)
	}
	ds := resp.Diagnostics
	if ds.HasErrors() {
		return nil, ds
	}
	if commandLine {
		typeNames := make([]string, len(resp.ImportedResources))
		for i, r := range resp.ImportedResources {
			typeNames[i] = r.TypeName
		}
		w.importHooks(func(h ImportHook) { h.PostImport(addr, typeNames, true) })
	}
	var imported *providers.ImportedResource
	for i := range resp.ImportedResources {
		if resp.ImportedResources[i].TypeName == typeName {
			imported = &resp.ImportedResources[i]
			break
		}
	}
	if imported == nil {
		return nil, ds.Append(diags.Errorf("Import returned no object",
			"Provider %s returned no %s object for import ID %q, so %s cannot be imported. Check the ID.", addrs.ProviderForDisplay(work.provider.addr.Provider), typeName, id, addr))
	}
	var read providers.ReadResourceResponse
	meta, _ := w.providerMeta(addr.Module, work.v.provider.Provider)
	// The read is the imported object's refresh, reported as one.
	for _, h := range w.e.opts.Hooks {
		h.PreRefresh(addr, addrs.NotDeposed, imported.State)
	}
	if err := w.providerCall(func(ctx context.Context) {
		read = work.provider.iface.ReadResource(ctx, providers.ReadResourceRequest{TypeName: typeName, PriorState: imported.State,
			Private: imported.Private, CurrentIdentity: identityOrNil(imported.Identity, work.types.Identity), ProviderMeta: meta})
	}); err != nil {
		return nil, ds.Append(err)
	}
	if !read.Diagnostics.HasErrors() {
		for _, h := range w.e.opts.Hooks {
			h.PostRefresh(addr, addrs.NotDeposed, imported.State, read.NewState)
		}
	}
	if ds = ds.Append(read.Diagnostics); read.Diagnostics.HasErrors() {
		return nil, ds
	}
	if read.NewState == cty.NilVal || read.NewState.IsNull() {
		d := diags.Errorf("Cannot import non-existent remote object",
			"While attempting to import an existing object to %q, the provider detected that no object exists with the given id or identity. Only pre-existing objects can be imported; check that the id or identity is correct and that it is associated with the provider's configured region or endpoint, or use \"terrane apply\" to create a new remote object for this resource.",
			addr.String())
		d.Sourceless = true
		return nil, ds.Append(d)
	}
	identity := imported.Identity
	if read.NewIdentity != cty.NilVal && !read.NewIdentity.IsNull() {
		identity = read.NewIdentity
	}
	if work.types.Identity == cty.NilType {
		identity = cty.NilVal
	}
	// Marked sensitive where the schema or the provider says so, as a
	// refreshed object is, so the state records those paths.
	val := work.schema.Block.NullWriteOnly(read.NewState)
	val = withProviderSensitive(marks.MarkWithPaths(val, sensitivePaths(work.schema.Block, val)), read.SensitivePaths)
	return &states.ResourceInstanceObject{Value: val, Private: read.Private, Identity: identity, Status: states.ObjectReady}, ds
}
