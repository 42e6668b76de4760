package engine

import (
	"context"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plans/objchange"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
)

// applyInstance carries out the plan's change to one instance's current
// object, or, when there is none, makes its state value available to the
// expressions that refer to it.
func (w *walker) applyInstance(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) diags.Diagnostics {
	src := w.applier.changes[addr.String()]
	if src != nil && src.Importing != nil && src.DeposedKey == addrs.NotDeposed {
		// The object was recorded before the walk; its import is
		// reported where OpenTofu reports it, before its change.
		id := src.Importing.ID
		w.importHooks(func(h ImportHook) { h.PreApplyImport(addr, id) })
		w.importHooks(func(h ImportHook) { h.PostApplyImport(addr, id) })
	}
	if work.v.resource.Mode == addrs.DataResourceMode {
		if w.planOpts.Mode == plans.DestroyMode {
			return nil
		}
		return w.applyDataInstance(work, addr, rep)
	}
	if src == nil || src.Action == plans.NoOp {
		if ds := w.persistDrift(work, addr); ds.HasErrors() {
			return ds
		}
		if ds := w.recordCurrentDependencies(work, addr); ds.HasErrors() {
			return ds
		}
		ds := w.loadStateValue(work, addr)
		if src != nil {
			// An object the plan leaves as it is still has its conditions
			// checked again with the values the apply knows, as OpenTofu
			// checks them.
			ds = ds.Append(w.recheckConditions(work, addr, rep))
		}
		return ds
	}
	if src.Action == plans.Delete {
		// The object's destroy waits only for the destroys of what depends
		// on it, so it may already be gone from the working state: what
		// reads the object's value (an output of its module) reads it
		// from the state the plan was made from.
		return w.loadStateValueFrom(w.snapshot.State.ResourceInstance(addr), work, addr)
	}
	if ds, refused := w.refuseOpenIntent(addr); refused {
		w.markFailed(addr) // what depends on it waits too
		return ds
	}
	change, err := src.Decode(work.types)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot read the saved plan", "The change to %s could not be decoded: %s. Make a new plan.", addr, err)}
	}
	return withResourceSource(withAddress(w.applyChange(work, addr, rep, change), addr.String()), work.v.resource)
}

// applyDataInstance reads a data source during apply, between its
// preconditions and its postconditions.
func (w *walker) applyDataInstance(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) diags.Diagnostics {
	if w.planOpts.Mode == plans.DestroyMode {
		return nil
	}
	w.dataRead.add(addr)
	if w.leftOutByTargets(work, addr) {
		return nil
	}
	cfgVal, ds := w.evalConfig(work, addr, rep)
	if w.readsFailed(addr, cfgVal) {
		return nil
	}
	if ds.HasErrors() {
		return ds
	}
	if ds = ds.Append(w.checkPreconditions(work, addr, rep)); ds.HasErrors() {
		return ds
	}
	unmarked, cfgMarks := cfgVal.UnmarkDeepWithPaths()
	if eds := refuseEphemeralConfig(work, addr, cfgMarks); eds.HasErrors() {
		return ds.Append(eds)
	}
	val, rds := w.dataResult(work, addr, unmarked, cfgMarks)
	if work.v.resource.ScopedToCheck != "" {
		var failed bool
		val, rds, failed = w.settleCheckScopedRead(work, addr, unmarked, val, rds)
		if failed {
			w.values.set(w.values.instances, addr.String(), val.MarkWithPaths(cfgMarks))
			return ds.Append(rds)
		}
	}
	w.values.set(w.values.instances, addr.String(), val.MarkWithPaths(cfgMarks))
	if ds = ds.Append(rds); ds.HasErrors() {
		return ds
	}
	ds = ds.Append(w.recordDataResult(work, addr, val.MarkWithPaths(cfgMarks)))
	return ds.Append(w.checkPostconditions(work, addr, rep))
}

// recheckConditions checks an unchanged instance's preconditions, then its
// postconditions, during apply.
func (w *walker) recheckConditions(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) diags.Diagnostics {
	r := work.v.resource
	if len(r.Preconditions) == 0 && len(r.Postconditions) == 0 {
		return nil
	}
	ds := w.checkPreconditions(work, addr, rep)
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(w.checkPostconditions(work, addr, rep))
}

