package command

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/ui/jsonview"
)

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

// planNextStep ends a plan that has something to apply as OpenTofu's
// PlanNextStep does: a rule, then where the generated configuration went,
// then either where the plan was saved and how to apply it, or the note
// that without -out the apply may do something else. It says nothing in
// automation (TF_IN_AUTOMATION set), where the next step is not the
// user's to type.
func (o *operationOutput) planNextStep(planPath, generatedConfigPath string) {
	if o.json != nil || os.Getenv("TF_IN_AUTOMATION") != "" {
		return
	}
	width := ui.Width(o.streams.Stdout)
	fmt.Fprintln(o.streams.Stdout, ui.HorizontalRule(width, o.color))
	if generatedConfigPath != "" {
		fmt.Fprintln(o.streams.Stdout, ui.WordWrap(fmt.Sprintf("\nTerrane has generated configuration and written it to %s. Please review the configuration and edit it as necessary before adding it to version control.", generatedConfigPath), width))
	}
	if planPath == "" {
		fmt.Fprintln(o.streams.Stdout, ui.WordWrap("\nNote: You didn't use the -out option to save this plan, so Terrane can't guarantee to take exactly these actions if you run \"terrane apply\" now.", width))
		return
	}
	fmt.Fprintln(o.streams.Stdout, ui.WordWrap(fmt.Sprintf("\nSaved the plan to: %s\n\nTo perform exactly these actions, run the following command to apply:\n    terrane apply %q", planPath, planPath), width))
}
