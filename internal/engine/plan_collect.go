package engine

import (
	"bytes"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// planCollector gathers what a plan walk produces, from many goroutines.
type planCollector struct {
	mu      sync.Mutex
	changes []*plans.ResourceInstanceChangeSrc
	drift   []*plans.ResourceInstanceChangeSrc
	// actions is the action planned for each instance's current object,
	// for replace_triggered_by and for data sources that must wait. A no-op
	// is left out, as every reader takes a missing action for one: an
	// unchanged instance costs the walk no entry.
	actions map[string]plans.Action
	// updatedResources are the resources (AbsResource strings) with an
	// instance planned to be updated or replaced, and triggerChanges
	// those instances' values where replace_triggered_by compares an
	// attribute of them; see recordTriggerChange.
	updatedResources map[string]bool
	triggerChanges   map[string]triggerChange
	// triggerPresent are the instances and resources (Abs strings), of
	// those replace_triggered_by names, that have a change planned.
	triggerPresent map[string]bool
}

func newPlanCollector() *planCollector {
	return &planCollector{actions: map[string]plans.Action{}, updatedResources: map[string]bool{}, triggerChanges: map[string]triggerChange{},
		triggerPresent: map[string]bool{}}
}

// addChange encodes and records a planned change. Its values share the
// encodings the plan already holds of them (see plans.EncodeSharing): an
// object unchanged since its record is held as that record, so a plan's
// memory grows with what changes, not with the state.
func (w *walker) addChange(change *plans.ResourceInstanceChange, types plans.ObjectTypes, encoded ...plans.KnownEncoding) diags.Diagnostics {
	if w.planOpts.Mode == plans.DestroyMode && change.Action == plans.Delete {
		// A destroy plan destroys everything; OpenTofu gives no reason.
		change.ActionReason = plans.ReasonNone
	}
	src, err := change.EncodeSharing(types, encoded...)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot record a planned change", "The change to %s could not be encoded: %s. This is a bug in the provider's answer or in Terrane.", change.ObjectName(), err)}
	}
	w.plan.mu.Lock()
	defer w.plan.mu.Unlock()
	w.plan.changes = append(w.plan.changes, src)
	w.noteTriggerTarget(change)
	if change.DeposedKey == addrs.NotDeposed && change.Action != plans.NoOp {
		w.plan.actions[change.Addr.String()] = change.Action
		w.recordTriggerChange(change)
	}
	return nil
}

// recordedObject is the object of addr (deposed, or the current one) as
// the plan's snapshot of the state holds it, or nil. The plan keeps the
// snapshot for its prior records, so a change sharing its bytes costs
// nothing more. Only recovering open intents writes the snapshot during a
// walk, under the recoverer's lock.
func (w *walker) recordedObject(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey) *states.ResourceInstanceObjectSrc {
	if w.recovery != nil {
		w.recovery.mu.Lock()
		defer w.recovery.mu.Unlock()
	}
	if w.snapshot == nil {
		return nil
	}
	inst := w.snapshot.State.ResourceInstance(addr)
	switch {
	case inst == nil:
		return nil
	case deposed == addrs.NotDeposed:
		return inst.Current
	}
	return inst.Deposed[deposed]
}

// sameRecord reports whether src holds the attributes a record holds as
// JSON, the form a known encoding can share.
func sameRecord(record, src *states.ResourceInstanceObjectSrc) bool {
	return len(record.AttrsMsgpack) == 0 && len(src.AttrsMsgpack) == 0 && bytes.Equal(record.AttrsJSON, src.AttrsJSON)
}

// addDrift records what a refresh found changed outside Terrane. A destroy
// plan records only objects found gone, which its apply must drop from
// state: Terraform and OpenTofu plan a destroy from the refreshed state and
// report no drift for it, and every other difference would be noise above
// deletions that read nothing.
func (w *walker) addDrift(change *plans.ResourceInstanceChange, types plans.ObjectTypes, encoded []plans.KnownEncoding) *plans.ResourceInstanceChangeSrc {
	if w.planOpts.Mode == plans.DestroyMode && change.Action != plans.Delete {
		return nil
	}
	src, err := change.EncodeSharing(types, encoded...)
	if err != nil {
		return nil // drift is informational; a value that cannot be encoded is left out
	}
	w.plan.mu.Lock()
	defer w.plan.mu.Unlock()
	w.plan.drift = append(w.plan.drift, src)
	return src
}

func (w *walker) plannedAction(addr addrs.AbsResourceInstance) (plans.Action, bool) {
	w.plan.mu.Lock()
	defer w.plan.mu.Unlock()
	a, ok := w.plan.actions[addr.String()]
	return a, ok
}

// outputsAndChecks are collected by plan and apply walks alike.
type outputsAndChecks struct {
	mu      sync.Mutex
	outputs map[string]*states.OutputValue
	// nulls are the root outputs evaluated to null: not recorded, but,
	// unlike one whose evaluation failed, planned as OpenTofu plans them.
	nulls  map[string]bool
	checks checkResults
}

func (w *walker) recordRootOutput(o *config.Output, val cty.Value) {
	w.results.mu.Lock()
	defer w.results.mu.Unlock()
	if val.HasMarkDeep(failedMark) {
		// Part of its value was never made: keep the last recorded one.
		w.keepPriorRootOutputLocked(o)
		return
	}
	if plain, _ := val.UnmarkDeep(); plain.IsNull() {
		// As OpenTofu does, an output whose value is null is not recorded:
		// it reads as not set.
		delete(w.results.outputs, o.Name)
		w.results.nulls[o.Name] = true
		return
	}
	delete(w.results.nulls, o.Name)
	if w.op == walkApply && !val.IsWhollyKnown() {
		// What an apply still cannot know (an instance a -target left out
		// and never made) is recorded as null, as OpenTofu records it
		// (after deciding it is not null): state holds no unknown values.
		unmarked, pvm := val.UnmarkDeepWithPaths()
		val = cty.UnknownAsNull(unmarked).MarkWithPaths(pvm)
	}
	// A root output the plan knew in full was taken from the plan (see
	// outputValue), as OpenTofu takes it, so its numbers have been through
	// the plan's encoding: no negative zero is left. A value only the apply
	// knows is recorded as evaluated, -0 included, as in OpenTofu.
	w.results.outputs[o.Name] = &states.OutputValue{Value: val, Sensitive: o.Sensitive}
}

// keepPriorRootOutput leaves a root output as the last run recorded it:
// for a value that must not be recorded, such as one holding sensitive
// values the output does not declare.
func (w *walker) keepPriorRootOutput(o *config.Output) {
	w.results.mu.Lock()
	defer w.results.mu.Unlock()
	w.keepPriorRootOutputLocked(o)
}

func (w *walker) keepPriorRootOutputLocked(o *config.Output) {
	delete(w.results.nulls, o.Name)
	if prior := w.snapshot.State.Outputs[o.Name]; prior != nil {
		w.results.outputs[o.Name] = prior
	} else {
		delete(w.results.outputs, o.Name)
	}
}