// leftOutByTargets reports whether a plan made with -target or -exclude
// left the data source instance addr out: it has no read planned and no
// result the plan read or found recorded. The apply does not read it, as
// OpenTofu does not; it is absent.
func (w *walker) leftOutByTargets(work *resourceWork, addr addrs.AbsResourceInstance) bool {
	plan := w.applier.plan
	if len(plan.TargetAddrs) == 0 && len(plan.ExcludeAddrs) == 0 {
		return false
	}
	if w.applier.changes[addr.String()] != nil {
		return false
	}
	if _, ok := w.plannedDataValue(work, addr); ok {
		return false
	}
	w.values.setAbsent(addr.String(), work.types.Value)
	return true
}

// loadStateValue makes an unchanged instance's value available to the
// expressions that read it. Its object is decoded (through the provider's
// UpgradeResourceState) only if one does; a problem decoding it is reported
// with the walk's other diagnostics (see lazyLoadDiags).
func (w *walker) loadStateValue(work *resourceWork, addr addrs.AbsResourceInstance) diags.Diagnostics {
	return w.loadStateValueFrom(w.prior.ResourceInstance(addr), work, addr)
}

// loadStateValueFrom makes inst's current object the value of addr; an
// instance with none is absent (see walkValues.absent).
func (w *walker) loadStateValueFrom(inst *states.ResourceInstance, work *resourceWork, addr addrs.AbsResourceInstance) diags.Diagnostics {
	if inst == nil || inst.Current == nil {
		w.values.setAbsent(addr.String(), work.types.Value)
		return nil
	}
	src := inst.Current
	w.values.setLazy(addr.String(), func() cty.Value {
		obj, ds := w.upgrade(work.provider, work.schema, work.types, addr.Resource.Resource.Type, src)
		if len(ds) > 0 {
			w.lazyMu.Lock()
			w.lazyDiags = w.lazyDiags.Append(ds.WithAddress(addr.String()))
			w.lazyMu.Unlock()
		}
		if obj == nil {
			return cty.DynamicVal
		}
		return obj.Value
	})
	return nil
}

// lazyLoadDiags are the diagnostics of the state values loaded on demand
// during the walk.
func (w *walker) lazyLoadDiags() diags.Diagnostics {
	w.lazyMu.Lock()
	defer w.lazyMu.Unlock()
	return w.lazyDiags
}

