package engine

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine/journal"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/validate"
	"github.com/terrane/terrane/internal/value"
	"github.com/terrane/terrane/internal/version"
)

func (e *Engine) plan(ctx context.Context, opts PlanOpts) (*plans.Plan, diags.Diagnostics) {
	if len(opts.ForceReplace) > 0 && opts.Mode != plans.NormalMode {
		// Other modes plan no updates a replacement could take the place of.
		return nil, diags.Diagnostics{diags.Errorf("Unsupported plan mode",
			"Forcing resource instance replacement (with -replace=...) is allowed only in normal planning mode.")}
	}
	started := time.Now().UTC()
	plan := &plans.Plan{UIMode: opts.Mode, Workspace: e.opts.Workspace, Timestamp: started, EngineVersion: version.OpenTofuVersion,
		ForceReplaceAddrs: opts.ForceReplace, Errored: true}
	for _, t := range opts.Targets {
		plan.TargetAddrs = append(plan.TargetAddrs, t.String())
	}
	for _, t := range opts.Excludes {
		plan.ExcludeAddrs = append(plan.ExcludeAddrs, t.String())
	}
	snap, err := e.opts.State.Load(ctx)
	if err != nil {
		return plan, diags.Diagnostics{diags.Errorf("Cannot read the state", "Reading workspace %q failed: %s", e.opts.Workspace, err)}
	}
	set, ds := e.loadSchemas(ctx, neededProviders(e.opts.Config, snap.State))
	if ds.HasErrors() {
		return plan, ds
	}
	if validateFirst, _ := ctx.Value(validateFirstKey{}).(bool); validateFirst {
		vds := validate.Config(ctx, e.opts.Config, set.validationProviders())
		if ds = ds.Append(vds); vds.HasErrors() {
			return nil, ds
		}
	}
	ds = ds.Append(deprecatedRootVariables(e.opts.Config.Module.Variables, e.opts.Variables))
	loaded := snap
	rf, rds := e.prepareRefactoring(snap, opts.Mode)
	if ds = ds.Append(rds); rds.HasErrors() {
		// Invalid import and removed blocks stop the plan before it
		// starts, as in OpenTofu: there is no plan to show.
		return nil, ds
	}
	if tds := verifyTargetedMoves(rf.moves, opts.Targets, opts.Excludes); tds.HasErrors() {
		// As in OpenTofu, no plan is made at all, so none is shown.
		return nil, ds.Append(partialPlanWarning(opts)).Append(tds)
	}
	snap = rf.snapshot
	defer enterRun(e.opts.RunID)()
	w := e.newWalker(ctx, walkPlan, snap, set)
	w.setPlanTimestamp(started)
	w.refactor = rf
	w.planOpts, w.plan = opts, newPlanCollector()
	if hasOpenIntents(snap.State) {
		j := journal.New(e.opts.State, journal.Options{RunID: e.opts.RunID, RetryFor: e.opts.RetryFor})
		defer func() { _ = j.Close() }()
		w.recovery = newRecoverer(j)
	}
	g, gds := w.buildGraph(snap.State)
	ds = ds.Append(gds)
	if gds.HasErrors() {
		// As in OpenTofu, a graph that cannot be built makes no plan.
		return nil, ds
	}
	if !e.opts.KeepValues {
		w.readResources = dependedOn(g)
	}
	w.cbdForced = w.createBeforeDestroyForced(g)
	if w.planScope = newPlanScope(g, snap.State, opts); w.planScope != nil {
		ds = ds.Append(partialPlanWarning(opts))
		w.keptOutputs = keptRootOutputs(g, func(k string) bool { return w.planScope.configScoped(g, k) }, nil)
		if opts.Mode == plans.DestroyMode {
			// A limited destroy leaves every root output as recorded, as
			// OpenTofu's does.
			w.keptOutputs = map[string]bool{}
		}
	}
	stopWatching := set.stopOnCancel(ctx)
	ds = ds.Append(w.walkGraph(ctx, g))
	stopWatching()
	if ctx.Err() != nil {
		ds = ds.Append(interruptedDiag())
	}
	if w.failedBeforePlanning.Load() {
		return nil, ds
	}
	// Invalid moved blocks are likely the cause of anything else that went
	// wrong, so, as in OpenTofu, they alone are reported, with no plan.
	moveErrs, moveWarnings := rf.validateMoves(e.opts.Config, ds)
	if moveErrs.HasErrors() {
		return nil, moveErrs
	}
	ds = ds.Append(moveWarnings)
	ds = ds.Append(e.finishPlan(plan, w, loaded))
	w.plannedDependencies(g, plan, snap.State)
	plan.Errored = ds.HasErrors()
	plan.Complete = len(plan.Deferred) == 0
	plan.Applyable = !plan.Errored && plansSomething(plan)
	ds = ds.Append(rf.finishPlan(plan))
	e.keepEvaluation(w)
	return plan, ds
}

