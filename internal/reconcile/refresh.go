package reconcile

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plans"
)

// observer is the engine hook that sees every refresh of a current object.
type observer struct {
	engine.NilHook
	mu       sync.Mutex
	started  map[string]time.Time
	outcomes map[string]Outcome
	progress func(addr string, o Outcome)
}

func newObserver(progress func(string, Outcome)) *observer {
	return &observer{started: map[string]time.Time{}, outcomes: map[string]Outcome{}, progress: progress}
}

func (o *observer) PreRefresh(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, _ cty.Value) {
	if deposed != addrs.NotDeposed || addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		return
	}
	o.mu.Lock()
	o.started[addr.String()] = time.Now()
	o.mu.Unlock()
}

func (o *observer) PostRefresh(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior, refreshed cty.Value) {
	if deposed != addrs.NotDeposed || addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		return
	}
	outcome := outcomeOf(prior, refreshed)
	o.mu.Lock()
	o.outcomes[addr.String()] = outcome
	o.mu.Unlock()
	if o.progress != nil {
		o.progress(addr.String(), outcome)
	}
}

// refreshResult is what one refresh-only run of a workspace found.
type refreshResult struct {
	runID    string
	started  time.Time
	duration time.Duration
	plan     *plans.Plan
	// outcomes are by instance address; instances another run claimed
	// are in claimed instead.
	outcomes map[string]Outcome
	claimed  map[string]bool
	// failure is set when the run as a whole failed (the configuration
	// did not load, a provider did not start or answer, the store did not
	// answer); instances may still have outcomes.
	failure     *Outcome
	diagnostics diags.Diagnostics
}

// Workspace-level reasons of a failed run.
const (
	ReasonConfigurationInvalid = "ConfigurationInvalid"
	ReasonStoreUnavailable     = "StoreUnavailable"
	ReasonRunTimeout           = "RunTimeout"
	ReasonRunFailed            = "RunFailed"
)

// refreshWorkspace runs a refresh-only plan of ws, as `terrane plan
// -refresh-only` does, and works out each managed instance's outcome.
func refreshWorkspace(ctx context.Context, ws Workspace, setup runSetup, progress func(string, Outcome)) *refreshResult {
	result := &refreshResult{runID: setup.runID, started: time.Now(), outcomes: map[string]Outcome{}, claimed: map[string]bool{}}
	defer func() { result.duration = time.Since(result.started) }()
	ctx, cancel := context.WithTimeout(ctx, ws.Timeout)
	defer cancel()
	obs := newObserver(progress)
	setup.hooks = append(setup.hooks, obs)
	eng, ds := openEngine(ctx, ws, setup)
	if ds.HasErrors() {
		result.diagnostics = ds
		result.failure = runFailure(ReasonConfigurationInvalid, ds)
		return result
	}
	plan, planDiags := eng.Plan(ctx, engine.PlanOpts{Mode: plans.RefreshOnlyMode})
	_ = eng.Close()
	ds = ds.Append(planDiags)
	result.plan, result.diagnostics = plan, ds
	var conflict *engine.ConflictError
	if errors.As(engine.Conflict(ds), &conflict) {
		for _, addr := range conflict.Claimed {
			result.claimed[addr] = true
		}
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	for addr, outcome := range obs.outcomes {
		result.outcomes[addr] = outcome
	}
	timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
	for _, d := range ds {
		if d.Severity != diags.Error || d.Address == "" || result.claimed[d.Address] {
			continue
		}
		if _, started := obs.started[d.Address]; started && !timedOut {
			if _, done := obs.outcomes[d.Address]; !done {
				result.outcomes[d.Address] = failed(ReasonRefreshFailed, diagText(d))
			}
		}
	}
	for addr := range obs.started {
		if _, known := result.outcomes[addr]; !known && timedOut {
			result.outcomes[addr] = failed(ReasonProviderTimeout, fmt.Sprintf(
				"The provider did not answer the refresh within the workspace's timeout of %s. Check the provider and the service behind it.", ws.Timeout))
		}
	}
	switch {
	case timedOut:
		result.failure = &Outcome{Kind: ConditionFailed, Reason: ReasonRunTimeout,
			Message: fmt.Sprintf("The refresh did not finish within the workspace's timeout of %s.", ws.Timeout)}
	case plan == nil || hasErrorsBesides(ds, result.claimed):
		result.failure = runFailure(ReasonRunFailed, ds)
	}
	return result
}

// hasErrorsBesides reports errors other than the claims of other runs.
func hasErrorsBesides(ds diags.Diagnostics, claimed map[string]bool) bool {
	for _, d := range ds {
		if d.Severity == diags.Error && !claimed[d.Address] {
			return true
		}
	}
	return false
}

func runFailure(reason string, ds diags.Diagnostics) *Outcome {
	for _, d := range ds {
		if d.Severity == diags.Error {
			return &Outcome{Kind: ConditionFailed, Reason: reason, Message: diagText(d)}
		}
	}
	return &Outcome{Kind: ConditionFailed, Reason: reason, Message: "The run failed without a diagnostic."}
}

// diagText is a diagnostic in one line, with where it points.
func diagText(d diags.Diagnostic) string {
	text := d.Summary
	if d.Detail != "" {
		text += ": " + d.Detail
	}
	if d.Subject != nil {
		text += fmt.Sprintf(" (%s:%d)", d.Subject.Filename, d.Subject.Start.Line)
	}
	return text
}

const millisecond = time.Millisecond