// applyChange runs one create, update or replacement: plan again with
// known values, check that against the saved plan, record the intent,
// call the provider, check and record the result.
func (w *walker) applyChange(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition, change *plans.ResourceInstanceChange) diags.Diagnostics {
	if change.Action == plans.ForgetThenCreate {
		// The old object is left alone, unmanaged: its record is simply
		// overwritten by the new one, created as any new object is.
		create := *change
		create.Action, create.Before = plans.Create, cty.NullVal(work.types.Value)
		change = &create
	}
	cfgVal, ds := w.evalConfig(work, addr, rep)
	if w.readsFailed(addr, cfgVal) {
		return nil
	}
	if ds.HasErrors() {
		return ds
	}
	// Preconditions are checked again with the values known now; one that
	// fails stops the change before any call is made.
	if ds = ds.Append(w.checkPreconditions(work, addr, rep)); ds.HasErrors() {
		return ds
	}
	cfgVal, cfgMarks := cfgVal.UnmarkDeepWithPaths()
	if eds := refuseEphemeralConfig(work, addr, cfgMarks); eds.HasErrors() {
		return ds.Append(eds)
	}
	inst := w.prior.ResourceInstance(addr)
	var priorObj *states.ResourceInstanceObjectSrc
	if inst != nil {
		priorObj = inst.Current
	}
	priorVal, _ := change.Before.UnmarkDeep()
	var priorPrivate []byte
	if priorObj != nil {
		priorPrivate = priorObj.Private
	}
	if drift := w.applier.drift[addr.String()]; drift != nil && drift.Private != nil {
		// change.Before is what the plan's refresh read, so the private data
		// that goes with it is that read's, not the record's older one.
		priorPrivate = drift.Private
	}
	intentOp := states.IntentUpdate
	switch change.Action {
	case plans.Create:
		intentOp = states.IntentCreate
	case plans.DeleteThenCreate:
		intentOp = states.IntentReplaceDestroyBeforeCreate
	case plans.CreateThenDelete:
		intentOp = states.IntentReplaceCreateBeforeDestroy
	}
	if change.Action == plans.Create || change.Action.IsReplace() {
		// A new object has no prior private data; the plan's is what the
		// provider chose for it (a Pulumi provider's random seed, say), so
		// the re-plan makes the same choices the plan showed.
		priorVal, priorPrivate = cty.NullVal(work.types.Value), change.Private
	} else {
		cfgVal = applyIgnoreChanges(work.v.resource.Managed, priorVal, cfgVal)
	}
	planned, pds := w.planResourceChange(work, addr, priorVal, cfgVal, cfgMarks, priorPrivate, change.BeforeIdentity)
	ds = ds.Append(pds)
	if pds.HasErrors() {
		return ds
	}
	if change.Action == plans.Update && planned.value.RawEquals(priorVal) && sameSensitivity(change) {
		// What was unknown when planning turned out to leave the object as
		// it is: as in OpenTofu, nothing is applied and nothing reported.
		// A change of sensitivity alone is still applied, to be recorded.
		return ds.Append(w.loadStateValue(work, addr)).Append(w.checkPostconditions(work, addr, rep))
	}
	plannedAfter, _ := change.After.UnmarkDeep()
	for _, err := range checkReplanCompatible(work.schema.Block, plannedAfter, planned.value) {
		ds = ds.Append(diags.Errorf("Provider produced inconsistent final plan",
			"When expanding the plan for %s to include new values learned so far during apply, provider %s produced an invalid new value for %s.\n\nThis is a bug in the provider; report it to its developers.",
			addr, addrs.ProviderForDisplay(work.provider.addr.Provider), describeValueError(addr, err)))
	}
	if ds.HasErrors() {
		return ds
	}
	ds = ds.Append(w.operation(work.provider, addr, func() diags.Diagnostics {
		if ds := w.openIntent(work, addr, intentOp, planned.value); ds.HasErrors() {
			return ds
		}
		if change.Action == plans.DeleteThenCreate {
			if dds := w.deleteObject(work.provider, work.types, addr, addrs.NotDeposed, change.Before, priorObj); dds.HasErrors() {
				return dds.Append(w.closeIntent(addr, work.provider.addr, dds))
			}
		}
		if change.Action == plans.CreateThenDelete {
			w.prior.DeposeResourceInstanceObject(addr)
		}
		return w.callApply(work, addr, change, priorVal, planned, cfgVal, cfgMarks)
	}))
	if ds.HasErrors() {
		return ds
	}
	// The new object is recorded whatever its postconditions say; a
	// failed one stops what depends on it, as a failed apply does.
	return ds.Append(w.checkPostconditions(work, addr, rep))
}

// openIntent records, durably, that a provider call that may create,
// replace or delete the object at addr is about to be made.
func (w *walker) openIntent(work *resourceWork, addr addrs.AbsResourceInstance, op states.IntentOperation, planned cty.Value) diags.Diagnostics {
	return w.openIntentFor(work.provider.addr, addr, addrs.NotDeposed, op, work.types.Value, planned)
}

func (w *walker) openIntentFor(provider addrs.AbsProviderConfig, addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, op states.IntentOperation, ty cty.Type, planned cty.Value) diags.Diagnostics {
	unmarked, _ := planned.UnmarkDeep()
	raw, err := ctymsgpack.Marshal(unmarked, ty)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot record an intent", "The planned value of %s could not be encoded: %s.", addr, err)}
	}
	// The journal stamps the holder (this process), so a later run can
	// tell whether the run that opened the intent is still alive.
	w.prior.SetIntent(addr, &states.Intent{Operation: op, PlannedMsgpack: raw, PlannedType: ty, RunID: w.e.opts.RunID,
		StartedAt: time.Now().UTC(), DeposedKey: deposed}, provider)
	ds := w.writeInstance(addr, provider, recordIntent)
	if ds.HasErrors() {
		w.prior.SetIntent(addr, nil, provider) // never written: nothing to close
	}
	return ds
}

// closeIntent records the outcome of a call that failed. When the provider
// gave no answer (it crashed or the connection broke) the call may or may
// not have changed the object, so the intent stays open for the next run's
// recovery to resolve: read back for updates and deletes, reported by
// address for creates. A failure the provider answered with, or a call
// that was never sent, changed nothing: the intent is withdrawn.
func (w *walker) closeIntent(addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig, callDiags diags.Diagnostics) diags.Diagnostics {
	if providers.OutcomeUnknown(callDiags) {
		return nil
	}
	w.prior.SetIntent(addr, nil, provider)
	return w.writeInstance(addr, provider, recordResult)
}

