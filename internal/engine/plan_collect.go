package engine

import (
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
	// for replace_triggered_by and for data sources that must wait.
	actions map[string]plans.Action
	// updatedResources are the resources (AbsResource strings) with an
	// instance planned to be updated or replaced, and triggerChanges
	// those instances' values where replace_triggered_by compares an
	// attribute of them; see recordTriggerChange.
	updatedResources map[string]bool
	triggerChanges   map[string]triggerChange
}

func newPlanCollector() *planCollector {
	return &planCollector{actions: map[string]plans.Action{}, updatedResources: map[string]bool{}, triggerChanges: map[string]triggerChange{}}
}

// addChange encodes and records a planned change. A no-op change to an
// object exactly as its record holds it shares the record's encoded value
// instead of encoding two copies of it (see plans.EncodeUnchanged), so a
// plan's memory grows with what changes, not with the state.
func (w *walker) addChange(change *plans.ResourceInstanceChange, types plans.ObjectTypes) diags.Diagnostics {
	src, unchanged, err := change.EncodeUnchanged(types, w.recordedAttrsJSON(change.Addr))
	if !unchanged && err == nil {
		src, err = change.Encode(types)
	}
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot record a planned change", "The change to %s could not be encoded: %s. This is a bug in the provider's answer or in Terrane.", change.ObjectName(), err)}
	}
	w.plan.mu.Lock()
	defer w.plan.mu.Unlock()
	w.plan.changes = append(w.plan.changes, src)
	if change.DeposedKey == addrs.NotDeposed {
		w.plan.actions[change.Addr.String()] = change.Action
		w.recordTriggerChange(change)
	}
	return nil
}

// recordedAttrsJSON is the attribute JSON of addr's current object as the
// plan's snapshot of the state holds it, or nil. Only recovering open
// intents writes the snapshot during a walk, under the recoverer's lock.
func (w *walker) recordedAttrsJSON(addr addrs.AbsResourceInstance) []byte {
	if w.recovery != nil {
		w.recovery.mu.Lock()
		defer w.recovery.mu.Unlock()
	}
	inst := w.snapshot.State.ResourceInstance(addr)
	if inst == nil || inst.Current == nil || len(inst.Current.AttrsMsgpack) > 0 {
		return nil
	}
	return inst.Current.AttrsJSON
}

// addDrift records what a refresh found changed outside Terrane. A destroy
// plan records only objects found gone, which its apply must drop from
// state: Terraform and OpenTofu plan a destroy from the refreshed state and
// report no drift for it, and every other difference would be noise above
// deletions that read nothing.
func (w *walker) addDrift(change *plans.ResourceInstanceChange, types plans.ObjectTypes) {
	if w.planOpts.Mode == plans.DestroyMode && change.Action != plans.Delete {
		return
	}
	src, err := change.Encode(types)
	if err != nil {
		return // drift is informational; a value that cannot be encoded is left out
	}
	w.plan.mu.Lock()
	defer w.plan.mu.Unlock()
	w.plan.drift = append(w.plan.drift, src)
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
	checks  checkResults
}

func (w *walker) recordRootOutput(o *config.Output, val cty.Value) {
	w.results.mu.Lock()
	defer w.results.mu.Unlock()
	if val.HasMarkDeep(failedMark) {
		// Part of its value was never made: keep the last recorded one.
		w.keepPriorRootOutputLocked(o)
		return
	}
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
	if prior := w.snapshot.State.Outputs[o.Name]; prior != nil {
		w.results.outputs[o.Name] = prior
	} else {
		delete(w.results.outputs, o.Name)
	}
}
