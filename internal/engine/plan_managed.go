package engine

import (
	"context"
	"fmt"
	"github.com/terrane/terrane/internal/marks"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
)

// planManagedInstance refreshes one managed instance and plans its change.
func (w *walker) planManagedInstance(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) diags.Diagnostics {
	inst := w.prior.ResourceInstance(addr)
	if ds, leaveAlone := w.checkOpenIntent(addr, inst); leaveAlone {
		w.setPlannedInstanceValue(work, addr, cty.UnknownVal(work.types.Value))
		return ds
	}
	inst, ds := w.adoptInstance(work, addr, inst)
	if ds.HasErrors() || w.onlyGeneratingConfig(addr) {
		return ds
	}
	var prior *refreshed
	if inst != nil && inst.Current != nil {
		var rds diags.Diagnostics
		// An object just imported was read by the import itself.
		skip := w.planOpts.SkipRefresh || w.planOpts.Fresh[addr.String()] || w.justImported(addr) || !w.planScope.refreshes(work.v.key(), addr)
		prior, rds = w.refresh(work.provider, work.schema, work.types, addr, addrs.NotDeposed, inst.Current, skip)
		ds = ds.Append(rds)
		if rds.HasErrors() {
			return ds
		}
	}
	if inst != nil && w.deletesIn(addr) {
		for _, key := range inst.SortedDeposedKeys() {
			ds = ds.Append(w.planDelete(work.provider, work.types, work.schema, addr, key, inst.Deposed[key], plans.ReasonNone, work.v.resource.Managed))
		}
	}
	exists := prior != nil && prior.current != nil
	if exists {
		w.setPlannedInstanceValue(work, addr, prior.current.Value)
	}
	switch w.planOpts.Mode {
	case plans.RefreshOnlyMode:
		if !exists && !w.resourceInState(addr) {
			// Never created, and a refresh creates nothing: unknown, as
			// OpenTofu evaluates a resource the state has no trace of.
			w.setPlannedInstanceValue(work, addr, cty.UnknownVal(work.types.Value))
		}
		return ds
	case plans.DestroyMode:
		// OpenTofu refreshes with a normal plan before planning a
		// destroy, and that plan checks prevent_destroy for every object
		// it covers: a value no plan could accept stops the destroy
		// before anything is planned.
		if exists && w.planScope.refreshes(work.v.key(), addr) {
			if pds := w.checkPreventDestroy(work, addr, plans.NoOp); pds.HasErrors() {
				w.failedBeforePlanning.Store(true)
				return ds.Append(pds)
			}
		}
		if exists && w.planScope.destroys(addr) {
			ds = ds.Append(w.planDeleteRefreshed(work, addr, prior, plans.ReasonNone))
		}
		return ds
	}
	return ds.Append(w.planUpsert(work, addr, rep, prior))
}

// planDeleteRefreshed plans the deletion of an object already refreshed.
func (w *walker) planDeleteRefreshed(work *resourceWork, addr addrs.AbsResourceInstance, r *refreshed, reason plans.ActionReason) diags.Diagnostics {
	configSkip, ds := skipDestroy(work.v.resource.Managed)
	if ds.HasErrors() {
		return ds
	}
	if forgot, forget := forgetReason(configSkip, r.prior.SkipDestroy); forget {
		return ds.Append(w.planForget(work.provider, work.types, addr, addrs.NotDeposed, r, forgot))
	}
	change := &plans.ResourceInstanceChange{
		ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr,
			ProviderAddr: work.provider.instanceAddr(), ActionReason: reason, Private: r.current.Private},
		Change: plans.Change{Action: plans.Delete, Before: r.current.Value, After: cty.NullVal(work.types.Value),
			BeforeIdentity: identityOrNil(r.identity, work.types.Identity), AfterIdentity: identityOrNil(cty.NilVal, work.types.Identity)},
	}
	// As in OpenTofu, a change prevent_destroy refuses is in the plan all
	// the same, to be shown with the error.
	ds = ds.Append(w.addChange(change, work.types, r.encoded...))
	return ds.Append(w.checkPreventDestroy(work, addr, plans.Delete))
}