// callApply makes the ApplyResourceChange call and records its result.
func (w *walker) callApply(work *resourceWork, addr addrs.AbsResourceInstance, change *plans.ResourceInstanceChange, priorVal cty.Value, planned *plannedObject, cfgVal cty.Value, cfgMarks []cty.PathValueMarks) diags.Diagnostics {
	for _, h := range w.e.opts.Hooks {
		h.PreApply(addr, addrs.NotDeposed, change.Action, change.Before, change.After)
	}
	var resp providers.ApplyResourceChangeResponse
	meta, _ := w.providerMeta(addr.Module, work.v.provider.Provider) // planning reported any problem
	callErr := w.providerCall(func(ctx context.Context) {
		resp = work.provider.iface.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
			TypeName: addr.Resource.Resource.Type, PriorState: priorVal, PlannedState: planned.value, Config: cfgVal, ConfigSensitivePaths: sensitivePathsOf(cfgMarks), ProviderMeta: meta,
			PlannedPrivate: planned.private, PlannedIdentity: identityOrNil(planned.identity, work.types.Identity),
			IgnoreChanges: ignoredPaths(work.v.resource.Managed, work.schema.Block),
		})
	})
	ds := diags.Diagnostics{}.Append(resp.Diagnostics)
	if callErr != nil {
		// Never started: the intent is withdrawn, nothing happened.
		w.prior.SetIntent(addr, nil, work.provider.addr)
		return ds.Append(callErr).Append(w.writeInstance(addr, work.provider.addr, recordResult))
	}
	if providers.OutcomeUnknown(resp.Diagnostics) {
		w.hooksPostApply(addr, addrs.NotDeposed, cty.NullVal(work.types.Value), resp.Diagnostics.Err())
		return ds // the intent stays open: see closeIntent
	}
	newVal := resp.NewState
	if newVal == cty.NilVal {
		newVal = cty.NullVal(work.types.Value)
	}
	if !resp.Diagnostics.HasErrors() {
		for _, err := range checkAppliedCompatible(work.schema.Block, planned.value, newVal) {
			if resp.LegacyTypeSystem {
				w.e.logger.Warn("provider produced an inconsistent result; tolerated for a legacy type system provider", "address", addr.String(), "problem", err.Error())
				continue
			}
			ds = ds.Append(diags.Errorf("Provider produced inconsistent result after apply",
				"When applying changes to %s, provider %s produced an unexpected new value: %s.\n\nThis is a bug in the provider; report it to its developers.",
				addr, addrs.ProviderForDisplay(work.provider.addr.Provider), describeValueError(addr, err)))
		}
	}
	w.prior.SetIntent(addr, nil, work.provider.addr)
	newVal = work.schema.Block.NullWriteOnly(newVal)
	if !newVal.IsNull() && newVal.IsWhollyKnown() {
		obj := &states.ResourceInstanceObject{Value: withProviderSensitive(newVal.MarkWithPaths(cfgMarks).MarkWithPaths(sensitivePaths(work.schema.Block, newVal)), resp.SensitivePaths),
			Private: resp.Private, Identity: resp.NewIdentity, Status: states.ObjectReady,
			Dependencies:        w.dependenciesOf(work),
			CreateBeforeDestroy: w.createBeforeDestroy(work),
			SkipDestroy:         skipDestroyOf(work)}
		if ds.HasErrors() && (change.Action == plans.Create || change.Action.IsReplace()) {
			// A new object that failed part-way may be half made, so the
			// next plan replaces it. An existing object that failed an
			// update is still the object it was: the next plan updates it
			// again.
			obj.Status = states.ObjectTainted
		}
		src, err := work.encode(obj)
		if err != nil {
			ds = ds.Append(diags.Errorf("Cannot record the new object", "The new value of %s could not be encoded: %s.", addr, err))
		} else {
			w.prior.SetResourceInstanceCurrent(addr, src, work.provider.addr)
			w.prior.SetResourceInstanceProviderKey(addr, work.provider.key)
		}
		w.values.set(w.values.instances, addr.String(), obj.Value)
	} else if change.Action == plans.Create || change.Action.IsReplace() {
		w.prior.SetResourceInstanceCurrent(addr, nil, work.provider.addr)
	}
	ds = ds.Append(w.writeInstance(addr, work.provider.addr, recordResult))
	ds = ds.Append(w.recordComponentChildren(addr, resp.Children))
	w.hooksPostApply(addr, addrs.NotDeposed, newVal, ds.Err())
	return ds
}

