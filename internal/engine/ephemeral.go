package engine

import (
	"context"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
)

// This file opens ephemeral resources. An ephemeral resource is opened in
// every walk that reaches it, plan and apply alike, renewed while the walk
// needs it and closed once nothing left in the walk depends on it (see
// ephemeralSet). Nothing about it is recorded: no change in the plan, no
// record in the store. Its value carries marks.Ephemeral, which keeps it
// out of everything that is.

// EphemeralHook is the part of a Hook that hears about ephemeral resource
// instances being opened, renewed and closed (action plans.Open,
// plans.Renew or plans.Close), or left unopened by a plan that does not
// know their configuration yet (EphemeralDeferred). Hooks that do not
// implement it hear nothing of them.
type EphemeralHook interface {
	PreEphemeralOp(addr addrs.AbsResourceInstance, action plans.Action)
	PostEphemeralOp(addr addrs.AbsResourceInstance, action plans.Action, err error)
	EphemeralDeferred(addr addrs.AbsResourceInstance)
}

func (w *walker) preEphemeralOp(addr addrs.AbsResourceInstance, action plans.Action) {
	for _, h := range w.e.opts.Hooks {
		if eh, ok := h.(EphemeralHook); ok {
			eh.PreEphemeralOp(addr, action)
		}
	}
}

func (w *walker) postEphemeralOp(addr addrs.AbsResourceInstance, action plans.Action, err error) {
	for _, h := range w.e.opts.Hooks {
		if eh, ok := h.(EphemeralHook); ok {
			eh.PostEphemeralOp(addr, action, err)
		}
	}
}

// runEphemeral expands an ephemeral block in every instance of its module
// and opens each instance.
func (w *walker) runEphemeral(v *ephemeralVertex) diags.Diagnostics {
	work, ds := w.resourceWork(&v.resourceVertex)
	if ds.HasErrors() {
		return ds
	}
	group := w.newInstanceGroup()
	for _, inst := range w.values.moduleInstancesOf(v.module.Path) {
		abs := addrs.AbsResource{Module: inst, Resource: v.resource.Addr()}
		// As for any resource, an expansion not known while planning is an
		// error unless -target or -exclude leave the block out.
		unknowns := lang.Unknowns{Allow: w.op == walkPlan && !w.planScope.includesResource(v.key(), abs), Excludable: abs.String()}
		exp, eds := w.expand(w.scopeIn(v.module, inst, repetition{}, nil), v.resource.Count, v.resource.ForEach, v.resource.Enabled, unknowns)
		ds = ds.Append(eds)
		w.values.setResourceExpansion(abs, exp)
		if exp.unknown {
			// Read as an unknown ephemeral value (see GetResource); there
			// is nothing to open until the instances are known.
			continue
		}
		for _, key := range exp.keys {
			addr, rep := abs.Instance(key), exp.rep(key)
			group.start(func() diags.Diagnostics {
				return withResourceSource(w.openEphemeralInstance(work, addr, rep).WithAddress(addr.String()), work.v.resource)
			})
		}
	}
	return ds.Append(group.wait())
}

