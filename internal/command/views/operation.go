package views

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/ui/jsonview"
)

// Operation shows what plan, apply, destroy and refresh show: plans,
// progress, summaries, questions and diagnostics, in colour unless told
// otherwise, or as -json messages.
type Operation struct {
	*View
	stdin *bufio.Reader
	// json is the -json message stream; nil for human output.
	json *jsonview.View
	// progress (or jsonProgress) and counts are the hooks of the run,
	// once Hooks was called.
	progress     *ui.ProgressHook
	jsonProgress *jsonview.Hook
	counts       *applyCounter
	// OutputsOnly reports a run as OpenTofu's refresh does (its
	// views.Refresh): neither the plan nor a change summary, only the
	// progress and the outputs after it.
	OutputsOnly bool
	// DestroyCommand is set for `terrane destroy`, which ends with
	// "Destroy complete!" and no outputs; `apply -destroy` and applying a
	// saved destroy plan end as any apply does, as in OpenTofu, whose
	// apply view knows only which command it serves.
	DestroyCommand bool
}

// NewOperation is the view of a command whose view options are options;
// under -json it starts the message stream with the version message.
func NewOperation(streams Streams, options arguments.View) *Operation {
	o := &Operation{View: NewView(streams, options)}
	if options.JSON && !options.Help {
		o.json = jsonview.New(streams.Stdout)
		o.json.Version()
	}
	return o
}

// JSON reports whether the view writes -json messages.
func (o *Operation) JSON() bool { return o.json != nil }

// HelpPrompt follows the errors in a command line; the -json stream has
// no place for it.
func (o *Operation) HelpPrompt(command string) {
	if o.json == nil {
		o.View.HelpPrompt(command)
	}
}

// Say writes a line of prose for people; the -json stream has no place
// for it.
func (o *Operation) Say(format string, args ...any) {
	if o.json == nil {
		fmt.Fprintf(o.streams.Stdout, format, args...)
	}
}

// Diagnostics writes warnings to stdout and errors to stderr, as the
// command line's view options say, or as -json messages.
func (o *Operation) Diagnostics(ds diags.Diagnostics) {
	if o.json != nil {
		o.json.Diagnostics(ds, o.sources)
		return
	}
	o.View.Diagnostics(ds)
}

// Confirm asks question, with detail below it, and reports whether the
// answer was "yes".
func (o *Operation) Confirm(question, detail string) bool {
	fmt.Fprintf(o.streams.Stdout, "\n%s\n", o.bold(question))
	for _, line := range strings.Split(detail, "\n") {
		fmt.Fprintf(o.streams.Stdout, "  %s\n", line)
	}
	fmt.Fprintln(o.streams.Stdout)
	return ReadAnswer(o.streams, &o.stdin, o.color) == "yes"
}

// ReadAnswer prompts for a value as OpenTofu's UI input does ("  Enter a
// value: "), reads one line through *stdin (made on first use, so that
// answers read ahead stay buffered for the next question) and ends the
// line; it returns the answer without surrounding space.
func ReadAnswer(streams Streams, stdin **bufio.Reader, color bool) string {
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

// Interrupted says a first interrupt was received.
func (o *Operation) Interrupted() {
	fmt.Fprintln(o.streams.Stderr, "Interrupt received.\nPlease wait for Terrane to exit or data loss may occur.\nGracefully shutting down...")
}

// FatalInterrupt says a second interrupt was received.
func (o *Operation) FatalInterrupt() {
	fmt.Fprintln(o.streams.Stderr, "Two interrupts received. Exiting immediately. Note that data loss may have occurred.")
}

// Plan shows plan, whose providers' schemas are schemas; rendering
// problems (a change that cannot be decoded) become diagnostics of their
// own.
func (o *Operation) Plan(plan *plans.Plan, schemas *providers.Schemas) {
	if o.OutputsOnly {
		return
	}
	if o.json != nil {
		o.planJSON(plan)
		return
	}
	ds := ui.RenderPlan(o.streams.Stdout, plan, schemas, ui.PlanOptions{Color: o.color})
	o.Diagnostics(ds)
}

// planJSON writes a plan as -json messages: drift, planned changes, the
// change summary and the planned outputs, as terraform plan -json does.
func (o *Operation) planJSON(plan *plans.Plan) {
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

// SavedPlanChanges announces, under -json, the changes of a saved plan
// about to be applied.
func (o *Operation) SavedPlanChanges(changes []*plans.ResourceInstanceChangeSrc) {
	if o.json != nil {
		o.json.SavedPlanChanges(changes)
	}
}

// Hooks are the progress reporters of a run: progress lines as
// operations start and end, and the counts for the closing summary.
func (o *Operation) Hooks() []engine.Hook {
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

// StopProgress ends the progress reports of a run: nothing about it is
// printed after what comes next.
func (o *Operation) StopProgress() {
	if o.progress != nil {
		o.progress.Close()
		o.progress = nil
	}
	if o.jsonProgress != nil {
		o.jsonProgress.Stop()
		o.jsonProgress = nil
	}
}

// ApplySummary ends a successful apply with what it did and outputs,
// the root module's outputs as now recorded (nil after a destroy, which
// shows none).
func (o *Operation) ApplySummary(plan *plans.Plan, outputs map[string]*states.OutputValue) {
	o.StopProgress()
	summary := o.counts.summary()
	summary.Destroy = o.DestroyCommand
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
	if o.OutputsOnly && o.json != nil {
		o.json.Outputs(outputs)
		return
	}
	if o.json != nil {
		o.applySummaryJSON(summary, outputs)
		return
	}
	for name, output := range outputs {
		summary.Outputs = append(summary.Outputs, ui.OutputValue{Name: name, Value: output.Value, Sensitive: output.Sensitive})
	}
	if o.OutputsOnly {
		io.WriteString(o.streams.Stdout, ui.RenderOutputValues(summary.Outputs, o.color))
		return
	}
	if err := ui.RenderApplySummary(o.streams.Stdout, summary, o.color); err != nil {
		o.Diagnostics(diags.Diagnostics{diags.Errorf("Cannot write the summary", "%s.", err)})
	}
}

func (o *Operation) applySummaryJSON(summary ui.ApplySummary, outputs map[string]*states.OutputValue) {
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

// PlanNextStep ends a plan that has something to apply as OpenTofu's
// PlanNextStep does: a rule, then where the generated configuration went,
// then either where the plan was saved and how to apply it, or the note
// that without -out the apply may do something else. It says nothing in
// automation (TF_IN_AUTOMATION set), where the next step is not the
// user's to type.
func (o *Operation) PlanNextStep(planPath, generatedConfigPath string) {
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
