package engine

import (
	"context"
	"encoding/json"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// stateCheckKinds name a checkable object's kind as a state v4 file's
// "object_kind" does.
var stateCheckKinds = map[plans.CheckableKind]string{
	plans.CheckableResource:      "resource",
	plans.CheckableOutputValue:   "output",
	plans.CheckableCheck:         "check",
	plans.CheckableInputVariable: "var",
}

// stateCheckResultsJSON encodes an apply's check results as the state v4
// "check_results" array Terraform keeps; nil when there are none.
func stateCheckResultsJSON(results []plans.CheckResult) ([]byte, error) {
	if len(results) == 0 {
		return nil, nil
	}
	out := make([]states.CheckResultJSON, 0, len(results))
	for _, result := range results {
		kind, ok := stateCheckKinds[result.Kind]
		if !ok {
			continue
		}
		entry := states.CheckResultJSON{ObjectKind: kind, ConfigAddr: result.ConfigAddr, Status: result.Status.String()}
		for _, obj := range result.Objects {
			entry.Objects = append(entry.Objects, states.CheckObjectJSON{ObjectAddr: obj.ObjectAddr, Status: obj.Status.String(), FailureMessages: obj.FailureMessages})
		}
		out = append(out, entry)
	}
	return json.Marshal(out)
}

// recordCheckResults keeps an apply's check results with the workspace,
// as OpenTofu's state keeps them, so that show -json and state pull
// report them. The checks of objects the apply left alone (their rules
// were evaluated only by the plan) keep the plan's results. A destroy
// checks nothing: it records what its walk declared, every checkable
// object of the configuration as unknown. The refresh command records
// none: OpenTofu writes the refreshed state of its plan walk, which
// discards the previous results and records no new ones.
func (e *Engine) recordCheckResults(ctx context.Context, plan *plans.Plan, applied []plans.CheckResult) diags.Diagnostics {
	var results []plans.CheckResult
	switch {
	case plan.UIMode == plans.DestroyMode:
		results = applied
	case plan.UIMode == plans.RefreshOnlyMode && e.opts.RecordsRefreshState:
	default:
		results = mergeCheckResults(plan.Checks, applied)
	}
	raw, err := stateCheckResultsJSON(results)
	if err == nil {
		err = e.opts.State.SetCheckResults(ctx, raw)
	}
	if err != nil {
		return diags.Diagnostics{diags.Warnf("Cannot record the check results",
			"The apply succeeded, but writing its check results to workspace %q failed: %s. The next apply records them again.", e.opts.Workspace, err)}
	}
	return nil
}

// mergeCheckResults overlays the results of an apply on those of its plan,
// configuration object by configuration object, in address order.
func mergeCheckResults(planned, applied []plans.CheckResult) []plans.CheckResult {
	byAddr := make(map[string]plans.CheckResult, len(planned)+len(applied))
	for _, result := range planned {
		byAddr[result.ConfigAddr] = result
	}
	for _, result := range applied {
		byAddr[result.ConfigAddr] = result
	}
	out := make([]plans.CheckResult, 0, len(byAddr))
	for _, addr := range sortedKeys(byAddr) {
		out = append(out, byAddr[addr])
	}
	return out
}

// RecordPlannedChecks keeps the check results of a plan that changes
// nothing with the workspace, as OpenTofu's apply of such a plan records
// them: the apply would evaluate the same rules over the same values.
func (e *Engine) RecordPlannedChecks(ctx context.Context, plan *plans.Plan) diags.Diagnostics {
	return e.recordCheckResults(ctx, plan, nil)
}
