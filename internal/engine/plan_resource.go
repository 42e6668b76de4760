package engine

import (
	"bytes"
	"context"
	"fmt"
	"github.com/terrane/terrane/internal/marks"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/states"
)

// resourceWork is what every instance of one resource vertex shares.
type resourceWork struct {
	v        *resourceVertex
	schema   schema.Schema
	types    plans.ObjectTypes
	provider *configuredProvider
	body     *lang.PreparedBlock
	// identityVersion is the version of the type's identity schema,
	// recorded beside every identity.
	identityVersion uint64
}

// encode encodes obj for the state at the type's schema versions.
func (work *resourceWork) encode(obj *states.ResourceInstanceObject) (*states.ResourceInstanceObjectSrc, error) {
	return encodeObject(obj, work.types.Value, uint64(work.schema.Version), work.identityVersion)
}

// encodeObject encodes obj with the schema version and, when it has an
// identity, the identity schema version, as OpenTofu records them.
func encodeObject(obj *states.ResourceInstanceObject, ty cty.Type, version, identityVersion uint64) (*states.ResourceInstanceObjectSrc, error) {
	if obj.Identity != cty.NilVal && !obj.Identity.IsNull() {
		obj.IdentitySchemaVersion = identityVersion
	}
	return obj.Encode(ty, version)
}

func (w *walker) resourceWork(v *resourceVertex) (*resourceWork, diags.Diagnostics) {
	r := v.resource
	s, ok := w.resourceSchema(r)
	if !ok {
		kind := r.Mode.TypeKind()
		return nil, diags.Diagnostics{{Severity: diags.Error, Summary: "Unsupported " + kind,
			Detail:  fmt.Sprintf("Provider %s has no %s %q.", addrs.ProviderForDisplay(r.Provider), kind, r.Type),
			Subject: r.TypeRange.Ptr()}}
	}
	p := w.providers.forResource(addrs.ConfigResource{Module: v.module.Path, Resource: r.Addr()}, w.providers.get(v.provider))
	if passed, _ := passedProviderKey(v.module, r.ProviderConfigAddr()); p == nil && keyedProviderRef(r) == nil && passed == nil {
		return nil, diags.Diagnostics{{Severity: diags.Error, Summary: "Provider configuration not available",
			Detail:  fmt.Sprintf("%s could not be configured (see the errors above), so %s cannot be planned.", v.provider, v.key()),
			Subject: r.DeclRange.Ptr()}}
	}
	work := &resourceWork{v: v, schema: s, provider: p, body: lang.PrepareBlock(r.Config, s.Block.DecoderSpec())}
	work.types = plans.ObjectTypes{Value: s.Block.ImpliedType(), Identity: cty.NilType}
	if id, ok := w.providers.schemas.Identity(r.Provider, r.Type); ok && r.Mode == addrs.ManagedResourceMode {
		work.types.Identity = id.ImpliedType()
		work.identityVersion = uint64(id.Version)
	}
	return work, nil
}

// resourceSchema is the schema of a resource, data source or ephemeral
// resource block's type.
func (w *walker) resourceSchema(r *config.Resource) (schema.Schema, bool) {
	if r.Mode == addrs.EphemeralResourceMode {
		return w.providers.schemas.EphemeralResourceType(r.Provider, r.Type)
	}
	return w.providers.schemas.ResourceType(r.Provider, r.Mode == addrs.DataResourceMode, r.Type)
}

