package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine/journal"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/errored"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/version"
)

// applier is the apply walk's view of the plan and of the records it
// writes.
type applier struct {
	plan    *plans.Plan
	changes map[string]*plans.ResourceInstanceChangeSrc // by ObjectName()
	// deletes are the delete and replace changes by configuration
	// resource, for destroy vertices.
	deletes map[string][]*plans.ResourceInstanceChangeSrc
	// drift are the refreshed objects of current instances, by address.
	drift   map[string]*plans.ResourceInstanceChangeSrc
	journal *journal.Journal
	// unrecorded keeps the results that could not be written.
	unrecorded *errored.Results

	// graph and resourceDeps give new objects their recorded
	// dependencies.
	graph        *graph
	resourceDeps map[string]map[string]bool

	mu       sync.Mutex
	versions map[string]recordstore.RecordVersion
}

func newApplier(plan *plans.Plan, snap *recordstore.Snapshot, j *journal.Journal) *applier {
	a := &applier{plan: plan, journal: j, changes: map[string]*plans.ResourceInstanceChangeSrc{},
		deletes: map[string][]*plans.ResourceInstanceChangeSrc{}, versions: map[string]recordstore.RecordVersion{},
		drift: map[string]*plans.ResourceInstanceChangeSrc{}}
	for _, d := range plan.DriftedResources {
		if d.DeposedKey == addrs.NotDeposed {
			a.drift[d.Addr.String()] = d
		}
	}
	for k, v := range snap.InstanceVersions {
		a.versions[k] = v
	}
	for _, c := range plan.Changes.Resources {
		a.changes[c.ObjectName()] = c
		if c.Action == plans.Delete || c.Action.IsReplace() {
			k := c.Addr.ContainingResource().Config().String()
			a.deletes[k] = append(a.deletes[k], c)
		}
	}
	return a
}

// plannedRootOutput is the value the plan gave root output name, as the
// plan recorded it; false when the plan has none or did not know all of it.
func (a *applier) plannedRootOutput(name string) (cty.Value, bool) {
	for _, src := range a.plan.Changes.Outputs {
		if !src.Addr.Module.IsRoot() || src.Addr.OutputValue.Name != name {
			continue
		}
		change, err := src.Decode()
		if err != nil || !change.After.IsWhollyKnown() {
			return cty.NilVal, false
		}
		return change.After, true
	}
	return cty.NilVal, false
}

