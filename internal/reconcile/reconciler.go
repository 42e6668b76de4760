package reconcile

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/terrane/terrane/internal/resourceservice"
)

// Options configure a Reconciler.
type Options struct {
	// Limits bound provider reads across every workspace.
	Limits []ProviderLimit
	// Logf reports what happens to the operator; nil discards it.
	Logf func(format string, args ...any)
	// Concurrency bounds how many workspaces refresh at once; 0 means 2.
	Concurrency int
}

// Reconciler refreshes registered workspaces on their intervals and on
// demand, and writes what it finds as status. It is safe for concurrent
// use.
type Reconciler struct {
	service  *resourceservice.Service
	limiters *limiters
	logf     func(string, ...any)
	slots    chan struct{}
	events   *broadcaster

	mu         sync.Mutex
	workspaces map[string]*registered
	started    bool
	wg         sync.WaitGroup
	runCtx     context.Context
}

type registered struct {
	spec    Workspace
	trigger chan struct{}
	// running serialises the runs of one workspace.
	running sync.Mutex

	mu     sync.Mutex
	report Report
}

// New returns a reconciler writing status through service.
func New(service *resourceservice.Service, opts Options) (*Reconciler, error) {
	lim, err := newLimiters(opts.Limits)
	if err != nil {
		return nil, err
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	concurrency := opts.Concurrency
	if concurrency <= 0 {
		concurrency = 2
	}
	return &Reconciler{service: service, limiters: lim, logf: logf, slots: make(chan struct{}, concurrency),
		events: newBroadcaster(), workspaces: map[string]*registered{}}, nil
}

// Register adds a workspace. Registered while Run runs, it is scheduled at
// once.
func (r *Reconciler) Register(ws Workspace) error {
	if ws.Interval <= 0 {
		ws.Interval = DefaultInterval
	}
	if ws.Timeout <= 0 {
		ws.Timeout = DefaultTimeout
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.workspaces[ws.Name]; dup {
		return fmt.Errorf("a workspace named %q is already registered", ws.Name)
	}
	reg := &registered{spec: ws, trigger: make(chan struct{}, 1)}
	reg.report = Report{Name: ws.Name, Project: ws.Project, Workspace: ws.Workspace, Dir: ws.Dir, AutoApply: ws.AutoApply, Interval: ws.Interval}
	r.workspaces[ws.Name] = reg
	if r.started {
		r.schedule(r.runCtx, reg)
	}
	return nil
}

// Run refreshes every registered workspace at once and then on its
// interval or when triggered, until ctx ends; it returns when every run it
// started has finished.
func (r *Reconciler) Run(ctx context.Context) {
	r.mu.Lock()
	r.started, r.runCtx = true, ctx
	for _, reg := range r.workspaces {
		r.schedule(ctx, reg)
	}
	r.mu.Unlock()
	<-ctx.Done()
	r.wg.Wait()
}

// schedule starts reg's loop; r.mu is held.
func (r *Reconciler) schedule(ctx context.Context, reg *registered) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		timer := time.NewTimer(0)
		defer timer.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			case <-reg.trigger:
				if !timer.Stop() {
					select {
					case <-timer.C:
					default:
					}
				}
			}
			select {
			case r.slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			r.reconcile(ctx, reg)
			<-r.slots
			timer.Reset(reg.spec.Interval)
		}
	}()
}

// Trigger asks for a run of the named workspace as soon as possible; a
// run already asked for is not asked for twice.
func (r *Reconciler) Trigger(name string) error {
	reg, err := r.lookup(name)
	if err != nil {
		return err
	}
	select {
	case reg.trigger <- struct{}{}:
	default:
	}
	return nil
}

// ReconcileNow runs the named workspace once, waiting for a run in
// progress to finish first, and returns its report.
func (r *Reconciler) ReconcileNow(ctx context.Context, name string) (Report, error) {
	reg, err := r.lookup(name)
	if err != nil {
		return Report{}, err
	}
	return r.reconcile(ctx, reg), nil
}

func (r *Reconciler) lookup(name string) (*registered, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	reg, ok := r.workspaces[name]
	if !ok {
		return nil, fmt.Errorf("no workspace named %q is registered", name)
	}
	return reg, nil
}

