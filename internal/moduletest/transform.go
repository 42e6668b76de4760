package moduletest

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// runConfig is the configuration one run plans and applies: the
// configuration under test (or the run's module) with the test file's
// provider blocks and mocks in place of its own, overridden module calls
// emptied, and the fakes the engine puts in front of providers.
type runConfig struct {
	config *config.Config
	fakes  *fakes
}

// transformConfig makes a run's configuration from cfg without changing
// cfg, which other runs share. providerCtx evaluates the test file's
// provider blocks: their var and run references are the test's, not the
// module's.
//
// carried are the overrides earlier files left on the configuration under
// test (nil for a run block's own module): they hold where neither the
// run nor its file overrides the same target.
func transformConfig(cfg *config.Config, file *File, run *Run, providerCtx *hcl.EvalContext, carried *carriedOverrides) (*runConfig, diags.Diagnostics) {
	out := copyTree(cfg, nil, nil)
	f := &fakes{mocked: map[string]*MockProvider{}, overrides: map[string]*OverrideResource{}}
	ds := setTestProviders(out, file, run, providerCtx, f)
	modules, mds := mergeModuleOverrides(run.ModuleMocks, file.ModuleMocks)
	ds = ds.Append(mds)
	resources, rds := mergeResourceOverrides(run.Overrides, file.Overrides)
	ds = ds.Append(rds)
	if carried != nil {
		oldResources, oldModules := carried.snapshot()
		modules = withCarried(modules, oldModules, func(o *OverrideModule) string { return o.Addr.String() },
			func(o *OverrideModule) bool { return out.Descendant(o.Addr) != nil })
		resources = withCarried(resources, oldResources, func(o *OverrideResource) string { return o.Addr.String() },
			func(o *OverrideResource) bool { return !checkOverrideTarget(out, o).HasErrors() })
	}
	for _, o := range modules {
		ds = ds.Append(overrideModule(out, o))
	}
	for _, o := range resources {
		if od := checkOverrideTarget(out, o); od.HasErrors() {
			ds = ds.Append(od)
			continue
		}
		f.overrides[o.Addr.String()] = o
	}
	return &runConfig{config: out, fakes: f}, ds
}

// copyTree copies the module tree's nodes (not the modules they hold), so
// a run can replace a module or a root module's providers in its copy.
func copyTree(c, parent, root *config.Config) *config.Config {
	n := *c
	n.Parent = parent
	if root == nil {
		root = &n
	}
	n.Root = root
	n.Children = make(map[string]*config.Config, len(c.Children))
	for name, child := range c.Children {
		n.Children[name] = copyTree(child, &n, root)
	}
	return &n
}

// setTestProviders puts the test file's provider configurations in the
// root module, in place of the module's own by name and alias: all of
// them, or only those the run's providers argument lists, under the names
// it gives them.
func setTestProviders(root *config.Config, file *File, run *Run, ctx *hcl.EvalContext, f *fakes) diags.Diagnostics {
	mod := *root.Module
	mod.ProviderConfigs = make(map[addrs.LocalProviderConfig]*config.Provider, len(root.Module.ProviderConfigs))
	for k, p := range root.Module.ProviderConfigs {
		mod.ProviderConfigs[k] = p
	}
	root.Module = &mod
	use := func(as addrs.LocalProviderConfig, from addrs.LocalProviderConfig) bool {
		if p, ok := file.Providers[from]; ok {
			mod.ProviderConfigs[as] = withFixedContext(p, as, ctx)
			return true
		}
		if m, ok := file.MockProviders[from]; ok {
			mp := &config.Provider{Name: as.LocalName, Alias: as.Alias, NameRange: m.DeclRange,
				Config: hcl.EmptyBody(), DeclRange: m.DeclRange}
			if m.ForEach != nil {
				mp.ForEach = &fixedContextExpr{Expression: m.ForEach, ctx: ctx}
			}
			mod.ProviderConfigs[as] = mp
			f.mocked[rootProviderAddr(root, as).String()] = m
			return true
		}
		return false
	}
	var ds diags.Diagnostics
	// An empty providers map is no map at all to OpenTofu: the run gets
	// every provider block of the file.
	if len(run.Providers) == 0 {
		used, types := usedProviderConfigs(root)
		for _, k := range append(sortedProviderKeys(file.Providers), sortedMockKeys(file.MockProviders)...) {
			// A configuration nothing uses is left out: OpenTofu never
			// configures it, so its arguments (which may refer to runs
			// that have not happened yet) are never evaluated, and a
			// provider only another run's module needs need not be
			// installed for this one.
			if used[k] || (k.Alias == "" && types[root.Module.ProviderForLocalName(k.LocalName)]) {
				use(k, k)
			}
		}
		return ds
	}
	for _, passed := range run.Providers {
		if passed.InParentKey != nil {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid provider reference",
				Detail:  fmt.Sprintf("A run's providers argument gives the module whole provider configurations; %s cannot be narrowed to one instance of it here.", passed.InParent),
				Subject: passed.InParentKey.Range().Ptr()})
			continue
		}
		if !use(passed.InChild, passed.InParent) {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: fmt.Sprintf("Missing provider definition for %s", passed.InParent),
				Detail:  "This provider block references a provider definition that does not exist.",
				Subject: passed.InParentRange.Ptr()})
		}
	}
	return ds
}