// runResource expands a resource in every instance of its module and
// plans (or applies) each instance in parallel; instances the state has
// but the expansion lacks are orphans.
func (w *walker) runResource(v *resourceVertex) (diags.Diagnostics, bool) {
	work, ds := w.resourceWork(v)
	if ds.HasErrors() {
		return ds, false
	}
	ds = ds.Append(w.recoverResource(work.provider, v.key()))
	expansionOK := true
	present := map[string]bool{}
	group := w.newInstanceGroup()
	spawn := group.start
	for _, inst := range w.values.moduleInstancesOf(v.module.Path) {
		abs := addrs.AbsResource{Module: inst, Resource: v.resource.Addr()}
		present[inst.String()] = true
		// An expansion not known while planning is an error, as in
		// OpenTofu, unless -target or -exclude leave the resource out.
		unknowns := lang.Unknowns{Allow: w.op == walkPlan && !w.planScope.includesResource(v.key(), abs), Excludable: abs.String()}
		exp, eds := w.expand(w.scopeIn(v.module, inst, repetition{}, nil), v.resource.Count, v.resource.ForEach, v.resource.Enabled, unknowns)
		ds = ds.Append(eds)
		expansionOK = expansionOK && !eds.HasErrors()
		w.values.setResourceExpansion(abs, exp)
		if exp.unknown {
			continue
		}
		if w.op == walkPlan && len(w.planOpts.ForceReplace) > 0 {
			ds = ds.Append(forceReplaceWarnings(abs, exp, w.planOpts.ForceReplace))
		}
		for _, key := range exp.keys {
			addr, rep := abs.Instance(key), exp.rep(key)
			if !w.inScope(work, addr) {
				spawn(func() diags.Diagnostics {
					instWork, ds := w.withInstanceProvider(work, addr, rep)
					if ds.HasErrors() {
						return ds
					}
					return w.loadStateValue(instWork, addr)
				})
				continue
			}
			spawn(func() diags.Diagnostics { return w.instance(work, addr, rep) })
		}
		for _, res := range w.stateByConfig[v.key()] {
			if res.Addr.Module.String() != inst.String() {
				continue
			}
			for key, obj := range res.Instances {
				if reason, orphan := orphanReason(exp, key); orphan && w.inScope(work, res.Addr.Instance(key)) {
					addr := res.Addr.Instance(key)
					spawn(func() diags.Diagnostics {
						return w.orphanWithProvider(work, addr, obj, reason)
					})
				}
			}
		}
	}
	for _, res := range w.stateByConfig[v.key()] {
		if present[res.Addr.Module.String()] {
			continue
		}
		for key, obj := range res.Instances {
			addr := res.Addr.Instance(key)
			if !w.inScope(work, addr) {
				continue
			}
			spawn(func() diags.Diagnostics {
				return w.orphanWithProvider(work, addr, obj, plans.DeleteBecauseNoModule)
			})
		}
	}
	ds = ds.Append(group.wait())
	if w.op == walkApply {
		return ds, expansionOK
	}
	return ds, !ds.HasErrors()
}

// instance plans or applies one expanded instance.
func (w *walker) instance(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) diags.Diagnostics {
	work, ds := w.withInstanceProvider(work, addr, rep)
	if ds.HasErrors() {
		if w.op == walkApply {
			w.markFailed(addr)
		}
		return ds
	}
	if w.op == walkApply {
		return w.applyInstanceOrSkip(work, addr, rep)
	}
	if work.v.resource.Mode == addrs.DataResourceMode {
		return w.planDataInstance(work, addr, rep)
	}
	return withResourceSource(withAddress(w.planManagedInstance(work, addr, rep), addr.String()), work.v.resource)
}

// orphanWithProvider plans the deletion of an instance only in state with
// the provider instance its resource's key expression selects for it.
func (w *walker) orphanWithProvider(work *resourceWork, addr addrs.AbsResourceInstance, obj *states.ResourceInstance, reason plans.ActionReason) diags.Diagnostics {
	if w.op == walkApply || addr.Resource.Resource.Mode == addrs.DataResourceMode {
		// Applies delete in the resource's destroy vertex; data source
		// results have nothing to delete and are simply not read.
		return nil
	}
	instWork, ds := w.withInstanceProvider(work, addr, orphanRepetition(addr.Resource.Key))
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(w.orphanInstance(instWork.provider, work.types, work.schema, addr, obj, reason, work.v.resource.Managed))
}

// deletesIn reports whether a plan may delete objects of addr: in a
// destroy plan, those in the scope of its destroy order.
func (w *walker) deletesIn(addr addrs.AbsResourceInstance) bool {
	return w.planOpts.Mode != plans.DestroyMode || w.planScope.destroys(addr)
}

