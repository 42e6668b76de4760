package command

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plans/planfile"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/ui/jsonview"
	"github.com/terrane/terrane/internal/version"
)

// runApply is `terrane apply [PLANFILE]`: without a plan file it plans,
// shows the plan and asks for approval before applying; with one it applies
// exactly that plan, refusing it when records changed since.
func runApply(streams Streams, args []string) int {
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
func applyCommand(streams Streams, ask approval, opts *arguments.Apply, argDiags diags.Diagnostics) int {
	out := newOperationOutput(streams, opts.View)
	if opts.Help {
		printCommandHelp(streams.Stdout, ask.command)
		return 0
	}
	if argDiags.HasErrors() {
		out.diagnostics(argDiags)
		out.helpPrompt(ask.command)
		return 1
	}
	if opts.PlanFile != "" {
		return applySavedPlan(out, opts)
	}
	out.outputsOnly = ask.outputsOnly
	out.destroyCommand = ask.command == destroyApproval.command
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
		out.diagnostics(diags.Diagnostics{diags.Errorf("Plan file or auto-approve required",
			"With -json Terrane cannot ask whether to %s. Give -auto-approve as well, or save a plan with \"terrane plan -out=FILE\" and apply that file.", ask.command)})
		return 1
	}
	if !opts.AutoApprove && !opts.Input {
		out.diagnostics(diags.Diagnostics{diags.Errorf("Approval required",
			"With -input=false Terrane cannot ask whether to %s. Give -auto-approve to go ahead without asking, or save a plan with \"terrane plan -out=FILE\" and apply that file.", ask.command)})
		return 1
	}
	if !opts.Destroy && ask.command != refreshApproval.command && !config.IsConfigDir(".") {
		out.diagnostics(diags.Diagnostics{diags.Errorf("No configuration files",
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
			out.diagnostics(ds)
			ds = nil
			if !out.confirm(ask) {
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
	if !op.out.outputsOnly {
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
	if !op.out.outputsOnly {
		ds = ds.Append(op.Engine.RecordPlannedChecks(ctx, plan))
	}
	op.out.diagnostics(ds)
	op.out.renderApplySummary(plan, op, false)
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
func (b *conflictBackoff) retry(out *operationOutput, ds diags.Diagnostics) bool {
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
	out.say("\nWaiting for another run (%s); planning again in %s.\n", conflict, pause.Round(time.Millisecond))
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
		op.out.diagnostics(ds.Append(abortedDiag()).Append(op.keepUnrecorded(true)))
		return 1
	}
	if op.out.outputsOnly {
		// OpenTofu's refresh plans and records, but applies no plan, so
		// it has no reminder that a targeted apply may be incomplete.
		applyDiags = withoutDiagnostic(applyDiags, engine.IncompleteApplyWarning(plan))
	}
	ds = claimsLeftAlone(ds.Append(applyDiags, staleRecordsNotice(op.Cipher))).Append(op.keepUnrecorded(false))
	// As OpenTofu does, the run's warnings come before the summary and the
	// outputs, in the -json stream and in text alike.
	op.out.stopProgress()
	op.out.diagnostics(ds)
	op.out.renderApplySummary(plan, op, ds.HasErrors())
	if ds.HasErrors() {
		return 1
	}
	return 0
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

// applySavedPlan is `terrane apply PLANFILE`.
func applySavedPlan(out *operationOutput, opts *arguments.Apply) int {
	plan, snapshot, lockFile, enc, ds := readSavedPlan(opts.PlanFile, ".", opts.Vars)
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	op, openDiags := openOperation(out, opts.Operation, plan, enc)
	ds = ds.Append(openDiags)
	if op != nil {
		defer op.Close()
	}
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	ds = ds.Append(op.checkSavedPlanInputs(opts.PlanFile, snapshot, lockFile))
	if !ds.HasErrors() && plan.Errored {
		ds = ds.Append(diags.Errorf("Saved plan is not applyable",
			"The plan in %s was made by a run that failed, so it is incomplete. Fix the errors it reported and make a new plan.", opts.PlanFile))
	}
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	if out.json != nil {
		out.json.SavedPlanChanges(plan.Changes.Resources)
	}
	return applyAndReport(op, plan, ds)
}

// readSavedPlan reads the plan file at path with the encryption of the
// configuration in dir (see savedPlanEncryption), which it returns for the
// apply to use: keys it derived to read the plan serve the state too.
func readSavedPlan(path, dir string, vars []inputvars.VarOption) (*plans.Plan, *planfile.ConfigSnapshot, []byte, *encryption.Encryption, diags.Diagnostics) {
	fail := func(ds diags.Diagnostics) (*plans.Plan, *planfile.ConfigSnapshot, []byte, *encryption.Encryption, diags.Diagnostics) {
		return nil, nil, nil, nil, planFileFailure("Failed to read the saved plan", path, ds)
	}
	enc, reader, ds := savedPlanEncryption(path, dir, vars)
	if ds.HasErrors() {
		return fail(ds)
	}
	defer reader.Close()
	plan, err := reader.ReadPlan()
	if err != nil {
		return fail(ds.Append(err))
	}
	snapshot, err := reader.ReadConfigSnapshot()
	if err != nil {
		return fail(ds.Append(err))
	}
	lockFile, _, err := reader.ReadLockFile()
	if err != nil {
		return fail(ds.Append(err))
	}
	return plan, snapshot, lockFile, enc, ds
}

// checkSavedPlanInputs refuses a saved plan when the configuration files
// or the dependency lock file changed since it was made: applying it would
// evaluate different expressions, or start different providers, than those
// the plan was made with.
func (op *operation) checkSavedPlanInputs(path string, saved *planfile.ConfigSnapshot, savedLock []byte) diags.Diagnostics {
	var ds diags.Diagnostics
	current, err := configSnapshot(op.Config)
	if err != nil {
		return ds.Append(diags.Errorf("Failed to read the configuration", "Comparing it with the saved plan %s: %s.", path, err))
	}
	if changed := changedConfigFiles(saved, current); len(changed) > 0 {
		ds = ds.Append(diags.Errorf("Configuration changed since the plan was made",
			"The saved plan %s was made from a different configuration: %s changed. Make a new plan with \"terrane plan -out=%s\".",
			path, strings.Join(changed, ", "), path))
	}
	if !bytes.Equal(savedLock, op.LockFile) {
		ds = ds.Append(diags.Errorf("Dependency lock file changed since the plan was made",
			"The providers selected in .terraform.lock.hcl differ from those the saved plan %s was made with. Make a new plan.", path))
	}
	return ds
}

// changedConfigFiles names the files that differ between two snapshots,
// including files only one of them has.
func changedConfigFiles(saved, current *planfile.ConfigSnapshot) []string {
	seen := map[string]bool{}
	var changed []string
	note := func(name string) {
		if !seen[name] {
			seen[name] = true
			changed = append(changed, name)
		}
	}
	compare := func(a, b *planfile.ConfigSnapshot) {
		for key, mod := range a.Modules {
			other := b.Modules[key]
			for name, content := range mod.Files {
				if other == nil || !bytes.Equal(other.Files[name], content) {
					note(filepathJoin(mod.Dir, name))
				}
			}
			if other == nil && len(mod.Files) == 0 {
				note(mod.Dir)
			}
		}
	}
	compare(saved, current)
	compare(current, saved)
	sort.Strings(changed)
	return changed
}

func filepathJoin(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}

// operationOutput writes what plan and apply commands show: plans,
// progress, summaries and diagnostics, in colour unless told otherwise.
type operationOutput struct {
	streams Streams
	view    arguments.View
	color   bool
	sources ui.Sources
	stdin   *bufio.Reader
	// json is the -json message stream; nil for human output.
	json *jsonview.View
	// progress (or jsonProgress) and counts are the hooks of the run,
	// once hooks was called.
	progress     *ui.ProgressHook
	jsonProgress *jsonview.Hook
	counts       *applyCounter
	// outputsOnly reports a run as OpenTofu's refresh does (views.Refresh):
	// neither the plan nor a change summary, only the progress and the
	// outputs after it.
	outputsOnly bool
	// destroyCommand is set for `terrane destroy`, which ends with
	// "Destroy complete!" and no outputs; `apply -destroy` and applying a
	// saved destroy plan end as any apply does, as in OpenTofu, whose
	// apply view knows only which command it serves.
	destroyCommand bool
}

func newOperationOutput(streams Streams, view arguments.View) *operationOutput {
	o := &operationOutput{
		streams: streams,
		view:    view,
		color:   ui.ColorEnabled(view.NoColor),
		sources: ui.Sources{},
	}
	if view.JSON && !view.Help {
		o.json = jsonview.New(streams.Stdout)
		o.json.Version()
	}
	return o
}

// helpPrompt follows the errors in a command line, as OpenTofu's views of
// plan, apply, destroy and refresh do; the -json stream has no place for
// it.
func (o *operationOutput) helpPrompt(command string) {
	if o.json == nil {
		fmt.Fprintf(o.streams.Stderr, "\nFor more help on using this command, run:\n  terrane %s -help\n", command)
	}
}

// say writes a line of prose for people; the -json stream has no place
// for it.
func (o *operationOutput) say(format string, args ...any) {
	if o.json == nil {
		fmt.Fprintf(o.streams.Stdout, format, args...)
	}
}

func (o *operationOutput) addSources(files map[string]*hcl.File) {
	for name, file := range files {
		o.sources[name] = file
	}
}

// diagnostics writes warnings to stdout and errors to stderr, as the
// command line's view options say (see diagnosticView).
func (o *operationOutput) diagnostics(ds diags.Diagnostics) {
	if o.json != nil {
		o.json.Diagnostics(ds, o.sources)
		return
	}
	diagnosticView(o.streams, o.view, o.color).Write(o.streams.Stdout, o.streams.Stderr, ds, o.sources)
}

// diagnosticView is how a command shows diagnostics, from its own view
// options and the global ones.
func diagnosticView(streams Streams, view arguments.View, color bool) ui.DiagnosticView {
	return ui.DiagnosticView{
		Color:               color,
		ConsolidateWarnings: !streams.View.KeepWarningsApart,
		ConsolidateErrors:   streams.View.ConsolidateErrors,
		CompactWarnings:     view.CompactWarnings,
		Deprecation:         streams.View.Deprecation,
	}
}

// confirm asks ask's question and reports whether the answer was "yes".
func (o *operationOutput) confirm(ask approval) bool {
	fmt.Fprintf(o.streams.Stdout, "\n%s\n", o.bold(ask.question))
	for _, line := range strings.Split(ask.detail, "\n") {
		fmt.Fprintf(o.streams.Stdout, "  %s\n", line)
	}
	fmt.Fprintln(o.streams.Stdout)
	return readAnswer(o.streams, &o.stdin, o.color) == "yes"
}

// bold is text in bold when colour is on.
func (o *operationOutput) bold(text string) string {
	if !o.color {
		return text
	}
	return "\x1b[1m" + text + "\x1b[0m"
}

// readAnswer prompts for a value as OpenTofu's UI input does ("  Enter a
// value: "), reads one line through *stdin (made on first use, so that
// answers read ahead stay buffered for the next question) and ends the
// line; it returns the answer without surrounding space.
func readAnswer(streams Streams, stdin **bufio.Reader, color bool) string {
	prompt := "Enter a value:"
	if color {
		prompt = "\x1b[1m" + prompt + "\x1b[0m"
	}
	fmt.Fprint(streams.Stdout, "  "+prompt+" ")
	if *stdin == nil {
		*stdin = bufio.NewReader(streams.Stdin)
	}
	answer, _ := (*stdin).ReadString('\n')
	fmt.Fprintln(streams.Stdout)
	return strings.TrimSpace(answer)
}

// renderPlan shows plan; rendering problems (a change that cannot be
// decoded) become diagnostics of their own.
func (o *operationOutput) renderPlan(plan *plans.Plan, eng *engine.Engine) {
	if o.outputsOnly {
		return
	}
	if o.json != nil {
		o.renderPlanJSON(plan)
		return
	}
	ds := ui.RenderPlan(o.streams.Stdout, plan, eng.Schemas(), ui.PlanOptions{Color: o.color})
	o.diagnostics(ds)
}

// hooks are the progress reporters of a run: progress lines as
// operations start and end, and the counts for the closing summary.
func (o *operationOutput) hooks() []engine.Hook {
	o.counts = &applyCounter{actions: map[string]plans.Action{}}
	if o.json != nil {
		o.jsonProgress = jsonview.NewHook(o.json, jsonview.DefaultProgressInterval)
		return []engine.Hook{o.jsonProgress, o.counts}
	}
	if o.streams.View.Concise {
		// -concise: no progress lines, as OpenTofu's UI hook is left out.
		return []engine.Hook{o.counts}
	}
	o.progress = ui.NewProgressHook(o.streams.Stdout, ui.ProgressOptions{Color: o.color})
	return []engine.Hook{o.progress, o.counts}
}

// stopProgress ends the progress reports of a run: nothing about it is
// printed after what comes next.
func (o *operationOutput) stopProgress() {
	if o.progress != nil {
		o.progress.Close()
		o.progress = nil
	}
	if o.jsonProgress != nil {
		o.jsonProgress.Stop()
		o.jsonProgress = nil
	}
}

// renderApplySummary ends an apply with what it did and, unless it
// destroyed everything, the root module's outputs as now recorded.
func (o *operationOutput) renderApplySummary(plan *plans.Plan, op *operation, failed bool) {
	o.stopProgress()
	if failed {
		return
	}
	summary := o.counts.summary()
	summary.Destroy = o.destroyCommand
	// Imports and forgets are recorded in one commit before the walk, not
	// through the hooks, so they are counted from the plan.
	for _, change := range plan.Changes.Resources {
		if change.Importing != nil {
			summary.Imported++
		}
		if change.Action == plans.Forget {
			summary.Forgotten++
		}
	}
	var outputs map[string]*states.OutputValue
	if !summary.Destroy {
		var err error
		outputs, err = op.recordedOutputs()
		if err != nil {
			o.diagnostics(diags.Diagnostics{diags.Warnf("Cannot show outputs", "The apply succeeded, but reading the outputs back from the store failed: %s. Run \"terrane output\" to see them.", err)})
		}
	}
	if o.outputsOnly && o.json != nil {
		o.json.Outputs(outputs)
		return
	}
	if o.json != nil {
		o.renderApplySummaryJSON(summary, outputs)
		return
	}
	for name, output := range outputs {
		summary.Outputs = append(summary.Outputs, ui.OutputValue{Name: name, Value: output.Value, Sensitive: output.Sensitive})
	}
	if o.outputsOnly {
		io.WriteString(o.streams.Stdout, ui.RenderOutputValues(summary.Outputs, o.color))
		return
	}
	if err := ui.RenderApplySummary(o.streams.Stdout, summary, o.color); err != nil {
		o.diagnostics(diags.Diagnostics{diags.Errorf("Cannot write the summary", "%s.", err)})
	}
}

// recordedOutputs reads the root module's outputs from the store.
func (op *operation) recordedOutputs() (map[string]*states.OutputValue, error) {
	snapshot, err := op.Store.Load(context.Background())
	if err != nil {
		return nil, err
	}
	return snapshot.State.Outputs, nil
}

// renderPlanJSON writes a plan as -json messages: drift, planned changes,
// the change summary and the planned outputs, as terraform plan -json does.
func (o *operationOutput) renderPlanJSON(plan *plans.Plan) {
	for _, drift := range plan.DriftedResources {
		o.json.ResourceDrift(drift)
	}
	for _, change := range plan.Changes.Resources {
		o.json.PlannedChange(change)
	}
	// A destroy's plan is summarised as a plan: nothing is destroyed yet.
	o.json.ChangeSummary(jsonview.SummarizePlan(plan.Changes.Resources, jsonview.OperationPlan))
	o.json.PlannedOutputs(plan.Changes.Outputs)
}

func (o *operationOutput) renderApplySummaryJSON(summary ui.ApplySummary, outputs map[string]*states.OutputValue) {
	operation := jsonview.OperationApply
	if summary.Destroy {
		operation = jsonview.OperationDestroy
	}
	o.json.ChangeSummary(jsonview.ChangeSummary{Add: summary.Added, Change: summary.Changed, Import: summary.Imported,
		Remove: summary.Destroyed, Forget: summary.Forgotten, Operation: operation})
	if !summary.Destroy {
		o.json.Outputs(outputs)
	}
}

// applyCounter counts the changes an apply completed, for the summary:
// a replacement counts once as added and once as destroyed, as Terraform
// counts it.
type applyCounter struct {
	engine.NilHook
	mu                                   sync.Mutex
	actions                              map[string]plans.Action
	added, changed, destroyed, forgotten int
}

func (c *applyCounter) PreApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, action plans.Action, prior, planned cty.Value) {
	kind := action
	if action.IsReplace() {
		kind = plans.Create
		if planned == cty.NilVal || planned.IsNull() {
			kind = plans.Delete
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.actions[counterKey(addr, deposed)] = kind
}

func (c *applyCounter) PostApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, newState cty.Value, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := counterKey(addr, deposed)
	kind, ok := c.actions[key]
	delete(c.actions, key)
	if !ok || err != nil {
		return
	}
	switch kind {
	case plans.Create:
		c.added++
	case plans.Update:
		c.changed++
	case plans.Delete:
		c.destroyed++
	case plans.Forget:
		c.forgotten++
	}
}

func counterKey(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey) string {
	return addr.String() + " " + string(deposed)
}

func (c *applyCounter) summary() ui.ApplySummary {
	if c == nil {
		return ui.ApplySummary{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return ui.ApplySummary{Added: c.added, Changed: c.changed, Destroyed: c.destroyed, Forgotten: c.forgotten}
}