func (e *Engine) apply(ctx context.Context, plan *plans.Plan) diags.Diagnostics {
	// A plan that changes nothing is applied all the same, as OpenTofu
	// applies it: its outputs are recorded and its checks evaluated.
	if plan == nil || plan.Errored {
		return diags.Diagnostics{diags.Errorf("Plan cannot be applied", "The plan was made by a run that failed; fix the errors and make a new plan.")}
	}
	snap, err := e.opts.State.Load(ctx)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot read the state", "Reading workspace %q failed: %s", e.opts.Workspace, err)}
	}
	if ds := staleDiags(plan, snap); ds.HasErrors() {
		return ds
	}
	if _, err := e.opts.State.BeginRun(ctx, version.Version); err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot start the run", "Updating workspace %q failed: %s", e.opts.Workspace, err)}
	}
	set, ds := e.loadSchemas(ctx, neededProviders(e.opts.Config, snap.State))
	if ds.HasErrors() {
		return ds
	}
	forgets := countForgets(plan)
	snap, plan, rds := e.applyRefactoring(ctx, plan, snap, set)
	if ds = ds.Append(rds); ds.HasErrors() {
		return ds
	}
	defer enterRun(e.opts.RunID)()
	w := e.newWalker(ctx, walkApply, snap, set)
	w.setPlanTimestamp(plan.Timestamp)
	j := journal.New(e.opts.State, journal.Options{RunID: e.opts.RunID, Logf: e.warnf, RetryFor: e.opts.RetryFor})
	defer func() { _ = j.Close() }()
	w.applier = newApplier(plan, snap, j)
	w.applier.unrecorded = errored.NewResults(e.opts.Workspace, workspaceLineage(snap), e.opts.RunID)
	e.mu.Lock()
	e.unrecorded = w.applier.unrecorded
	e.mu.Unlock()
	if hasOpenIntents(snap.State) {
		// Intents left open by runs that ended are resolved before this
		// run changes anything; claims of live runs are respected.
		w.recovery = newRecoverer(j)
	}
	w.planOpts = PlanOpts{Mode: plan.UIMode}
	e.applyPlannedVariables(w, plan)
	g, gds := w.buildGraph(snap.State)
	ds = ds.Append(gds)
	if !gds.HasErrors() {
		w.cbdForced = w.createBeforeDestroyForced(g)
		w.limitToTargets(g, plan)
		w.keptOutputs = appliedRootOutputs(g, snap.State, plan, w.applier.changes)
		gds = w.addDestroyVertices(g)
		ds = ds.Append(gds)
	}
	if ds.HasErrors() {
		return ds
	}
	stopWatching := set.stopOnCancel(ctx)
	ds = ds.Append(w.walkGraph(ctx, g))
	stopWatching()
	if ctx.Err() != nil {
		ds = ds.Append(interruptedDiag())
	}
	if !ds.HasErrors() {
		ds = ds.Append(w.dropUnreadDataResults())
	}
	if waited := j.Stats().Waited; waited > 0 {
		ds = ds.Append(diags.Warnf("The state store was unavailable during the apply",
			"The store stopped answering while provider calls were being made. Terrane waited %s for it, "+
				"reading back what it held and recording each answered call once it was back.", waited.Round(time.Millisecond)))
	}
	switch {
	case len(plan.TargetAddrs) > 0 || len(plan.ExcludeAddrs) > 0:
		// Outputs the plan left alone keep their recorded values: in a
		// limited destroy all of them, else those the configuration no
		// longer has.
		for name, prior := range snap.State.Outputs {
			if _, ok := w.results.outputs[name]; !ok && (plan.UIMode == plans.DestroyMode || e.opts.Config.Module.Outputs[name] == nil) {
				w.results.outputs[name] = prior
			}
		}
	case plan.UIMode == plans.DestroyMode:
		w.results.outputs = map[string]*states.OutputValue{}
	case plan.UIMode == plans.RefreshOnlyMode && e.opts.RecordsRefreshState:
		ds = ds.Append(keepUnknownRefreshedOutputs(plan, snap.State, w.results.outputs))
	}
	if err := e.opts.State.WriteOutputs(context.WithoutCancel(ctx), knownOutputs(w.results.outputs)); err != nil {
		ds = ds.Append(diags.Errorf("Cannot record the outputs", "Writing the root module outputs failed: %s", err))
	}
	if len(plan.TargetAddrs) > 0 || len(plan.ExcludeAddrs) > 0 || plan.UIMode == plans.DestroyMode {
		w.declareUnreported(e.opts.Config)
	}
	ds = ds.Append(e.recordCheckResults(context.WithoutCancel(ctx), plan, w.results.checks.list()))
	if plan.UIMode == plans.DestroyMode && !ds.HasErrors() && forgets > 0 && !e.opts.SuppressForgetErrors {
		ds = ds.Append(diags.Errorf("Destroy was successful but left behind forgotten instances",
			"As requested, Terrane has not deleted some remote objects that are no longer managed by this configuration. Those objects continue to exist in their remote system and so may continue to incur charges. Refer to the original plan for more information.\n"+
				"To suppress this error for the future 'destroy' runs, you can add the CLI flag \"-suppress-forget-errors\"."))
	}
	ds = ds.Append(IncompleteApplyWarning(plan))
	e.keepEvaluation(w)
	return ds
}

// countForgets counts the objects a plan forgets.
func countForgets(plan *plans.Plan) int {
	n := 0
	for _, c := range plan.Changes.Resources {
		if c.Action == plans.Forget {
			n++
		}
	}
	return n
}

func workspaceLineage(snap *recordstore.Snapshot) string {
	if snap.Workspace == nil {
		return ""
	}
	return snap.Workspace.Lineage
}

