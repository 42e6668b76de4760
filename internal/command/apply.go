package command

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/version"
)

// runApply is `terrane apply [PLANFILE]`: without a plan file it plans,
// shows the plan and asks for approval before applying; with one it applies
// exactly that plan, refusing it when records changed since.
func runApply(streams views.Streams, args []string) int {
	opts, ds := arguments.ParseApply(args)
	return applyCommand(streams, applyApproval, opts, ds)
}

// approval is how an apply-like command asks before changing anything.
type approval struct {
	command  string
	question string
	// questionInWorkspace is the question outside the default workspace;
	// %q is the workspace's name.
	questionInWorkspace string
	detail              string
	cancelled           string
	// outputsOnly is OpenTofu's refresh report: no plan and no change
	// summary, only the refreshed outputs with their values.
	outputsOnly bool
}

var applyApproval = approval{
	command:             "apply",
	question:            "Do you want to perform these actions?",
	questionInWorkspace: "Do you want to perform these actions in workspace %q?",
	detail:              "Terrane will perform the actions described above.\nOnly 'yes' will be accepted to approve.",
	cancelled:           "Apply cancelled.",
}

var refreshOnlyApproval = approval{
	command:             "apply",
	question:            "Would you like to update the Terrane state to reflect these detected changes?",
	questionInWorkspace: "Would you like to update the Terrane state for %q to reflect these detected changes?",
	detail:              "Terrane will write these changes to the state without modifying any real infrastructure.\nThere is no undo. Only 'yes' will be accepted to confirm.",
	cancelled:           "Apply cancelled.",
}

// applyCommand is the body shared by apply, destroy and refresh.
func applyCommand(streams views.Streams, ask approval, opts *arguments.Apply, argDiags diags.Diagnostics) int {
	out := views.NewOperation(streams, opts.View)
	if opts.Help {
		printCommandHelp(streams.Stdout, ask.command)
		return 0
	}
	if argDiags.HasErrors() {
		out.Diagnostics(argDiags)
		out.HelpPrompt(ask.command)
		return 1
	}
	if opts.PlanFile != "" {
		return applySavedPlan(out, opts)
	}
	out.OutputsOnly = ask.outputsOnly
	out.DestroyCommand = ask.command == destroyApproval.command
	if opts.RefreshOnly && ask.command == "apply" {
		ask = refreshOnlyApproval
	}
	// OpenTofu asks by the plan's mode (backend/local opApply): apply
	// -destroy asks the destroy question.
	if opts.Destroy && ask.command == "apply" {
		ask = destroyApproval
		ask.command = "apply"
	}
	if !opts.AutoApprove && opts.JSON {
		out.Diagnostics(diags.Diagnostics{diags.Errorf("Plan file or auto-approve required",
			"With -json Terrane cannot ask whether to %s. Give -auto-approve as well, or save a plan with \"terrane plan -out=FILE\" and apply that file.", ask.command)})
		return 1
	}
	if !opts.AutoApprove && !opts.Input {
		out.Diagnostics(diags.Diagnostics{diags.Errorf("Approval required",
			"With -input=false Terrane cannot ask whether to %s. Give -auto-approve to go ahead without asking, or save a plan with \"terrane plan -out=FILE\" and apply that file.", ask.command)})
		return 1
	}
	if !opts.Destroy && ask.command != refreshApproval.command && !config.IsConfigDir(".") {
		out.Diagnostics(diags.Diagnostics{diags.Errorf("No configuration files",
			"Apply requires configuration to be present. Applying without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run 'terrane destroy' instead.")})
		return 1
	}
	op, plan, ds := openAndPlan(out, opts.Operation)
	if op != nil {
		defer op.Close()
	}
	if plan == nil {
		return 1
	}
	if ask.command == refreshApproval.command {
		ds = ds.Append(emptyStateWarning(op))
	}
	if !plan.CanApply() {
		return reportNothingToApply(op, plan, ds)
	}
	if op.Workspace != "default" && ask.questionInWorkspace != "" {
		ask.question = fmt.Sprintf(ask.questionInWorkspace, op.Workspace)
	}
	backoff := newConflictBackoff(opts.LockTimeout)
	for {
		// With -auto-approve the progress follows the plan directly, as in
		// OpenTofu (backend/local opApply asks nothing and prints nothing).
		if !opts.AutoApprove {
			// Warnings come before the question, so that the answer can
			// weigh them, and are not repeated after the apply.
			out.Diagnostics(ds)
			ds = nil
			if !out.Confirm(ask.question, ask.detail) {
				fmt.Fprintln(streams.Stdout, ask.cancelled)
				return 1
			}
		}
		applyDiags, aborted := withInterrupts(op.out, func(ctx context.Context) diags.Diagnostics {
			return op.Engine.Apply(ctx, plan)
		})
		if aborted || !backoff.retry(out, applyDiags) {
			return reportApply(op, plan, withoutCheckBlockWarnings(ds), applyDiags, aborted)
		}
		// Another run changed what this plan was made from: plan again
		// from the records as they are now, and ask again.
		if plan, ds = planAndShow(op, opts.Operation, backoff); plan == nil {
			return 1
		}
		if !plan.CanApply() {
			return reportNothingToApply(op, plan, ds)
		}
	}
}