// Reports returns the latest report of every workspace, by name.
func (r *Reconciler) Reports() []Report {
	r.mu.Lock()
	regs := make([]*registered, 0, len(r.workspaces))
	for _, reg := range r.workspaces {
		regs = append(regs, reg)
	}
	r.mu.Unlock()
	out := make([]Report, 0, len(regs))
	for _, reg := range regs {
		reg.mu.Lock()
		out = append(out, reg.report)
		reg.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Subscribe returns the reconciler's events from now on, until cancel is
// called. A subscriber that does not keep up misses events, and is told
// so by an event with Kind EventMissed.
func (r *Reconciler) Subscribe() (events <-chan Event, cancel func()) {
	return r.events.subscribe()
}

// reconcile runs one cycle of reg: refresh, status writes, and the
// auto-apply the workspace asked for (followed by a refresh that records
// its result).
func (r *Reconciler) reconcile(ctx context.Context, reg *registered) Report {
	reg.running.Lock()
	defer reg.running.Unlock()
	report := r.cycle(ctx, reg)
	if report.AutoApplied != nil && report.AutoApplied.Reason == ReasonDriftUndone && ctx.Err() == nil {
		applied := report.AutoApplied
		report = r.cycle(ctx, reg)
		report.AutoApplied = applied
	}
	return report
}

// cycle is one refresh of reg with its status writes.
func (r *Reconciler) cycle(ctx context.Context, reg *registered) Report {
	ws := reg.spec
	runID := ulid.Make().String()
	report := reg.lastReport()
	report.RunID, report.Started, report.Running = runID, time.Now(), true
	report.Error = ""
	reg.setReport(report)
	r.events.publish(ws.event(EventRunStarted, runID))
	setup := runSetup{service: r.service, limits: r.limiters, runID: runID}

	// The store is asked first: when it does not answer, there is no
	// point starting providers, and nothing could be recorded.
	storeCtx, cancel := context.WithTimeout(ctx, ws.Timeout)
	_, listErr := listInstances(storeCtx, r.service, ws)
	cancel()
	if listErr != nil {
		report.Failure = &Outcome{Kind: ConditionFailed, Reason: ReasonStoreUnavailable, Message: "The store did not answer: " + listErr.Error()}
		return r.finish(reg, report, nil)
	}
	result := refreshWorkspace(ctx, ws, setup, func(addr string, o Outcome) {
		r.events.publish(with(ws.event(EventInstanceRefreshed, runID), func(e *Event) { e.Instance, e.Outcome = addr, o }))
	})
	report.Failure, report.Duration = result.failure, result.duration
	tally, err := writeInstanceStatuses(ctx, r.service, ws, result)
	report.Tally = tally
	if err != nil {
		report.Failure = &Outcome{Kind: ConditionFailed, Reason: ReasonStoreUnavailable, Message: "Writing status failed: " + err.Error()}
		return r.finish(reg, report, nil)
	}
	report.AutoApplied = nil
	if ws.AutoApply == AutoApplyDrift && result.failure == nil && len(tally.DriftedAddrs) > 0 {
		applyID := ulid.Make().String()
		r.events.publish(ws.event(EventApplyStarted, applyID))
		applied := undoDrift(ctx, ws, runSetup{service: r.service, limits: r.limiters, runID: applyID}, tally.DriftedAddrs)
		report.AutoApplied = &applied
		r.logf("workspace %s: auto-apply: %s: %s", ws.Name, applied.Reason, applied.Message)
	}
	return r.finish(reg, report, result)
}

// finish records report as reg's latest, writes the workspace summary and
// tells subscribers.
func (r *Reconciler) finish(reg *registered, report Report, result *refreshResult) Report {
	ws := reg.spec
	report.Running = false
	if report.Duration == 0 {
		report.Duration = time.Since(report.Started)
	}
	if result == nil {
		result = &refreshResult{runID: report.RunID, duration: report.Duration, failure: report.Failure}
	}
	// The summary is written with a context of its own: a run cut short
	// by shutdown still records how it ended.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := writeWorkspaceStatus(ctx, r.service, ws, summary{result: result, tally: report.Tally, autoApply: report.AutoApplied}); err != nil {
		report.Error = "Writing the workspace status failed: " + err.Error()
	}
	if f := report.Failure; f != nil {
		r.logf("workspace %s: run %s failed: %s: %s", ws.Name, report.RunID, f.Reason, f.Message)
	}
	reg.setReport(report)
	r.events.publish(with(ws.event(EventRunFinished, report.RunID), func(e *Event) { e.Report = &report }))
	return report
}

func (reg *registered) lastReport() Report {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	return reg.report
}

func (reg *registered) setReport(report Report) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	reg.report = report
}

func (w Workspace) event(kind, runID string) Event {
	return Event{Kind: kind, Name: w.Name, Project: w.Project, Workspace: w.Workspace, RunID: runID}
}

func with(e Event, set func(*Event)) Event {
	set(&e)
	return e
}