// inScope reports whether a plan walk plans (or reads) addr: only within
// the plan's targets and excludes, data sources too, as in OpenTofu.
func (w *walker) inScope(work *resourceWork, addr addrs.AbsResourceInstance) bool {
	if w.op != walkPlan {
		return true
	}
	return w.planScope.includes(work.v.key(), addr)
}

// orphanReason says why a state instance with key has no place in exp.
func orphanReason(exp *expansion, key addrs.InstanceKey) (plans.ActionReason, bool) {
	if exp.has(key) {
		return plans.ReasonNone, false
	}
	switch k := key.(type) {
	case addrs.IntKey:
		if exp.mode == expandCount {
			return plans.DeleteBecauseCountIndex, true
		}
		_ = k
	case addrs.StringKey:
		if exp.mode == expandForEach {
			return plans.DeleteBecauseEachKey, true
		}
	default:
		if exp.mode == expandSingle {
			// A single resource without its one instance is one whose
			// lifecycle enabled is false.
			return plans.DeleteBecauseEnabledFalse, true
		}
	}
	return plans.DeleteBecauseWrongRepetition, true
}

// evalConfig evaluates an instance's configuration body with its schema.
func (w *walker) evalConfig(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) (cty.Value, diags.Diagnostics) {
	scope := w.scopeIn(work.v.module, addr.Module, rep, nil)
	val, hd := scope.EvalPreparedBlock(work.body)
	return val, diags.Diagnostics{}.Append(hd)
}

// refuseEphemeralConfig reports the ephemeral values an instance's
// configuration, unmarked into cfgMarks, gives to attributes that are not
// write-only: outside an ephemeral block, that is the only place one may
// go.
func refuseEphemeralConfig(work *resourceWork, addr addrs.AbsResourceInstance, cfgMarks []cty.PathValueMarks) diags.Diagnostics {
	ds := lang.EphemeralInPersistedAttributes(work.schema.Block, cfgMarks)
	return withResourceSource(withAddress(ds, addr.String()), work.v.resource)
}

// refreshed is a prior object brought up to date: upgraded to the current
// schema and, unless refresh is skipped, read back from the provider.
type refreshed struct {
	prior    *states.ResourceInstanceObject // as upgraded, before reading
	current  *states.ResourceInstanceObject // nil when the object is gone
	identity cty.Value
	// encoded are the encodings the plan already holds of the prior value
	// (its state record's JSON) and of the refreshed one (in its drift
	// change), for the object's planned change to share.
	encoded []plans.KnownEncoding
}

// refresh upgrades src with UpgradeResourceState and reads it back with
// ReadResource (unless skip), recording drift.
func (w *walker) refresh(p *configuredProvider, s schema.Schema, types plans.ObjectTypes, addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, src *states.ResourceInstanceObjectSrc, skip bool) (*refreshed, diags.Diagnostics) {
	obj, ds := w.upgrade(p, s, types, addr.Resource.Resource.Type, src)
	if ds.HasErrors() {
		return nil, ds
	}
	out := &refreshed{prior: obj, current: obj, identity: obj.Identity}
	if record := w.recordedObject(addr, deposed); record != nil && sameRecord(record, src) {
		// src is a copy of the record; the plan keeps the snapshot's, so
		// the values shared with it are the snapshot's bytes.
		obj.Private = sameBytesOr(record.Private, obj.Private)
		if known, ok := plans.RecordEncoding(obj.Value, types.Value, record.AttrsJSON); ok {
			out.encoded = append(out.encoded, known)
		}
	}
	if skip {
		return out, ds
	}
	for _, h := range w.e.opts.Hooks {
		h.PreRefresh(addr, deposed, obj.Value)
	}
	unmarked, pvm := marks.UnmarkDeepWithPaths(obj.Value)
	var resp providers.ReadResourceResponse
	meta, mds := w.providerMeta(addr.Module, p.addr.Provider)
	if ds = ds.Append(mds); mds.HasErrors() {
		return nil, ds
	}
	if err := w.providerCall(func(ctx context.Context) {
		resp = p.iface.ReadResource(ctx, providers.ReadResourceRequest{
			TypeName: addr.Resource.Resource.Type, PriorState: unmarked, Private: obj.Private, ProviderMeta: meta,
			CurrentIdentity: identityOrNil(obj.Identity, types.Identity),
		})
	}); err != nil {
		return nil, ds.Append(err)
	}
	ds = ds.Append(resp.Diagnostics)
	if resp.Diagnostics.HasErrors() {
		return nil, ds
	}
	resp.NewState = s.Block.NullWriteOnly(resp.NewState)
	for _, h := range w.e.opts.Hooks {
		h.PostRefresh(addr, deposed, obj.Value, resp.NewState)
	}
	if resp.NewState.IsNull() {
		out.current = nil
	} else {
		next := *obj
		next.Value = withProviderSensitive(marks.MarkWithPaths(marks.MarkWithPaths(resp.NewState, pvm), sensitivePaths(s.Block, resp.NewState)), resp.SensitivePaths)
		next.Private = sameBytesOr(obj.Private, resp.Private)
		if resp.NewIdentity != cty.NilVal && !resp.NewIdentity.IsNull() {
			next.Identity = resp.NewIdentity
			out.identity = resp.NewIdentity
		}
		out.current = &next
	}
	w.recordDrift(addr, deposed, p, types, out)
	return out, ds
}

