package command

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/reconcile"
)

// planWithInterrupts runs the engine's plan, cancelling it on the first
// interrupt and giving up on the second.
func planWithInterrupts(op *operation, opts arguments.Operation) (*plans.Plan, diags.Diagnostics, bool) {
	type result struct {
		plan  *plans.Plan
		diags diags.Diagnostics
	}
	r, aborted := withInterrupts(op.out, func(ctx context.Context) result {
		po := planOpts(opts)
		if opts.RefreshMaxAge > 0 && opts.Refresh {
			project, workspace := op.Store.Tenancy()
			fresh, err := reconcile.FreshInstances(ctx, op.Store.Service(), project, workspace, opts.RefreshMaxAge, time.Now())
			if err != nil {
				return result{nil, diags.Diagnostics{diags.Errorf("Cannot read the reconciler's status", "Reading the statuses -refresh-max-age relies on failed: %s.", err)}}
			}
			po.Fresh = fresh
		}
		plan, ds := op.Engine.Plan(ctx, po)
		op.markGeneratedConfig(plan)
		return result{plan, ds}
	})
	if aborted {
		return nil, diags.Diagnostics{abortedDiag()}, true
	}
	return r.plan, r.diags, false
}

// withInterrupts runs fn with a context the first SIGINT or SIGTERM
// cancels, so the engine stops starting provider calls and records the ones
// in flight. A second signal gives up waiting: aborted is true and the
// caller returns at once, leaving fn running until the process exits.
func withInterrupts[T any](out *views.Operation, fn func(ctx context.Context) T) (result T, aborted bool) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	done := make(chan T, 1)
	go func() { done <- fn(ctx) }()
	interrupted := false
	for {
		select {
		case result = <-done:
			return result, false
		case <-signals:
			if interrupted {
				out.FatalInterrupt()
				return result, true
			}
			interrupted = true
			out.Interrupted()
			cancel()
		}
	}
}

func abortedDiag() diags.Diagnostic {
	return diags.Errorf("Operation aborted",
		"A second interrupt stopped Terrane without waiting for provider calls in flight. Their results may not be recorded: run plan to see what the records say, and import or forget any object a create may have made.")
}