// usedProviderConfigs are the root module's provider configurations that
// something may use (those it declares, those its resources name and
// those its module calls pass on) and the providers the resources of the
// whole configuration belong to.
func usedProviderConfigs(root *config.Config) (map[addrs.LocalProviderConfig]bool, map[addrs.Provider]bool) {
	used := map[addrs.LocalProviderConfig]bool{}
	for k := range root.Module.ProviderConfigs {
		used[k] = true
	}
	for _, r := range root.Module.Resources {
		used[r.ProviderConfigAddr()] = true
	}
	for _, call := range root.Module.ModuleCalls {
		for _, passed := range call.Providers {
			used[passed.InParent] = true
		}
	}
	types := map[addrs.Provider]bool{}
	root.DeepEach(func(c *config.Config) {
		for _, r := range c.Module.Resources {
			types[r.Provider] = true
		}
	})
	return used, types
}

func rootProviderAddr(root *config.Config, local addrs.LocalProviderConfig) addrs.AbsProviderConfig {
	return addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: root.Module.ProviderForLocalName(local.LocalName), Alias: local.Alias}
}

// withFixedContext is a test file's provider block as the run's module
// sees it. As OpenTofu does, its arguments are evaluated in the test's
// context once an earlier run has left outputs to refer to, and otherwise
// in the module's, like the module's own provider blocks (var.NAME is then
// a variable the module declares); its for_each always in the module's.
func withFixedContext(p *config.Provider, as addrs.LocalProviderConfig, ctx *hcl.EvalContext) *config.Provider {
	n := *p
	n.Name, n.Alias = as.LocalName, as.Alias
	if runs := ctx.Variables["run"]; !runs.IsNull() && runs.LengthInt() > 0 {
		n.Config = &fixedContextBody{body: p.Config, ctx: ctx}
	}
	return &n
}