func (w *walker) recordDrift(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, p *configuredProvider, types plans.ObjectTypes, r *refreshed) {
	before, _ := marks.UnmarkDeep(r.prior.Value)
	action := plans.Update
	after, unmarkedAfter := cty.NullVal(types.Value), cty.NilVal
	if r.current == nil {
		action = plans.Delete
	} else {
		after = r.current.Value
		unmarkedAfter, _ = marks.UnmarkDeep(after)
		if unmarkedAfter.RawEquals(before) {
			if !w.movedInRefreshOnlyPlan(addr, deposed) {
				return
			}
			// A refresh-only plan has no changes to carry a move: as in
			// OpenTofu, the move is drift of its own ("has moved to"),
			// which applying the plan records.
			action = plans.NoOp
		}
	}
	change := &plans.ResourceInstanceChange{
		ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr, DeposedKey: deposed,
			ProviderAddr: p.instanceAddr()},
		Change: plans.Change{Action: action, Before: r.prior.Value, After: after, BeforeIdentity: identityOrNil(r.prior.Identity, types.Identity), AfterIdentity: identityOrNil(r.identity, types.Identity)},
	}
	if r.current != nil {
		change.Private = r.current.Private
	}
	if src := w.addDrift(change, types, r.encoded); src != nil && unmarkedAfter != cty.NilVal {
		r.encoded = append(r.encoded, plans.KnownEncoding{Value: unmarkedAfter, Encoded: src.After})
	}
}

// sameBytesOr returns held when next has the same content, so that a
// provider's answer repeating what the plan already holds (private data,
// most often) is not held twice.
func sameBytesOr(held, next []byte) []byte {
	if bytes.Equal(held, next) && held != nil {
		return held
	}
	return next
}

// movedInRefreshOnlyPlan reports whether a refresh-only plan finds the
// current object of addr moved there by a moved block.
func (w *walker) movedInRefreshOnlyPlan(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey) bool {
	if w.planOpts.Mode != plans.RefreshOnlyMode || w.refactor == nil || deposed != addrs.NotDeposed {
		return false
	}
	return w.refactor.moves.PrevRunAddr(addr).String() != addr.String()
}

func identityOrNil(v cty.Value, ty cty.Type) cty.Value {
	if ty == cty.NilType {
		return cty.NilVal
	}
	if v == cty.NilVal {
		return cty.NullVal(ty)
	}
	return v
}

func sensitivePaths(block *schema.Block, val cty.Value) []cty.PathValueMarks {
	paths := block.SensitivePaths(val)
	out := make([]cty.PathValueMarks, len(paths))
	for i, p := range paths {
		out[i] = cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(marks.Sensitive)}
	}
	return out
}

