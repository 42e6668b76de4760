package reconcile

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plans"
)

// undoDrift applies a plan that only undoes the drift of the instances
// named, as `terrane apply -target=…` would with the same intents and
// journal, and returns the AutoApplied outcome. An instance whose
// configuration differs from its record (someone changed the
// configuration and has not applied it), or whose undoing needs more than
// an update or a create (a replacement, a delete), is left for a person:
// applying it would do more than undo drift.
func undoDrift(ctx context.Context, ws Workspace, setup runSetup, drifted []string) Outcome {
	ctx, cancel := context.WithTimeout(ctx, ws.Timeout)
	defer cancel()
	if len(drifted) == 0 {
		return Outcome{Reason: ReasonNothingToUndo, Message: "Nothing drifted."}
	}
	setup.applying = true
	eng, ds := openEngine(ctx, ws, setup)
	if ds.HasErrors() {
		return applyFailed(ds)
	}
	defer func() { _ = eng.Close() }()
	targets, err := parseTargets(drifted)
	if err != nil {
		return Outcome{Reason: ReasonApplyFailed, Message: err.Error()}
	}
	// Planned without refreshing, a change is one the configuration asks
	// for: those instances are not only drifted.
	configPlan, ds := eng.Plan(ctx, engine.PlanOpts{Mode: plans.NormalMode, SkipRefresh: true, Targets: targets})
	if ds.HasErrors() {
		return applyFailed(ds)
	}
	configChanged := changedAddrs(configPlan)
	var kept []string
	for _, addr := range drifted {
		if !configChanged[addr] {
			kept = append(kept, addr)
		}
	}
	if len(kept) == 0 {
		return Outcome{Reason: ReasonConfigurationChanged, Message: fmt.Sprintf(
			"Not applied: the configuration of %s changed since the last apply, so an apply would do more than undo drift. Plan and apply it.", strings.Join(drifted, ", "))}
	}
	if targets, err = parseTargets(kept); err != nil {
		return Outcome{Reason: ReasonApplyFailed, Message: err.Error()}
	}
	plan, ds := eng.Plan(ctx, engine.PlanOpts{Mode: plans.NormalMode, Targets: targets})
	if ds.HasErrors() {
		return applyFailed(ds)
	}
	if refusal := onlyUndoes(plan, kept, configChanged); refusal != "" {
		return Outcome{Reason: ReasonConfigurationChanged, Message: "Not applied: " + refusal}
	}
	if !plan.CanApply() {
		return Outcome{Reason: ReasonNothingToUndo, Message: "The plan changes nothing: the drift was undone by someone else."}
	}
	if ds := eng.Apply(ctx, plan); ds.HasErrors() {
		return applyFailed(ds)
	}
	msg := fmt.Sprintf("Run %s undid the drift of %s.", setup.runID, strings.Join(kept, ", "))
	if len(kept) < len(drifted) {
		msg += fmt.Sprintf(" Left alone, as their configuration changed: %s.", strings.Join(setDifference(drifted, kept), ", "))
	}
	return Outcome{Reason: ReasonDriftUndone, Message: msg}
}

// onlyUndoes checks that every change of plan is an update or a create of
// one of the drifted instances; it returns why not otherwise.
func onlyUndoes(plan *plans.Plan, drifted []string, configChanged map[string]bool) string {
	allowed := map[string]bool{}
	for _, addr := range drifted {
		allowed[addr] = true
	}
	var problems []string
	for _, change := range plan.Changes.Resources {
		addr := change.Addr.String()
		switch {
		case change.Action == plans.NoOp || change.Action == plans.Read:
		case !allowed[addr] || configChanged[addr]:
			problems = append(problems, fmt.Sprintf("%s would be changed (%s) though it did not drift", addr, change.Action))
		case change.Action != plans.Update && change.Action != plans.Create:
			problems = append(problems, fmt.Sprintf("undoing the drift of %s needs a %s, which is left to a person", addr, actionName(change.Action)))
		}
	}
	sort.Strings(problems)
	return strings.Join(problems, "; ")
}

func actionName(a plans.Action) string {
	switch {
	case a.IsReplace():
		return "replacement"
	case a == plans.Delete:
		return "delete"
	}
	return a.String()
}

func changedAddrs(plan *plans.Plan) map[string]bool {
	out := map[string]bool{}
	if plan == nil {
		return out
	}
	for _, change := range plan.Changes.Resources {
		if change.Action != plans.NoOp && change.Action != plans.Read {
			out[change.Addr.String()] = true
		}
	}
	return out
}

func parseTargets(addrStrings []string) ([]addrs.Targetable, error) {
	targets := make([]addrs.Targetable, 0, len(addrStrings))
	for _, s := range addrStrings {
		addr, ds := addrs.ParseAbsResourceInstanceStr(s)
		if ds.HasErrors() {
			return nil, fmt.Errorf("%s is not a resource instance address: %s", s, ds.Error())
		}
		targets = append(targets, addr)
	}
	return targets, nil
}

func setDifference(all, minus []string) []string {
	drop := map[string]bool{}
	for _, s := range minus {
		drop[s] = true
	}
	var out []string
	for _, s := range all {
		if !drop[s] {
			out = append(out, s)
		}
	}
	return out
}

func applyFailed(ds diags.Diagnostics) Outcome {
	return Outcome{Reason: ReasonApplyFailed, Message: runFailure(ReasonApplyFailed, ds).Message}
}
