package engine

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/builtin/remotestate"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine/journal"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plans/objchange"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
)

// planDataInstance reads a data source during planning when its
// configuration is known and nothing it depends on has changes pending;
// otherwise it plans the read for apply, with the reason.
func (w *walker) planDataInstance(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) diags.Diagnostics {
	if w.planOpts.Mode == plans.DestroyMode {
		return w.refreshDataBeforeDestroy(work, addr, rep)
	}
	if ds := w.checkPreconditions(work, addr, rep); ds.HasErrors() {
		w.values.set(w.values.instances, addr.String(), cty.DynamicVal)
		return ds
	}
	cfgVal, ds := w.evalConfig(work, addr, rep)
	if ds.HasErrors() {
		return ds
	}
	unmarked, cfgMarks := cfgVal.UnmarkDeepWithPaths()
	if eds := refuseEphemeralConfig(work, addr, cfgMarks); eds.HasErrors() {
		return ds.Append(eds)
	}
	reason := plans.ReasonNone
	switch {
	case !unmarked.IsWhollyKnown():
		reason = plans.ReadBecauseConfigUnknown
	case w.dependencyPending(work, addr):
		reason = plans.ReadBecauseDependencyPending
	}
	if reason != plans.ReasonNone {
		// Read at apply: what the provider computes is unknown until then.
		after := objchange.PlannedDataResourceObject(work.schema.Block, unmarked).MarkWithPaths(cfgMarks)
		w.values.set(w.values.instances, addr.String(), after)
		change := &plans.ResourceInstanceChange{
			ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr,
				ProviderAddr: work.provider.instanceAddr(), ActionReason: reason},
			Change: plans.Change{Action: plans.Read, Before: cty.NullVal(work.types.Value), After: after},
		}
		ds = ds.Append(w.addChange(change, work.types))
		return ds.Append(w.checkPostconditions(work, addr, rep))
	}
	val, rds := w.readData(work, addr, unmarked, cfgMarks)
	if work.v.resource.ScopedToCheck != "" {
		return ds.Append(w.planCheckScopedRead(work, addr, rep, unmarked, cfgMarks, val, rds))
	}
	ds = ds.Append(rds)
	if rds.HasErrors() {
		return ds
	}
	w.values.set(w.values.instances, addr.String(), val.MarkWithPaths(cfgMarks))
	ds = ds.Append(w.keepPlannedDataResult(work, addr, val.MarkWithPaths(cfgMarks)))
	return ds.Append(w.checkPostconditions(work, addr, rep))
}

func (w *walker) readData(work *resourceWork, addr addrs.AbsResourceInstance, cfgVal cty.Value, cfgMarks []cty.PathValueMarks) (val cty.Value, ds diags.Diagnostics) {
	done := w.hookDataRead(addr, work.types.Value)
	defer func() { done(val, ds) }()
	var vresp providers.ValidateDataResourceConfigResponse
	var resp providers.ReadDataSourceResponse
	meta, mds := w.providerMeta(addr.Module, work.v.provider.Provider)
	if mds.HasErrors() {
		return cty.DynamicVal, mds
	}
	if err := w.providerCall(func(ctx context.Context) {
		vresp = work.provider.iface.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: addr.Resource.Resource.Type, Config: cfgVal})
		if vresp.Diagnostics.HasErrors() {
			return
		}
		if addr.Resource.Resource.Type == remotestate.TypeName {
			// Which remote_state_data_source target decrypts what it
			// reads depends on the data source's address.
			ctx = remotestate.ContextWithAddress(ctx, addr)
		}
		resp = work.provider.iface.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: addr.Resource.Resource.Type, Config: cfgVal,
			ConfigSensitivePaths: sensitivePathsOf(cfgMarks), ProviderMeta: meta})
	}); err != nil {
		return cty.DynamicVal, diags.Diagnostics{}.Append(err)
	}
	ds = withResourceSource(vresp.Diagnostics.Append(resp.Diagnostics).WithAddress(addr.String()), work.v.resource)
	if ds.HasErrors() {
		return cty.DynamicVal, ds
	}
	val = resp.State
	return withProviderSensitive(val.MarkWithPaths(sensitivePaths(work.schema.Block, val)), resp.SensitivePaths), ds
}

// checkOpenIntent says whether an instance must be left out of the plan
// because an intent on it is still open after recovery. An interrupted
// create gets an error: the object may exist without Terrane knowing it,
// and only the user can say whether it does. Claims of live runs and
// intents that could not be read back were reported by recovery.
func (w *walker) checkOpenIntent(addr addrs.AbsResourceInstance, inst *states.ResourceInstance) (ds diags.Diagnostics, leaveAlone bool) {
	if inst == nil || inst.Intent == nil {
		return nil, false
	}
	if w.recovery != nil && !w.leftAloneAsMayExist(addr) {
		return nil, true
	}
	return diags.Diagnostics{{Severity: diags.Error, Summary: "Unfinished create",
		Detail: fmt.Sprintf("Run %s started creating %s at %s and did not record the outcome: this create may have happened: import it or forget it. "+
			"If the object exists, run \"terrane import %s ID\"; if it does not, run \"terrane state rm %s\". Until then this address is left out of plans.",
			inst.Intent.RunID, addr, inst.Intent.StartedAt.Format("2006-01-02 15:04:05 MST"), journal.ShellQuote(addr.String()), journal.ShellQuote(addr.String())),
		Address: addr.String()}}, true
}

// refreshDataBeforeDestroy reads a data source as OpenTofu's destroy plan
// does: it refreshes with a normal plan first, so the data sources are
// read (and reported) and the root outputs evaluated with what they read
// are the values the destroy removes. Nothing is planned for the data
// source itself. A destroy without refresh, or limited by -target or
// -exclude, reads nothing.
func (w *walker) refreshDataBeforeDestroy(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) diags.Diagnostics {
	if w.planOpts.SkipRefresh || w.planScope != nil {
		return nil
	}
	cfgVal, ds := w.evalConfig(work, addr, rep)
	if ds.HasErrors() {
		return ds
	}
	unmarked, cfgMarks := cfgVal.UnmarkDeepWithPaths()
	if !unmarked.IsWhollyKnown() {
		w.values.set(w.values.instances, addr.String(), objchange.PlannedDataResourceObject(work.schema.Block, unmarked).MarkWithPaths(cfgMarks))
		return ds
	}
	val, rds := w.readData(work, addr, unmarked, cfgMarks)
	if work.v.resource.ScopedToCheck != "" {
		// OpenTofu refreshes before destroying with a normal plan, where
		// what a check's data source raises is a warning, and it shows
		// none of that plan's warnings: nothing of the read is reported.
		if rds.HasErrors() {
			val = objchange.PlannedDataResourceObject(work.schema.Block, unmarked)
		}
		w.values.set(w.values.instances, addr.String(), val.MarkWithPaths(cfgMarks))
		return ds
	}
	if ds = ds.Append(rds); rds.HasErrors() {
		return ds
	}
	w.values.set(w.values.instances, addr.String(), val.MarkWithPaths(cfgMarks))
	return ds
}