// withoutCheckBlockWarnings drops the check block warnings of a plan that
// is being applied: the apply evaluates the check blocks again and warns
// of what it finds then, so a user sees each problem once, as Terraform
// shows it.
func withoutCheckBlockWarnings(ds diags.Diagnostics) diags.Diagnostics {
	var out diags.Diagnostics
	for _, d := range ds {
		if d.Severity == diags.Warning && d.FromCheckBlock {
			continue
		}
		out = append(out, d)
	}
	return out
}

// reportNothingToApply ends a run whose plan changes nothing as Terraform
// ends it: its diagnostics, then an apply summary counting nothing and the
// outputs as recorded (refresh -json: the outputs alone).
func reportNothingToApply(op *operation, plan *plans.Plan, ds diags.Diagnostics) int {
	// OpenTofu applies such a plan all the same, and its apply reminds
	// that a targeted run may leave changes pending; refresh applies
	// nothing.
	if !op.out.OutputsOnly {
		ds = ds.Append(engine.IncompleteApplyWarning(plan))
	}
	// OpenTofu applies and saves even a plan that changes nothing, so the
	// workspace then has a state, if an empty one: count this as its first
	// run when it is.
	ctx := context.Background()
	if ws, err := op.Store.EnsureWorkspace(ctx); err == nil && ws.Serial == 0 {
		if _, err := op.Store.BeginRun(ctx, version.Version); err != nil {
			ds = ds.Append(diags.Errorf("Cannot start the run", "Updating workspace %q failed: %s", op.Workspace, err))
		}
	}
	// The engine knows what each kind of run records: refresh, none.
	ds = ds.Append(op.Engine.RecordPlannedChecks(ctx, plan))
	op.out.Diagnostics(ds)
	op.showApplySummary(plan, false)
	return 0
}

// conflictBackoff is what -lock-timeout means without a lock: when a run
// loses to another (docs/architecture.md, "No global lock"), it waits, doubling the
// pause each time, and the caller plans again, until the timeout is spent.
type conflictBackoff struct {
	deadline time.Time
	pause    time.Duration
}

func newConflictBackoff(timeout time.Duration) *conflictBackoff {
	return &conflictBackoff{deadline: time.Now().Add(timeout), pause: 200 * time.Millisecond}
}

