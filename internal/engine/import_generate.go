package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/schema"
)

// GeneratedImport is an object imported for an import block whose target
// has no resource block, for `plan -generate-config-out` to write one.
type GeneratedImport struct {
	Addr   addrs.AbsResourceInstance
	ID     string
	Schema *schema.Block
	Value  cty.Value
}

// generatingImports are the addresses a plan walk generates configuration
// for (PlanOpts.generating) and what it imported for them.
type generatingImports struct {
	addrs map[string]bool
	mu    sync.Mutex
	got   []GeneratedImport
}

// onlyGeneratingConfig reports whether addr's resource block is a
// placeholder for configuration still to be generated, so the walk must
// stop after importing it.
func (w *walker) onlyGeneratingConfig(addr addrs.AbsResourceInstance) bool {
	g := w.planOpts.generating
	return g != nil && g.addrs[addr.String()]
}

// ImportForConfigGeneration imports and reads the objects of the root
// module's import blocks whose targets have no resource block, as
// Terraform's plan -generate-config-out does before it plans. It changes
// nothing; the caller writes configuration for the objects and plans
// again with it. It returns nothing when every target is declared.
func (e *Engine) ImportForConfigGeneration(ctx context.Context) ([]GeneratedImport, diags.Diagnostics) {
	root := e.opts.Config
	var ds diags.Diagnostics
	generating := &generatingImports{addrs: map[string]bool{}}
	placeholders := map[addrs.Resource]*config.Resource{}
	var targets []addrs.Targetable
	for _, block := range root.Module.Import {
		addr, undeclared, d := undeclaredImportTarget(root, block)
		if ds = ds.Append(d); d.HasErrors() || !undeclared {
			continue
		}
		generating.addrs[addr.String()] = true
		placeholders[addr.Resource.Resource] = placeholderResource(root.Module, addr.Resource.Resource, block)
		targets = append(targets, addr)
	}
	if ds.HasErrors() || len(targets) == 0 {
		return nil, ds
	}
	module := *root.Module
	module.Resources = maps.Clone(root.Module.Resources)
	maps.Copy(module.Resources, placeholders)
	withPlaceholders := *root
	withPlaceholders.Module = &module
	withPlaceholders.Root = &withPlaceholders
	sub := &Engine{opts: e.opts, logger: e.logger}
	sub.opts.Config = &withPlaceholders
	// The plan that follows imports the objects again and reports that;
	// OpenTofu imports once, so this import says nothing.
	sub.opts.Hooks = nil
	// The sub-plan's provider processes are its own: nothing returned
	// needs them, and the engine's Close does not know of them.
	defer sub.Close()
	_, pds := sub.plan(ctx, PlanOpts{Targets: targets, SkipRefresh: true, generating: generating})
	for _, d := range pds {
		if d.Severity == diags.Warning && d.Summary == partialPlanWarning(PlanOpts{Targets: targets}).Summary {
			continue
		}
		ds = ds.Append(d)
	}
	e.mu.Lock()
	if e.schemas == nil {
		e.schemas = sub.Schemas()
	}
	e.mu.Unlock()
	slices.SortFunc(generating.got, func(a, b GeneratedImport) int { return strings.Compare(a.Addr.String(), b.Addr.String()) })
	return generating.got, ds
}

// undeclaredImportTarget reads an import block's target statically and
// reports whether it lacks a resource block, refusing what OpenTofu refuses
// to generate configuration for: a target in a child module, and an
// instance of count or for_each (a key, or a key to be evaluated), since
// one generated block could not describe several objects. A "to" that
// cannot be read statically is left for evalImportBlocks to report.
func undeclaredImportTarget(root *config.Config, block *config.Import) (addrs.AbsResourceInstance, bool, diags.Diagnostics) {
	static, resolved, ok := importTargetAddrs(block.To)
	if !ok {
		return addrs.AbsResourceInstance{}, false, nil
	}
	module := root.Descendant(static.Module)
	if module == nil {
		return addrs.AbsResourceInstance{}, false, generationInModuleDiags(static.String(), block)
	}
	if module.Module.Resources[static.Resource] != nil {
		return addrs.AbsResourceInstance{}, false, nil
	}
	switch {
	case resolved == nil:
		return addrs.AbsResourceInstance{}, false, generationForInstancesDiags(static.String(), block)
	case !resolved.Module.IsRoot():
		return addrs.AbsResourceInstance{}, false, generationInModuleDiags(resolved.String(), block)
	case resolved.Resource.Key != addrs.NoKey:
		return addrs.AbsResourceInstance{}, false, generationForInstancesDiags(resolved.String(), block)
	}
	return *resolved, true, nil
}