// plannedObject is the provider's answer to one PlanResourceChange.
type plannedObject struct {
	value           cty.Value
	private         []byte
	identity        cty.Value
	requiresReplace []cty.Path
	deferred        *providers.Deferred
	// deleteBeforeReplace is the provider's demand that a replacement
	// delete the old object first (Pulumi's deleteBeforeReplace).
	deleteBeforeReplace bool
	// sensitive are the paths the provider reported secret.
	sensitive []cty.Path
}

// planUpsert plans a create, update, replacement or no-op for an instance
// that has configuration.
func (w *walker) planUpsert(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition, prior *refreshed) diags.Diagnostics {
	// Preconditions come first: an instance whose assumptions do not hold
	// is not planned at all, as in Terraform.
	if ds := w.checkPreconditions(work, addr, rep); ds.HasErrors() {
		return ds
	}
	cfgVal, ds := w.evalConfig(work, addr, rep)
	if ds.HasErrors() {
		return ds
	}
	cfgVal, cfgMarks := marks.UnmarkDeepWithPaths(cfgVal)
	if eds := refuseEphemeralConfig(work, addr, cfgMarks); eds.HasErrors() {
		return ds.Append(eds)
	}
	if vds := w.validateResource(work, cfgVal); vds.HasErrors() {
		return ds.Append(vds)
	} else {
		ds = ds.Append(vds)
	}
	priorVal, priorPrivate, priorIdentity := cty.NullVal(work.types.Value), []byte(nil), cty.NilVal
	var priorObj *states.ResourceInstanceObject
	// A replacement is planned from the whole configuration, as OpenTofu
	// plans it: ignore_changes keeps values of the object being updated,
	// and a new object has none.
	wholeCfgVal := cfgVal
	if prior != nil && prior.current != nil {
		priorObj = prior.current
		priorVal, _ = marks.UnmarkDeep(priorObj.Value)
		priorPrivate, priorIdentity = priorObj.Private, prior.identity
		cfgVal = applyIgnoreChanges(work.v.resource.Managed, priorVal, cfgVal)
	}
	planned, pds := w.planResourceChange(work, addr, priorVal, cfgVal, cfgMarks, priorPrivate, priorIdentity)
	ds = ds.Append(pds)
	if pds.HasErrors() {
		return ds
	}
	planned.private = sameBytesOr(priorPrivate, planned.private)
	action, reason, cds := w.chooseAction(work, addr, priorObj, priorVal, planned)
	if ds = ds.Append(cds); cds.HasErrors() {
		return ds
	}
	skip, sds := skipDestroy(work.v.resource.Managed)
	if ds = ds.Append(sds); sds.HasErrors() {
		return ds
	}
	var requiredReplace []cty.Path
	if action == plans.DeleteThenCreate {
		// A provider demanding delete-before-replace (the object's name
		// must stay unique) overrides create_before_destroy, as Pulumi does.
		if w.createBeforeDestroy(work) && !planned.deleteBeforeReplace {
			action = plans.CreateThenDelete
		}
		if skip {
			action = plans.ForgetThenCreate
		}
		requiredReplace = changedReplacePaths(planned.requiresReplace, priorVal, planned.value)
		// A replacement creates a new object: plan that from no prior.
		planned, pds = w.planResourceChange(work, addr, cty.NullVal(work.types.Value), wholeCfgVal, cfgMarks, nil, cty.NilVal)
		ds = ds.Append(pds)
		if pds.HasErrors() {
			return ds
		}
	}
	after := markPlanned(work.schema.Block, planned, cfgMarks, true)
	if action == plans.NoOp && priorObj != nil && !sameSensitivePaths(priorObj.Value, after) {
		// As OpenTofu plans it, a value that becomes sensitive, or stops
		// being so, is an update: the state records which parts are.
		action = plans.Update
	}
	// OpenTofu, as Terraform, records the new object of a replacement it
	// planned a second time (every reason but a tainted object, which it
	// plans from no prior in the first place) with the configuration's
	// marks alone: the plan's planned_values show no schema-sensitive parts
	// for it. Expressions still read the object with them.
	recorded := markPlanned(work.schema.Block, planned, cfgMarks, !action.IsReplace() || reason == plans.ReplaceBecauseTainted)
	before := cty.NullVal(work.types.Value)
	if priorObj != nil {
		before = priorObj.Value
	}
	change := &plans.ResourceInstanceChange{
		ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr,
			ProviderAddr: work.provider.instanceAddr(),
			ActionReason: reason, RequiredReplace: requiredReplace, Private: planned.private},
		Change: plans.Change{Action: action, Before: before, After: recorded,
			BeforeIdentity: identityOrNil(priorIdentity, work.types.Identity), AfterIdentity: identityOrNil(planned.identity, work.types.Identity)},
	}
	w.setPlannedInstanceValue(work, addr, after)
	if planned.deferred != nil {
		// Terrane never offers deferral (deferral_allowed is false), as
		// OpenTofu does not: a provider that defers anyway would leave a
		// change out of the plan without anyone noticing.
		return ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Provider deferred a change",
			Detail: fmt.Sprintf("The provider %s answered the plan of %s with a deferral, which Terrane did not allow and does not support. Nothing can be planned for this object; make the values it depends on known (for example with -target) and plan again.",
				addrs.ProviderForDisplay(work.v.provider.Provider), addr),
			Subject: work.v.resource.DeclRange.Ptr(), Address: addr.String()})
	}
	var encoded []plans.KnownEncoding
	if prior != nil {
		encoded = prior.encoded
	}
	ds = ds.Append(w.addChange(change, work.types, encoded...))
	if pds := w.checkPreventDestroy(work, addr, action); pds.HasErrors() {
		return ds.Append(pds)
	}
	return ds.Append(w.checkPostconditions(work, addr, rep))
}