// openEphemeralInstance validates one instance's configuration and opens
// it, making its result the instance's value. A configuration not known
// yet (during planning) leaves the instance unopened and its value
// unknown: it is opened when the apply walk knows it.
func (w *walker) openEphemeralInstance(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) diags.Diagnostics {
	unknown := cty.UnknownVal(work.types.Value).Mark(marks.Ephemeral)
	w.values.set(w.values.instances, addr.String(), unknown)
	work, ds := w.withInstanceProvider(work, addr, rep)
	if ds.HasErrors() {
		return ds
	}
	if ds = ds.Append(w.checkPreconditions(work, addr, rep)); ds.HasErrors() {
		return ds
	}
	cfgVal, eds := w.evalConfig(work, addr, rep)
	if ds = ds.Append(eds); eds.HasErrors() {
		return ds
	}
	cfgVal, cfgMarks := cfgVal.UnmarkDeepWithPaths()
	var validate providers.ValidateEphemeralResourceConfigResponse
	if err := w.providerCall(func(ctx context.Context) {
		validate = work.provider.iface.ValidateEphemeralResourceConfig(ctx, providers.ValidateEphemeralResourceConfigRequest{TypeName: addr.Resource.Resource.Type, Config: cfgVal})
	}); err != nil {
		return ds.Append(err)
	}
	if ds = ds.Append(validate.Diagnostics); validate.Diagnostics.HasErrors() {
		return ds
	}
	if !cfgVal.IsWhollyKnown() {
		for _, h := range w.e.opts.Hooks {
			if eh, ok := h.(EphemeralHook); ok {
				eh.EphemeralDeferred(addr)
			}
		}
		return ds
	}
	result, ods := w.openEphemeral(work, addr, cfgVal)
	if ds = ds.Append(ods); ods.HasErrors() || result == cty.NilVal {
		return ds
	}
	val := result.MarkWithPaths(cfgMarks).MarkWithPaths(sensitivePaths(work.schema.Block, result)).Mark(marks.Ephemeral)
	w.values.set(w.values.instances, addr.String(), val)
	return ds.Append(w.checkPostconditions(work, addr, rep))
}

// openEphemeral makes the OpenEphemeralResource call and hands the open
// instance to the walk's ephemeral set, which renews and closes it. The
// result is cty.NilVal when the provider deferred opening.
func (w *walker) openEphemeral(work *resourceWork, addr addrs.AbsResourceInstance, cfgVal cty.Value) (cty.Value, diags.Diagnostics) {
	w.preEphemeralOp(addr, plans.Open)
	var resp providers.OpenEphemeralResourceResponse
	if err := w.providerCall(func(ctx context.Context) {
		resp = work.provider.iface.OpenEphemeralResource(ctx, providers.OpenEphemeralResourceRequest{TypeName: addr.Resource.Resource.Type, Config: cfgVal})
	}); err != nil {
		w.postEphemeralOp(addr, plans.Open, err)
		return cty.NilVal, diags.Diagnostics{}.Append(err)
	}
	ds := resp.Diagnostics
	if !ds.HasErrors() && resp.Deferred == nil {
		ds = ds.Append(checkEphemeralResult(work, addr, resp.Result))
	}
	if ds.HasErrors() {
		w.postEphemeralOp(addr, plans.Open, ds.Err())
		if len(resp.Private) > 0 || resp.Result != cty.NilVal {
			// The provider may have opened something before it failed:
			// closing it is the only way to let it go.
			w.ephemerals.add(work, addr, resp.Private, resp.RenewAt)
		}
		return cty.NilVal, ds
	}
	w.postEphemeralOp(addr, plans.Open, nil)
	if resp.Deferred != nil {
		return cty.NilVal, ds
	}
	w.ephemerals.add(work, addr, resp.Private, resp.RenewAt)
	return resp.Result, ds
}

// checkEphemeralResult applies the protocol's rule for an opened result:
// a whole, known object of the ephemeral resource type's schema.
func checkEphemeralResult(work *resourceWork, addr addrs.AbsResourceInstance, result cty.Value) diags.Diagnostics {
	problem := ""
	switch {
	case result == cty.NilVal || result.IsNull():
		problem = "no result"
	case !result.Type().Equals(work.types.Value):
		problem = "a result that does not match the schema of " + addr.Resource.Resource.Type
	case !result.IsWhollyKnown():
		problem = "a result with unknown values"
	}
	if problem == "" {
		return nil
	}
	return diags.Diagnostics{diags.Errorf("Provider produced invalid object",
		"Provider %s opened %s with %s. This is a bug in the provider; report it to its developers.",
		addrs.ProviderForDisplay(work.provider.addr.Provider), addr, problem)}
}