// upgrade decodes a stored object through UpgradeResourceState, which the
// protocol asks for on every object read from state, whatever its version.
func (w *walker) upgrade(p *configuredProvider, s schema.Schema, types plans.ObjectTypes, typeName string, src *states.ResourceInstanceObjectSrc) (*states.ResourceInstanceObject, diags.Diagnostics) {
	var resp providers.UpgradeResourceStateResponse
	if err := w.providerCall(func(ctx context.Context) {
		resp = p.iface.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{
			TypeName: typeName, Version: int64(src.SchemaVersion), RawStateJSON: src.AttrsJSON, RawStateFlatmap: src.AttrsFlat,
		})
	}); err != nil {
		return nil, diags.Diagnostics{}.Append(err)
	}
	if resp.Diagnostics.HasErrors() {
		return nil, resp.Diagnostics
	}
	current := *src
	current.SchemaVersion = uint64(s.Version)
	if types.Identity == cty.NilType {
		current.IdentityJSON = nil
	}
	val := s.Block.NullWriteOnly(resp.UpgradedState)
	if len(src.SensitivePaths) > 0 {
		pvm := make([]cty.PathValueMarks, len(src.SensitivePaths))
		for i, path := range src.SensitivePaths {
			pvm[i] = cty.PathValueMarks{Path: path, Marks: cty.NewValueMarks(marks.Sensitive)}
		}
		val = marks.MarkWithPaths(val, pvm)
	}
	val = marks.MarkWithPaths(val, sensitivePaths(s.Block, val))
	// The stored attributes are not decoded again: the upgraded value
	// replaces them, and only the identity is read from the record.
	obj, err := current.DecodeWith(val, identityTypeOrNil(types.Identity, current.IdentityJSON))
	if err != nil {
		obj = &states.ResourceInstanceObject{Value: val, Private: src.Private, Status: src.Status, Dependencies: src.Dependencies, CreateBeforeDestroy: src.CreateBeforeDestroy}
	}
	return obj, resp.Diagnostics
}

func identityTypeOrNil(ty cty.Type, raw []byte) cty.Type {
	if len(raw) == 0 {
		return cty.NilType
	}
	return ty
}

// orphanInstance plans the deletion of an instance the configuration no
// longer has (apply: deletes happen in destroy vertices).
func (w *walker) orphanInstance(p *configuredProvider, types plans.ObjectTypes, s schema.Schema, addr addrs.AbsResourceInstance, inst *states.ResourceInstance, reason plans.ActionReason, managed *config.ManagedResource) diags.Diagnostics {
	if w.op == walkApply || addr.Resource.Resource.Mode == addrs.DataResourceMode {
		return nil
	}
	if ds, leaveAlone := w.checkOpenIntent(addr, inst); leaveAlone {
		return ds
	}
	var ds diags.Diagnostics
	if !w.deletesIn(addr) {
		// A destroy plan's targets leave it alone; it is only refreshed,
		// as the plan's scope of refreshing takes it in.
		if inst.Current != nil && !w.planOpts.SkipRefresh {
			_, rds := w.refresh(p, s, types, addr, addrs.NotDeposed, inst.Current, false)
			ds = ds.Append(rds)
		}
		return ds.WithAddress(addr.String())
	}
	if inst.Current != nil {
		ds = ds.Append(w.planDelete(p, types, s, addr, addrs.NotDeposed, inst.Current, reason, managed))
	}
	for _, key := range inst.SortedDeposedKeys() {
		ds = ds.Append(w.planDelete(p, types, s, addr, key, inst.Deposed[key], plans.ReasonNone, managed))
	}
	return ds.WithAddress(addr.String())
}