func sortedProviderKeys[V any](m map[addrs.LocalProviderConfig]V) []addrs.LocalProviderConfig {
	keys := make([]addrs.LocalProviderConfig, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	return keys
}

func sortedMockKeys(m map[addrs.LocalProviderConfig]*MockProvider) []addrs.LocalProviderConfig {
	return sortedProviderKeys(m)
}

// mergeOverrides gives a run's own overrides precedence over the file's,
// warning where both name one target (addr).
func mergeOverrides[T any](inRun, inFile []T, addr func(T) string, duplicate func(T) diags.Diagnostic) ([]T, diags.Diagnostics) {
	var ds diags.Diagnostics
	byAddr := map[string]bool{}
	out := append([]T{}, inRun...)
	for _, o := range inRun {
		byAddr[addr(o)] = true
	}
	for _, o := range inFile {
		if byAddr[addr(o)] {
			ds = ds.Append(duplicate(o))
			continue
		}
		out = append(out, o)
	}
	return out, ds
}

// withCarried adds to current the carried overrides of targets current
// does not name and that exist (applies).
func withCarried[T any](current, carried []T, addr func(T) string, applies func(T) bool) []T {
	named := map[string]bool{}
	for _, o := range current {
		named[addr(o)] = true
	}
	for _, o := range carried {
		if !named[addr(o)] && applies(o) {
			current = append(current, o)
		}
	}
	return current
}

func mergeResourceOverrides(inRun, inFile []*OverrideResource) ([]*OverrideResource, diags.Diagnostics) {
	return mergeOverrides(inRun, inFile, func(o *OverrideResource) string { return o.Addr.String() }, func(o *OverrideResource) diags.Diagnostic {
		return diags.Diagnostic{Severity: diags.Warning, Summary: fmt.Sprintf("Multiple `%s` blocks for the same address", o.blockName()),
			Detail:  fmt.Sprintf("`%s` is overridden in both global file and local run blocks. The declaration in global file block will be ignored.", o.Addr),
			Subject: o.Target.SourceRange().Ptr()}
	})
}

func mergeModuleOverrides(inRun, inFile []*OverrideModule) ([]*OverrideModule, diags.Diagnostics) {
	return mergeOverrides(inRun, inFile, func(o *OverrideModule) string { return o.Addr.String() }, func(o *OverrideModule) diags.Diagnostic {
		return diags.Diagnostic{Severity: diags.Warning, Summary: "Multiple `override_module` blocks for the same address",
			Detail:  fmt.Sprintf("Module `%s` is overridden in both global file and local run blocks. The declaration in global file block will be ignored.", o.Addr),
			Subject: o.Target.SourceRange().Ptr()}
	})
}

// checkOverrideTarget reports an override_resource or override_data block
// of the file or the run whose target the configuration lacks or is of the
// other mode. (Those of a mock_provider block that match nothing are left
// alone, as OpenTofu leaves them.)
func checkOverrideTarget(root *config.Config, o *OverrideResource) diags.Diagnostics {
	module := root.Descendant(o.Addr.Module)
	if module == nil {
		return diags.Diagnostics{{Severity: diags.Error, Summary: fmt.Sprintf("Module not found: %s", o.Addr.Module),
			Detail: "Target points to resource in undefined module. Please, ensure module exists.", Subject: o.Target.SourceRange().Ptr()}}
	}
	if module.Module.Resources[o.Addr.Resource] == nil {
		return diags.Diagnostics{{Severity: diags.Error, Summary: fmt.Sprintf("Resource not found: %s", o.Addr),
			Detail: "Target points to undefined resource. Please, ensure resource exists.", Subject: o.Target.SourceRange().Ptr()}}
	}
	if o.Addr.Resource.Mode != o.Mode {
		return diags.Diagnostics{modeMismatch(o)}
	}
	return nil
}

// overrideModule empties the module o names in the run's tree: nothing in
// it is planned, and its outputs have o's values, null where o gives none,
// as OpenTofu's override_module does. Its variables stay, so the calling
// module's arguments are still evaluated.
func overrideModule(root *config.Config, o *OverrideModule) diags.Diagnostics {
	target := root.Descendant(o.Addr)
	if target == nil {
		return diags.Diagnostics{{Severity: diags.Error, Summary: fmt.Sprintf("Module not found: %s", o.Addr),
			Detail: "Target points to an undefined module. Please, ensure module exists.", Subject: o.Target.SourceRange().Ptr()}}
	}
	var ds diags.Diagnostics
	for _, name := range sortedNames(o.Outputs) {
		if target.Module.Outputs[name] == nil {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: fmt.Sprintf("Output not found: %s", name),
				Detail: "Specified output to override is not present in the module and will be ignored.", Subject: o.Target.SourceRange().Ptr()})
		}
	}
	emptied := &config.Module{
		SourceDir: target.Module.SourceDir, RequiredProviders: target.Module.RequiredProviders,
		ProviderConfigs: map[addrs.LocalProviderConfig]*config.Provider{},
		Variables:       target.Module.Variables,
		Locals:          map[string]*config.Local{},
		Outputs:         make(map[string]*config.Output, len(target.Module.Outputs)),
		ModuleCalls:     map[string]*config.ModuleCall{},
		Resources:       map[addrs.Resource]*config.Resource{},
		Checks:          map[string]*config.Check{},
	}
	for name, out := range target.Module.Outputs {
		val, ok := o.Outputs[name]
		if !ok {
			val = cty.NullVal(cty.DynamicPseudoType)
		}
		emptied.Outputs[name] = &config.Output{Name: name, Description: out.Description, Sensitive: out.Sensitive,
			Expr: hcl.StaticExpr(val, out.DeclRange), DeclRange: out.DeclRange}
	}
	target.Module = emptied
	target.Children = map[string]*config.Config{}
	return ds
}