func (w *walker) validateResource(work *resourceWork, cfgVal cty.Value) diags.Diagnostics {
	var resp providers.ValidateResourceConfigResponse
	if err := w.providerCall(func(ctx context.Context) {
		resp = work.provider.iface.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{
			TypeName: work.v.resource.Type, Config: cfgVal,
			ClientCapabilities: providers.ClientCapabilities{WriteOnlyAttributesAllowed: true},
		})
	}); err != nil {
		return diags.Diagnostics{}.Append(err)
	}
	return resp.Diagnostics
}

// planResourceChange proposes a new state and asks the provider to plan
// it, checking the answer against the configuration.
func (w *walker) planResourceChange(work *resourceWork, addr addrs.AbsResourceInstance, priorVal, cfgVal cty.Value, cfgMarks []cty.PathValueMarks, priorPrivate []byte, priorIdentity cty.Value) (*plannedObject, diags.Diagnostics) {
	proposed := proposedNewState(work.schema.Block, priorVal, cfgVal)
	meta, mds := w.providerMeta(addr.Module, work.v.provider.Provider)
	if mds.HasErrors() {
		return nil, mds
	}
	var resp providers.PlanResourceChangeResponse
	if err := w.providerCall(func(ctx context.Context) {
		resp = work.provider.iface.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
			TypeName: work.v.resource.Type, PriorState: priorVal, ProposedNewState: proposed, Config: cfgVal, ProviderMeta: meta,
			ConfigSensitivePaths: sensitivePathsOf(cfgMarks), PriorPrivate: priorPrivate, PriorIdentity: identityOrNil(priorIdentity, work.types.Identity),
			ClientCapabilities: providers.ClientCapabilities{WriteOnlyAttributesAllowed: true},
			IgnoreChanges:      ignoredPaths(work.v.resource.Managed, work.schema.Block),
		})
	}); err != nil {
		return nil, diags.Diagnostics{}.Append(err)
	}
	ds := resp.Diagnostics
	if ds.HasErrors() {
		return nil, ds
	}
	if resp.PlannedState == cty.NilVal || !resp.PlannedState.Type().Equals(work.types.Value) && resp.PlannedState.Type() != cty.DynamicPseudoType {
		if resp.PlannedState == cty.NilVal {
			return nil, ds.Append(diags.Errorf("Provider produced an invalid plan",
				"Provider %s planned no value for %s. This is a bug in the provider; report it to its developers.", addrs.ProviderForDisplay(work.provider.addr.Provider), addr))
		}
	}
	for _, err := range checkPlannedValid(work.schema.Block, priorVal, cfgVal, resp.PlannedState) {
		if resp.LegacyTypeSystem {
			w.e.logger.Warn("provider produced an invalid plan; tolerated for a legacy type system provider", "address", addr.String(), "problem", err.Error())
			continue
		}
		ds = ds.Append(diags.Errorf("Provider produced invalid plan",
			"Provider %s planned an invalid value for %s.\n\nThis is a bug in the provider; report it to its developers.", addrs.ProviderForDisplay(work.provider.addr.Provider), describeValueError(addr, err)))
	}
	if ds.HasErrors() {
		return nil, ds
	}
	// A legacy provider's plan may keep a write-only value (tolerated
	// above); it is never kept here.
	return &plannedObject{value: work.schema.Block.NullWriteOnly(resp.PlannedState), private: resp.PlannedPrivate, identity: resp.PlannedIdentity,
		requiresReplace: resp.RequiresReplace, deferred: resp.Deferred, deleteBeforeReplace: resp.DeleteBeforeReplace, sensitive: resp.SensitivePaths}, ds
}