// retry reports whether to plan again after a run that reported ds: true,
// after waiting, when ds reports only conflicts with other runs and the
// timeout is not spent; false at once otherwise, or when interrupted while
// waiting.
func (b *conflictBackoff) retry(out *views.Operation, ds diags.Diagnostics) bool {
	var conflict *engine.ConflictError
	if !errors.As(engine.Conflict(ds), &conflict) || !conflict.OnlyConflicts {
		return false
	}
	remaining := time.Until(b.deadline)
	if remaining <= 0 {
		return false
	}
	pause := min(b.pause, remaining)
	b.pause = min(2*b.pause, 5*time.Second)
	out.Say("\nWaiting for another run (%s); planning again in %s.\n", conflict, pause.Round(time.Millisecond))
	waited, aborted := withInterrupts(out, func(ctx context.Context) bool {
		select {
		case <-time.After(pause):
			return true
		case <-ctx.Done():
			return false
		}
	})
	return waited && !aborted
}

// applyAndReport applies plan, then prints the summary, the outputs and
// every diagnostic of the run.
func applyAndReport(op *operation, plan *plans.Plan, ds diags.Diagnostics) int {
	applyDiags, aborted := withInterrupts(op.out, func(ctx context.Context) diags.Diagnostics {
		return op.Engine.Apply(ctx, plan)
	})
	return reportApply(op, plan, ds, applyDiags, aborted)
}

// reportApply prints the summary, the outputs and every diagnostic of an
// apply run.
func reportApply(op *operation, plan *plans.Plan, ds, applyDiags diags.Diagnostics, aborted bool) int {
	if aborted {
		// The apply goes on until the process exits; what it has not
		// recorded yet is handed over now.
		op.out.Diagnostics(ds.Append(abortedDiag()).Append(op.keepUnrecorded(true)))
		return 1
	}
	if op.out.OutputsOnly {
		// OpenTofu's refresh plans and records, but applies no plan, so
		// it has no reminder that a targeted apply may be incomplete.
		applyDiags = withoutDiagnostic(applyDiags, engine.IncompleteApplyWarning(plan))
	}
	ds = claimsLeftAlone(ds.Append(applyDiags, staleRecordsNotice(op.Cipher))).Append(op.keepUnrecorded(false))
	// As OpenTofu does, the run's warnings come before the summary and the
	// outputs, in the -json stream and in text alike.
	op.out.StopProgress()
	op.out.Diagnostics(ds)
	op.showApplySummary(plan, ds.HasErrors())
	if ds.HasErrors() {
		return 1
	}
	return 0
}

// showApplySummary ends an apply with what it did and, unless the run
// failed or destroyed everything, the root module's outputs as now
// recorded.
func (op *operation) showApplySummary(plan *plans.Plan, failed bool) {
	op.out.StopProgress()
	if failed {
		return
	}
	var outputs map[string]*states.OutputValue
	if !op.out.DestroyCommand {
		var err error
		outputs, err = op.recordedOutputs()
		if err != nil {
			op.out.Diagnostics(diags.Diagnostics{diags.Warnf("Cannot show outputs", "The apply succeeded, but reading the outputs back from the store failed: %s. Run \"terrane output\" to see them.", err)})
		}
	}
	op.out.ApplySummary(plan, outputs)
}

// recordedOutputs reads the root module's outputs from the store.
func (op *operation) recordedOutputs() (map[string]*states.OutputValue, error) {
	snapshot, err := op.Store.Load(context.Background())
	if err != nil {
		return nil, err
	}
	return snapshot.State.Outputs, nil
}

// withoutDiagnostic drops from ds the diagnostics with the summaries of
// those in drop.
func withoutDiagnostic(ds, drop diags.Diagnostics) diags.Diagnostics {
	if len(drop) == 0 {
		return ds
	}
	var out diags.Diagnostics
	for _, d := range ds {
		keep := true
		for _, x := range drop {
			if d.Summary == x.Summary && d.Severity == x.Severity {
				keep = false
			}
		}
		if keep {
			out = append(out, d)
		}
	}
	return out
}