// staleDiags refuses a plan made from records that changed since. A
// saved plan is refused in OpenTofu's words, once; a run's own plan, which
// another run overtook between its plan and its apply, names each record.
func staleDiags(plan *plans.Plan, snap *recordstore.Snapshot) diags.Diagnostics {
	stale := plan.StaleRecords(func(name string) (string, bool) {
		v, ok := snap.InstanceVersions[name]
		return v.Generation, ok
	})
	var ds diags.Diagnostics
	for _, s := range stale {
		if isDataRecord(s.Name) {
			continue
		}
		if plan.Saved {
			return diags.Diagnostics{{Severity: diags.Error, Summary: staleSummary,
				Detail: "The given plan file can no longer be applied because the state was changed by another operation after the plan was created."}}
		}
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: changedUnderRunSummary, Address: s.Name,
			Detail: fmt.Sprintf("Another run changed %s after this run planned it: %s. This run stopped before changing anything, so planning again is safe: run the command again, or give -lock-timeout=DURATION to wait for the other run and plan again automatically.", s.Name, s.Reason())})
	}
	return ds
}

// applyPlannedVariables uses the variable values the plan was made with,
// so apply reaches the plan's conclusions.
func (e *Engine) applyPlannedVariables(w *walker, plan *plans.Plan) {
	vars := InputValues{}
	for name, given := range e.opts.Variables {
		vars[name] = given
	}
	for name := range plan.VariableValues {
		if val, err := plan.VariableValue(name); err == nil {
			vars[name] = &InputValue{Value: val, SourceType: ValueFromPlan}
		}
	}
	e.opts.Variables = vars
}

// recordKind is how an instance write relates to a provider call.
type recordKind int

const (
	// recordIntent opens an intent before a call; it is withdrawn when the
	// run is cancelled before the write is taken, so the call is not made.
	recordIntent recordKind = iota
	// recordResult closes an intent with the call's outcome; it goes
	// through even when the run is cancelled, since the call happened.
	recordResult
	// recordRefresh writes an object read back from its provider.
	recordRefresh
)

// writeInstance makes the instance at addr, as the working state has it,
// durable through the journal, compare-and-swap against the version last
// written or read.
func (w *walker) writeInstance(addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig, kind recordKind) diags.Diagnostics {
	a := w.applier
	key := addr.String()
	inst := w.prior.ResourceInstance(addr)
	a.mu.Lock()
	var prior *recordstore.RecordVersion
	if v, ok := a.versions[key]; ok {
		prior = &v
	}
	a.mu.Unlock()
	var got *recordstore.RecordVersion
	var err error
	switch kind {
	case recordIntent:
		got, err = a.journal.BeginCall(w.ctx, addr, provider, inst, prior)
	case recordResult:
		var queued func()
		if release, ok := w.heldSlots.Load(key); ok {
			queued = release.(func())
		}
		// The call happened: until the store has its result, the result
		// is kept with the unrecorded ones, so that a run stopped while
		// the write waits for the store still hands it over.
		a.unrecorded.Add(addr, provider, inst)
		got, err = a.journal.FinishCallQueued(w.ctx, addr, provider, inst, prior, queued)
		if err == nil {
			a.unrecorded.Forget(addr)
		}
	default:
		got, err = a.journal.Write(context.WithoutCancel(w.ctx), recordstore.InstanceChange{Addr: addr, ProviderConfig: provider, Instance: inst, Prior: prior})
	}
	if err != nil && kind == recordResult {
		return unrecordedResult(addr, inst, err)
	}
	if err != nil {
		return writeFailure(w.ctx, addr, kind, err)
	}
	a.mu.Lock()
	if got != nil {
		a.versions[key] = *got
	} else {
		delete(a.versions, key)
	}
	a.mu.Unlock()
	return nil
}

