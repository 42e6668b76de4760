package engine

import (
	"context"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
)

// Eval walks the configuration over the recorded state without planning
// or changing anything, as OpenTofu's eval walk does for `tofu console`:
// variables, locals and module outputs are worked out, resources and data
// sources take their recorded values (unknown where nothing is recorded),
// and provider processes are started, unconfigured, for their schemas and
// functions. It returns a scope of the root module in console mode; the
// engine must stay open while the scope is used.
func (e *Engine) Eval(ctx context.Context) (*lang.Scope, diags.Diagnostics) {
	snap, err := e.opts.State.Load(ctx)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Cannot read the state", "Reading workspace %q failed: %s", e.opts.Workspace, err)}
	}
	set, ds := e.loadSchemas(ctx, neededProviders(e.opts.Config, snap.State))
	if ds.HasErrors() {
		return nil, ds
	}
	w := e.newWalker(ctx, walkEval, snap, set)
	g, gds := w.buildGraph(snap.State)
	if ds = ds.Append(gds); ds.HasErrors() {
		return nil, ds
	}
	ds = ds.Append(g.walk(ctx, w.run))
	root := w.scopes[""]
	scope := &lang.Scope{Data: &evalData{w: w, module: w.cfg, inst: addrs.RootModuleInstance}, BaseDir: root.BaseDir,
		ConsoleMode: true, ProviderFunctions: root.ProviderFunctions}
	return scope, ds
}

// evalResource gives every instance of a resource its recorded value. A
// resource with nothing recorded is unknown as a whole, as in OpenTofu's
// console before the first apply: not even how many instances it has is
// known then.
func (w *walker) evalResource(v *resourceVertex) diags.Diagnostics {
	work, ds := w.resourceWork(v)
	if ds.HasErrors() {
		return ds
	}
	for _, inst := range w.values.moduleInstancesOf(v.module.Path) {
		abs := addrs.AbsResource{Module: inst, Resource: v.resource.Addr()}
		exp, eds := w.expand(w.scopeIn(v.module, inst, repetition{}, nil), v.resource.Count, v.resource.ForEach, v.resource.Enabled, lang.Unknowns{Allow: true})
		ds = ds.Append(eds)
		if w.snapshot.State.Resource(abs) == nil {
			exp.unknown = true
		}
		w.values.setResourceExpansion(abs, exp)
		if exp.unknown {
			continue
		}
		for _, key := range exp.keys {
			addr := abs.Instance(key)
			if inst := w.prior.ResourceInstance(addr); inst == nil || inst.Current == nil {
				w.values.set(w.values.instances, addr.String(), cty.UnknownVal(work.types.Value))
				continue
			}
			rep, _ := exp.repetition(key)
			instWork, ids := w.withInstanceProvider(work, addr, rep)
			if ds = ds.Append(ids); ids.HasErrors() {
				continue
			}
			ds = ds.Append(w.loadStateValue(instWork, addr))
		}
	}
	return ds
}