func interruptedDiag() diags.Diagnostic {
	return diags.Errorf("Run interrupted", "The run was cancelled: no new provider calls were started, and the ones in flight were finished and recorded. Run the command again to continue.")
}

// finishPlan fills the plan from what the walk collected.
func (e *Engine) finishPlan(plan *plans.Plan, w *walker, snap *recordstore.Snapshot) diags.Diagnostics {
	var ds diags.Diagnostics
	plans.SortResourceInstanceChanges(w.plan.changes)
	plans.SortResourceInstanceChanges(w.plan.drift)
	plan.Changes.Resources = w.plan.changes
	plan.DriftedResources = w.plan.drift
	if w.planScope != nil {
		w.declareUnreported(e.opts.Config)
	}
	plan.Checks = w.results.checks.list()
	plan.VariableValues = map[string]value.Dynamic{}
	// As OpenTofu does, the plan records each root variable as the caller
	// gave it, before conversion to its type and before optional
	// attributes' defaults are filled in; a variable not given is not
	// recorded, and its default applies again when the plan is applied.
	// An ephemeral variable's value is never recorded: apply must be
	// given it again.
	for name, decl := range e.opts.Config.Module.Variables {
		given, ok := e.opts.Variables[name]
		if decl.Ephemeral {
			if ok && given != nil && given.Value != cty.NilVal && !given.Value.IsNull() {
				plan.ApplyTimeVariables = append(plan.ApplyTimeVariables, name)
			}
			continue
		}
		if !ok || given == nil || given.Value == cty.NilVal {
			continue
		}
		val, _ := given.Value.UnmarkDeep()
		enc, err := plans.EncodeVariableValue(val)
		if err != nil {
			ds = ds.Append(diags.Errorf("Cannot record a variable", "The value of var.%s could not be encoded in the plan: %s", name, err))
			continue
		}
		plan.VariableValues[name] = enc
	}
	sort.Strings(plan.ApplyTimeVariables)
	ds = ds.Append(e.planOutputs(plan, w, snap.State))
	plan.RelevantAttributes = w.relevantAttributes(w.plan.changes, w.plan.drift, plan.Changes.Outputs)
	w.recordPlannedDataResults(snap.State)
	for _, entry := range snap.State.AllResourceInstances() {
		name := entry.Addr.String()
		v := snap.InstanceVersions[name]
		plan.PriorRecords = append(plan.PriorRecords, plans.PriorRecord{Name: name, Kind: records.ResourceInstanceType.GetKind(),
			Uid: v.Uid, Generation: v.Generation, Version: v.Version})
	}
	ds = ds.Append(unplannedOutputRecords(plan, snap.State))
	plan.AbsentRecords = absentRecords(plan.Changes.Resources, snap)
	// Only a plan file needs the records' content: encoding every record
	// here would copy the whole state once more for every plan.
	plan.PriorRecordData = func(name string) (*anypb.Any, error) { return priorRecordData(snap.State, name) }
	return ds
}