// chooseAction decides what a plan does to an instance given the
// provider's answer. Replacements are returned as DeleteThenCreate; the
// caller turns that into CreateThenDelete under create_before_destroy.
func (w *walker) chooseAction(work *resourceWork, addr addrs.AbsResourceInstance, priorObj *states.ResourceInstanceObject, priorVal cty.Value, planned *plannedObject) (plans.Action, plans.ActionReason, diags.Diagnostics) {
	// replace_triggered_by is evaluated for every instance, a new one too,
	// as OpenTofu does: a reference that finds no change is an error.
	triggered, ds := w.replaceTriggered(work, addr)
	if ds.HasErrors() {
		return plans.DeleteThenCreate, plans.ReplaceByTriggers, ds
	}
	switch {
	case priorObj == nil:
		return plans.Create, plans.ReasonNone, nil
	case priorObj.Status == states.ObjectTainted:
		return plans.DeleteThenCreate, plans.ReplaceBecauseTainted, nil
	case w.forcedReplace(addr):
		return plans.DeleteThenCreate, plans.ReplaceByRequest, nil
	case triggered:
		return plans.DeleteThenCreate, plans.ReplaceByTriggers, nil
	}
	switch {
	case len(changedReplacePaths(planned.requiresReplace, priorVal, planned.value)) > 0:
		return plans.DeleteThenCreate, plans.ReplaceBecauseCannotUpdate, nil
	case planned.value.RawEquals(priorVal):
		return plans.NoOp, plans.ReasonNone, nil
	}
	return plans.Update, plans.ReasonNone, nil
}

func (w *walker) forcedReplace(addr addrs.AbsResourceInstance) bool {
	for _, r := range w.planOpts.ForceReplace {
		if r.String() == addr.String() {
			return true
		}
	}
	return false
}

// changedReplacePaths keeps the paths a provider said require replacement
// whose value actually changes between prior and planned (an unknown
// planned value counts as a change), each once, in cty.PathSet's order: the
// set OpenTofu records as the change's required-replace paths and shows as
// replace_paths and "# forces replacement". Providers built on the plugin
// SDK name a set once per changed element and add "id" to every
// replacement; neither survives this. A path that exists on neither side
// is the provider's mistake and is left out.
func changedReplacePaths(paths []cty.Path, prior, planned cty.Value) []cty.Path {
	if len(paths) == 0 {
		return nil
	}
	changed := cty.NewPathSet()
	for _, p := range paths {
		a, errA := p.Apply(prior)
		b, errB := p.Apply(planned)
		switch {
		case errA != nil && errB != nil:
			continue
		case errA != nil:
			a = cty.NullVal(b.Type())
		case errB != nil:
			b = cty.NullVal(a.Type())
		}
		a, _ = marks.UnmarkDeep(a)
		b, _ = marks.UnmarkDeep(b)
		if eq := b.Equals(a); !eq.IsKnown() || eq.False() {
			changed.Add(p)
		}
	}
	return changed.List()
}

func traversalPath(t hcl.Traversal) (cty.Path, error) {
	var path cty.Path
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			path = path.GetAttr(s.Name)
		case hcl.TraverseAttr:
			path = path.GetAttr(s.Name)
		case hcl.TraverseIndex:
			path = path.Index(s.Key)
		default:
			return nil, fmt.Errorf("unsupported step in %v", t)
		}
	}
	return path, nil
}