func writeFailure(ctx context.Context, addr addrs.AbsResourceInstance, kind recordKind, err error) diags.Diagnostics {
	key := addr.String()
	var conflict *recordstore.ConflictError
	switch {
	case errors.As(err, &conflict) && kind == recordIntent:
		return diags.Diagnostics{{Severity: diags.Error, Summary: changedSummary,
			Detail: fmt.Sprintf("%s was changed in the store by another run while this one was applying (%s). This run did nothing to it, so planning again is safe: run the command again, or give -lock-timeout=DURATION to wait for the other run and plan again automatically.", addr, conflict.Detail), Address: key}}
	case errors.As(err, &conflict):
		return diags.Diagnostics{{Severity: diags.Error, Summary: changedSummary,
			Detail: fmt.Sprintf("%s was changed in the store by another run while this one was applying (%s). Nothing more is done to it; make a new plan to see its current state.", addr, conflict.Detail), Address: key}}
	case kind == recordIntent && ctx.Err() != nil:
		return diags.Diagnostics{{Severity: diags.Error, Summary: "Not started: the run was interrupted",
			Detail: fmt.Sprintf("The run was cancelled before the change to %s began; nothing was done to it.", addr), Address: key}}
	case kind == recordIntent:
		return diags.Diagnostics{{Severity: diags.Error, Summary: "Cannot record an intent",
			Detail: fmt.Sprintf("Recording that %s is about to change failed: %s. The change was not started; run the command again once the store is reachable.", addr, err), Address: key}}
	}
	return diags.Diagnostics{{Severity: diags.Error, Summary: "Cannot record a result",
		Detail: fmt.Sprintf("Writing %s to the store failed: %s. The provider call was made; the intent left on the record makes the next run read the object back.", addr, err), Address: key}}
}

// unrecordedResult reports a provider call whose result the store would
// not take; the result itself is kept in the run's unrecorded results.
func unrecordedResult(addr addrs.AbsResourceInstance, inst *states.ResourceInstance, err error) diags.Diagnostics {
	entry := errored.Entry{Addr: addr, Deleted: inst == nil || inst.IsEmpty()}
	if !entry.Deleted {
		entry.ID = errored.ObjectID(inst.Current)
	}
	return diags.Diagnostics{{Severity: diags.Error, Summary: "Cannot record a result", Address: addr.String(),
		Detail: fmt.Sprintf("The provider call on %s finished, but the store refused its result: %s. The result, %s, is kept with this run's unrecorded results (%s).",
			addr, err, entry, errored.FileName)}}
}

// keepUnknownRefreshedOutputs gives each root output the refresh-only plan
// could not know in full its recorded value, or leaves it out when none
// was recorded: OpenTofu's refresh records its plan's refreshed state,
// which takes only the outputs known in full.
func keepUnknownRefreshedOutputs(plan *plans.Plan, prior *states.State, outputs map[string]*states.OutputValue) diags.Diagnostics {
	for _, src := range plan.Changes.Outputs {
		if !src.Addr.Module.IsRoot() {
			continue
		}
		change, err := src.Decode()
		if err != nil {
			return diags.Diagnostics{diags.Errorf("Cannot read the plan", "%s.", err)}
		}
		if after, _ := change.After.UnmarkDeep(); after.IsWhollyKnown() {
			continue
		}
		name := src.Addr.OutputValue.Name
		if old := prior.Outputs[name]; old != nil {
			outputs[name] = old
		} else {
			delete(outputs, name)
		}
	}
	return nil
}

// knownOutputs is what of the root outputs a state can hold, as OpenTofu
// records them: unknown parts become null, and an output that is then
// null is not recorded (one whose resources a refresh-only or targeted run
// left unknown).
func knownOutputs(outputs map[string]*states.OutputValue) map[string]*states.OutputValue {
	out := make(map[string]*states.OutputValue, len(outputs))
	for name, o := range outputs {
		if o.Value.IsWhollyKnown() {
			out[name] = o
			continue
		}
		val, pvm := marks.UnmarkDeepWithPaths(o.Value)
		val = cty.UnknownAsNull(val)
		if val.IsNull() {
			continue
		}
		known := *o
		known.Value = marks.MarkWithPaths(val, pvm)
		out[name] = &known
	}
	return out
}