// unplannedOutputRecords carries, as prior records, the recorded root
// outputs a plan limited by -target or -exclude leaves alone: the state it
// was made from still holds them, as show -json's prior_state says, though
// the plan has no change for them.
func unplannedOutputRecords(plan *plans.Plan, prior *states.State) diags.Diagnostics {
	planned := map[string]bool{}
	for _, c := range plan.Changes.Outputs {
		planned[c.Addr.OutputValue.Name] = true
	}
	for _, name := range sortedKeys(prior.Outputs) {
		if planned[name] {
			continue
		}
		rec, err := recordstore.OutputToRecord(prior.Outputs[name])
		var data *anypb.Any
		if err == nil {
			data, err = anypb.New(rec)
		}
		if err != nil {
			return diags.Diagnostics{diags.Errorf("Cannot record an output", "The recorded value of output %q could not be kept in the plan: %s.", name, err)}
		}
		plan.PriorRecords = append(plan.PriorRecords, plans.PriorRecord{Name: name, Kind: records.OutputType.GetKind(), Data: data})
	}
	return nil
}

// absentRecords names the instances changes create whose records did not
// exist: a plan is as stale when one of them appears before it is applied
// as when a record it read changes (plans.Plan.StaleRecords).
func absentRecords(changes []*plans.ResourceInstanceChangeSrc, snap *recordstore.Snapshot) []string {
	var absent []string
	for _, c := range changes {
		if c.Action != plans.Create || c.DeposedKey != addrs.NotDeposed || c.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		if _, recorded := snap.InstanceVersions[c.Addr.String()]; !recorded {
			absent = append(absent, c.Addr.String())
		}
	}
	return absent
}

// priorRecordData encodes the record of the instance named name as the
// plan's snapshot of the state holds it.
func priorRecordData(state *states.State, name string) (*anypb.Any, error) {
	addr, hds := addrs.ParseAbsResourceInstanceStr(name)
	if hds.HasErrors() {
		return nil, hds
	}
	res := state.Resource(addr.ContainingResource())
	if res == nil || res.Instances[addr.Resource.Key] == nil {
		return nil, fmt.Errorf("the plan's state has no instance %s", name)
	}
	rec, err := recordstore.InstanceToRecord(addr, res.ProviderConfig, res.Instances[addr.Resource.Key])
	if err != nil {
		return nil, err
	}
	return anypb.New(rec)
}

// deprecatedRootVariables warns about each deprecated root module variable
// given a value, as OpenTofu does once a plan's values are known.
func deprecatedRootVariables(decls map[string]*config.Variable, given InputValues) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, name := range sortedKeys(given) {
		decl := decls[name]
		if in := given[name]; decl == nil || decl.DeprecatedMessage == "" || in == nil || in.SourceType == ValueFromUnknown {
			continue
		}
		ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Deprecated variable used from the root module",
			Detail:  fmt.Sprintf("The root variable %q is deprecated with the following message: %s", decl.Name, decl.DeprecatedMessage),
			Subject: decl.DeclRange.Ptr()})
	}
	return ds
}