// importTargetAddrs reads an import block's "to" without evaluating it:
// the resource it names, and the instance when every instance key is a
// literal (nil when one is an expression like each.key). ok is false when
// "to" is not an address at all.
func importTargetAddrs(to hcl.Expression) (static addrs.ConfigResource, resolved *addrs.AbsResourceInstance, ok bool) {
	traversal, literalKeys := staticTraversal(to)
	if traversal == nil {
		return addrs.ConfigResource{}, nil, false
	}
	addr, ds := addrs.ParseAbsResourceInstance(traversal)
	if ds.HasErrors() {
		return addrs.ConfigResource{}, nil, false
	}
	if literalKeys {
		resolved = &addr
	}
	return addr.ContainingResource().Config(), resolved, true
}

// staticTraversal is the traversal of an address expression with the
// instance keys that are not literals left out, and whether none was.
func staticTraversal(expr hcl.Expression) (hcl.Traversal, bool) {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return e.Traversal, true
	case *hclsyntax.RelativeTraversalExpr:
		head, literal := staticTraversal(e.Source)
		if head == nil {
			return nil, false
		}
		return append(slices.Clone(head), e.Traversal...), literal
	case *hclsyntax.IndexExpr:
		head, literal := staticTraversal(e.Collection)
		if head == nil {
			return nil, false
		}
		key, ds := e.Key.Value(nil)
		if ds.HasErrors() || !key.IsWhollyKnown() || key.IsNull() {
			return head, false
		}
		return append(slices.Clone(head), hcl.TraverseIndex{Key: key, SrcRange: e.Key.Range()}), literal
	}
	traversal, ds := hcl.AbsTraversalForExpr(expr)
	if ds.HasErrors() {
		return nil, false
	}
	return traversal, true
}

func generationInModuleDiags(addr string, block *config.Import) diags.Diagnostics {
	return diags.Diagnostics{{Severity: diags.Error, Summary: "Cannot generate configuration for resource inside sub-module",
		Detail: fmt.Sprintf("The configuration for %s does not exist, and configuration can be generated only for resources in the root module, not in child modules. "+
			"Write the resource block in the module yourself, then plan again.", addr),
		Subject: block.DeclRange.Ptr()}}
}

func generationForInstancesDiags(addr string, block *config.Import) diags.Diagnostics {
	return diags.Diagnostics{{Severity: diags.Error, Summary: "Configuration generation for count and for_each resources not supported",
		Detail: fmt.Sprintf("The configuration for %s does not exist, and configuration can be generated only for resources that do not use count or for_each: "+
			"one generated block cannot describe several objects. Write the resource block yourself, with its count or for_each, then plan again.", addr),
		Subject: block.DeclRange.Ptr()}}
}

// placeholderResource is an empty resource block standing in for the
// configuration to be generated, using the import block's provider.
func placeholderResource(module *config.Module, res addrs.Resource, block *config.Import) *config.Resource {
	localName := res.ImpliedProvider()
	if block.ProviderConfigRef != nil {
		localName = block.ProviderConfigRef.Name
	}
	return &config.Resource{Mode: addrs.ManagedResourceMode, Type: res.Type, Name: res.Name,
		ProviderConfigRef: block.ProviderConfigRef, Provider: module.ProviderForLocalName(localName),
		Managed: &config.ManagedResource{}, Config: hcl.EmptyBody(),
		TypeRange: block.DeclRange, DeclRange: block.DeclRange}
}

// importForGeneration is adoptInstance for a placeholder: the object is
// imported and read, then handed to the caller instead of planned.
func (w *walker) importForGeneration(work *resourceWork, addr addrs.AbsResourceInstance) diags.Diagnostics {
	target, ds := w.importTargetFor(addr)
	if target == nil || ds.HasErrors() {
		return ds
	}
	obj, ids := w.importObject(work, addr, target.id)
	if ds = ds.Append(ids); ids.HasErrors() {
		return ds.WithAddress(addr.String())
	}
	g := w.planOpts.generating
	g.mu.Lock()
	g.got = append(g.got, GeneratedImport{Addr: addr, ID: target.id, Schema: work.schema.Block, Value: obj.Value})
	g.mu.Unlock()
	return ds
}