func (w *walker) hooksPostApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, newVal cty.Value, err error) {
	for _, h := range w.e.opts.Hooks {
		h.PostApply(addr, deposed, newVal, err)
	}
}

// deleteObject deletes one object (current or deposed) through
// ApplyResourceChange with a null planned state, and records that.
func (w *walker) deleteObject(p *configuredProvider, types plans.ObjectTypes, addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, before cty.Value, src *states.ResourceInstanceObjectSrc) diags.Diagnostics {
	var private []byte
	if src != nil {
		private = src.Private
	}
	priorVal, _ := before.UnmarkDeep()
	for _, h := range w.e.opts.Hooks {
		h.PreApply(addr, deposed, plans.Delete, before, cty.NullVal(types.Value))
	}
	var resp providers.ApplyResourceChangeResponse
	meta, _ := w.providerMeta(addr.Module, p.addr.Provider)
	if err := w.providerCall(func(ctx context.Context) {
		resp = p.iface.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
			TypeName: addr.Resource.Resource.Type, PriorState: priorVal, PlannedState: cty.NullVal(types.Value),
			Config: cty.NullVal(types.Value), PlannedPrivate: private, ProviderMeta: meta,
		})
	}); err != nil {
		return diags.Diagnostics{}.Append(err)
	}
	// As in OpenTofu, which destroys without the resource's configuration,
	// what the provider says about a destroy names no block or object.
	ds := resp.Diagnostics
	switch {
	case !ds.HasErrors():
		if deposed == addrs.NotDeposed {
			w.prior.SetResourceInstanceCurrent(addr, nil, p.addr)
			ds = ds.Append(w.recordComponentChildren(addr, resp.Children))
		} else {
			w.prior.SetResourceInstanceDeposed(addr, deposed, nil, p.addr)
		}
	case !providers.OutcomeUnknown(ds):
		w.keptAfterFailedDestroy(addr, deposed, p.addr)
	}
	w.hooksPostApply(addr, deposed, cty.NullVal(types.Value), ds.Err())
	return ds
}

// keptAfterFailedDestroy records an object a provider refused to destroy
// as OpenTofu rewrites it then: no longer create_before_destroy, since the
// destroy was made without the resource's configuration.
func (w *walker) keptAfterFailedDestroy(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, provider addrs.AbsProviderConfig) {
	inst := w.prior.ResourceInstance(addr)
	if inst == nil {
		return
	}
	obj := inst.Current
	if deposed != addrs.NotDeposed {
		obj = inst.Deposed[deposed]
	}
	if obj == nil || !obj.CreateBeforeDestroy {
		return
	}
	kept := *obj
	kept.CreateBeforeDestroy = false
	if deposed == addrs.NotDeposed {
		w.prior.SetResourceInstanceCurrent(addr, &kept, provider)
	} else {
		w.prior.SetResourceInstanceDeposed(addr, deposed, &kept, provider)
	}
}

func (w *walker) dependenciesOf(work *resourceWork) []addrs.ConfigResource {
	if w.applier == nil || w.applier.resourceDeps == nil {
		return nil
	}
	var out []addrs.ConfigResource
	for _, k := range sortedKeys(w.applier.resourceDeps[work.v.key()]) {
		switch v := w.applier.graph.vertices[k].(type) {
		case *resourceVertex:
			out = append(out, addrs.ConfigResource{Module: v.module.Path, Resource: v.resource.Addr()})
		case *ephemeralVertex:
			out = append(out, addrs.ConfigResource{Module: v.module.Path, Resource: v.resource.Addr()})
		}
	}
	return out
}

// resourceInState reports whether the prior state has any instance of
// addr's resource.
func (w *walker) resourceInState(addr addrs.AbsResourceInstance) bool {
	_, ok := w.prior.ResourceProvider(addr.ContainingResource())
	return ok
}

// sameSensitivity reports whether a change leaves the object's sensitive
// paths as they were.
func sameSensitivity(change *plans.ResourceInstanceChange) bool {
	_, before := change.Before.UnmarkDeepWithPaths()
	_, after := change.After.UnmarkDeepWithPaths()
	return objchange.SameMarkedPaths(before, after)
}