// planOutputs compares the root outputs the walk evaluated with the ones
// in state.
func (e *Engine) planOutputs(plan *plans.Plan, w *walker, prior *states.State) diags.Diagnostics {
	var ds diags.Diagnostics
	names := map[string]bool{}
	for name := range e.opts.Config.Module.Outputs {
		names[name] = true
	}
	for name := range prior.Outputs {
		names[name] = true
	}
	for _, name := range sortedKeys(names) {
		if w.keptOutputs != nil && !w.keptOutputs["output."+name] {
			// Left out by -target or -exclude (an output the configuration
			// no longer has too): not evaluated, no change.
			continue
		}
		if _, declared := e.opts.Config.Module.Outputs[name]; declared && plan.UIMode != plans.DestroyMode &&
			w.results.outputs[name] == nil && prior.Outputs[name] == nil && !w.results.nulls[name] {
			// Its value could not be worked out (an error says why):
			// as in OpenTofu, no change is planned for it.
			continue
		}
		before := cty.NullVal(cty.DynamicPseudoType)
		// An output on its way out keeps the sensitivity it was declared
		// or recorded with, as Terraform reports it.
		sensitive := false
		if old := prior.Outputs[name]; old != nil {
			before, sensitive = old.Value, old.Sensitive
		}
		if _, declared := e.opts.Config.Module.Outputs[name]; declared && plan.UIMode == plans.DestroyMode {
			// OpenTofu refreshes before it plans to destroy, evaluating
			// the outputs again: a destroy removes what they are now, and
			// an output that is null or not known yet is not there.
			before = cty.NullVal(cty.DynamicPseudoType)
			if out := w.results.outputs[name]; out != nil {
				if plain, _ := out.Value.UnmarkDeep(); plain.IsKnown() {
					before, sensitive = out.Value, out.Sensitive
				}
			}
		}
		if decl := e.opts.Config.Module.Outputs[name]; decl != nil && decl.Sensitive {
			sensitive = true
		}
		after := cty.NullVal(cty.DynamicPseudoType)
		if out := w.results.outputs[name]; out != nil && plan.UIMode != plans.DestroyMode {
			after, sensitive = out.Value, out.Sensitive
		}
		ub, _ := before.UnmarkDeep()
		ua, _ := after.UnmarkDeep()
		action := plans.Update
		switch {
		case ub.IsNull() && ua.IsNull():
			action = plans.NoOp
		case ub.IsNull():
			action = plans.Create
		case ua.IsNull() && (plan.UIMode == plans.DestroyMode || e.opts.Config.Module.Outputs[name] == nil):
			action = plans.Delete
		case ua.IsWhollyKnown() && ua.Equals(ub).True():
			action = plans.NoOp
		}
		change := &plans.OutputChange{Addr: addrs.OutputValue{Name: name}.Absolute(addrs.RootModuleInstance), Sensitive: sensitive,
			Change: plans.Change{Action: action, Before: before, After: after}}
		src, err := change.Encode()
		if err != nil {
			ds = ds.Append(diags.Errorf("Cannot record an output change", "output.%s: %s", name, err))
			continue
		}
		plan.Changes.Outputs = append(plan.Changes.Outputs, src)
	}
	return ds
}

// plansSomething is OpenTofu's Plan.CanApply apart from the errored case:
// a change to an object (moving or importing one counts) or to a root
// module output, or, in a refresh-only plan, anything refreshing found.
func plansSomething(plan *plans.Plan) bool {
	for _, c := range plan.Changes.Resources {
		if c.Action != plans.NoOp || c.Moved() || c.Importing != nil {
			return true
		}
	}
	for _, c := range plan.Changes.Outputs {
		if c.Action != plans.NoOp && c.Addr.Module.IsRoot() {
			return true
		}
	}
	return plan.UIMode == plans.RefreshOnlyMode && len(plan.DriftedResources) > 0
}

// neededProviders lists every provider the configuration or the state
// uses, in a stable order.
func neededProviders(cfg *config.Config, prior *states.State) []addrs.Provider {
	seen := map[string]addrs.Provider{}
	cfg.DeepEach(func(c *config.Config) {
		for _, r := range c.Module.Resources {
			seen[r.Provider.String()] = r.Provider
		}
		for _, p := range c.Module.ProviderConfigs {
			pr := c.Module.ProviderForLocalName(p.Name)
			seen[pr.String()] = pr
		}
		for _, pr := range c.Module.ImportProviders() {
			seen[pr.String()] = pr
		}
	})
	for _, p := range config.CalledFunctionProviders(cfg) {
		seen[p.String()] = p
	}
	for _, res := range prior.SortedResources() {
		if res.Addr.Resource.Mode == addrs.DataResourceMode {
			continue // data results in state need no provider: see addOrphanVertices
		}
		seen[res.ProviderConfig.Provider.String()] = res.ProviderConfig.Provider
	}
	out := make([]addrs.Provider, 0, len(seen))
	for _, k := range sortedKeys(seen) {
		out = append(out, seen[k])
	}
	return out
}