// planDelete refreshes an object and plans its deletion, through
// PlanResourceChange when the provider asks for that (plan_destroy).
func (w *walker) planDelete(p *configuredProvider, types plans.ObjectTypes, s schema.Schema, addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, src *states.ResourceInstanceObjectSrc, reason plans.ActionReason, managed *config.ManagedResource) diags.Diagnostics {
	skip := w.planOpts.SkipRefresh || !w.planScope.refreshes(addr.ContainingResource().Config().String(), addr)
	r, ds := w.refresh(p, s, types, addr, deposed, src, skip)
	if ds.HasErrors() || r.current == nil {
		return ds // gone already: nothing to delete
	}
	configSkip, sds := skipDestroy(managed)
	if ds = ds.Append(sds); sds.HasErrors() {
		return ds
	}
	if forgot, forget := forgetReason(configSkip, src.SkipDestroy); forget {
		return ds.Append(leavesManagementWarning(addr)).Append(w.planForget(p, types, addr, deposed, r, forgot))
	}
	private := r.current.Private
	plannedIdentity := cty.NilVal
	if w.providers.schemas.Providers[p.addr.Provider].ServerCapabilities.PlanDestroy {
		unmarked, _ := marks.UnmarkDeep(r.current.Value)
		var resp providers.PlanResourceChangeResponse
		meta, _ := w.providerMeta(addr.Module, p.addr.Provider)
		if err := w.providerCall(func(ctx context.Context) {
			resp = p.iface.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
				TypeName: addr.Resource.Resource.Type, PriorState: unmarked, ProposedNewState: cty.NullVal(types.Value), ProviderMeta: meta,
				Config: cty.NullVal(types.Value), PriorPrivate: private, PriorIdentity: identityOrNil(r.identity, types.Identity),
			})
		}); err != nil {
			return ds.Append(err)
		}
		ds = ds.Append(resp.Diagnostics)
		if resp.Diagnostics.HasErrors() {
			return ds
		}
		private = resp.PlannedPrivate
		// OpenTofu records what the provider planned as the identity after
		// a destroy: the framework answers with the object's identity.
		plannedIdentity = resp.PlannedIdentity
	}
	change := &plans.ResourceInstanceChange{
		ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr, DeposedKey: deposed,
			ProviderAddr: p.instanceAddr(), ActionReason: reason, Private: private},
		Change: plans.Change{Action: plans.Delete, Before: r.current.Value, After: cty.NullVal(types.Value),
			BeforeIdentity: identityOrNil(r.identity, types.Identity), AfterIdentity: identityOrNil(plannedIdentity, types.Identity)},
	}
	return ds.Append(w.addChange(change, types, r.encoded...))
}

// runOrphan plans the deletion of every instance of a resource that is
// only in state.
func (w *walker) runOrphan(v *orphanVertex) diags.Diagnostics {
	p := w.providers.forResource(v.addr, w.providers.get(v.provider))
	resources := w.stateByConfig[v.addr.String()]
	if p == nil && len(resources) > 0 && w.providers.keysOf(v.provider) != nil && w.op == walkPlan {
		return diags.Diagnostics{diags.Errorf("Provider instance not recorded",
			"%s is no longer in the configuration, and its provider configuration %s has for_each, so which instance its objects belong to is not known. "+
				"Put the resource block back with its provider argument and an empty for_each or count = 0 to destroy its objects, then remove it.", v.addr, v.provider)}
	}
	if p == nil || len(resources) == 0 {
		return nil
	}
	ds := w.recoverResource(p, v.addr.String())
	if w.op == walkApply {
		return ds // deleted by the resource's destroy vertex
	}
	res := resources[0]
	s, ok := w.providers.schemas.ResourceType(v.provider.Provider, res.Addr.Resource.Mode == addrs.DataResourceMode, res.Addr.Resource.Type)
	if !ok {
		return diags.Diagnostics{diags.Errorf("Unsupported resource type", "Provider %s has no resource type %q, which the state has objects of at %s.", addrs.ProviderForDisplay(v.provider.Provider), res.Addr.Resource.Type, v.addr)}
	}
	types := plans.ObjectTypes{Value: s.Block.ImpliedType(), Identity: cty.NilType}
	if id, ok := w.providers.schemas.Identity(v.provider.Provider, res.Addr.Resource.Type); ok {
		types.Identity = id.ImpliedType()
	}
	// As in OpenTofu, a resource whose module call is gone is not in the
	// configuration either: that no module instance exists is the reason
	// only while the call still does.
	reason := plans.DeleteBecauseNoResourceConfig
	for _, res := range resources {
		for key, inst := range res.Instances {
			if !w.planScope.includes(v.addr.String(), res.Addr.Instance(key)) {
				continue
			}
			ds = ds.Append(w.orphanInstance(p, types, s, res.Addr.Instance(key), inst, reason, nil))
		}
	}
	return ds
}
