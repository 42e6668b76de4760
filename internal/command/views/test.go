package views

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/jsonplan"
	"github.com/terrane/terrane/internal/command/jsonstate"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/moduletest"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/ui/jsonview"
	"github.com/terrane/terrane/internal/version"
)

// Test shows `terrane test`'s results as OpenTofu's test command does: a
// line per file and per run, their diagnostics, what the clean-up left
// behind, and a closing summary; or, with -json, OpenTofu's test
// messages; or, with -json-into, both, the messages to a file.
type Test struct {
	out   *Operation
	suite *moduletest.Suite
	// into receives the test messages beside the human output under
	// -json-into.
	into *jsonview.View
	// persist writes a state a clean-up left behind to
	// ErroredTestStateFile.
	persist func(*states.State) error
}

var _ moduletest.View = (*Test)(nil)

// ErroredTestStateFile is where the objects a clean-up could not destroy
// are written, for the user to clean up by hand.
const ErroredTestStateFile = "errored_test.tfstate"

// NewTest is the test command's view over out, whose view options it
// follows; persist writes what a clean-up left behind to
// ErroredTestStateFile.
func NewTest(out *Operation, persist func(*states.State) error) *Test {
	return &Test{out: out, persist: persist}
}

// JSONInto sends the test messages to w as well, as -json-into asks.
func (v *Test) JSONInto(w io.Writer) {
	v.into = jsonview.New(w)
	v.into.Version()
}

// SetSuite gives the view the suite whose files diagnostics may quote.
func (v *Test) SetSuite(suite *moduletest.Suite) {
	v.suite = suite
}

// human reports whether the human output is written (not under -json).
func (v *Test) human() bool { return v.out.json == nil }

// jsons are the streams the test messages go to: stdout under -json, the
// -json-into file, or none.
func (v *Test) jsons() []*jsonview.View {
	if v.out.json != nil {
		return []*jsonview.View{v.out.json}
	}
	if v.into != nil {
		return []*jsonview.View{v.into}
	}
	return nil
}

// statusWord is a status as the human output shows it.
func (v *Test) statusWord(s moduletest.Status) string {
	pal := func(code, text string) string {
		if !v.out.color {
			return text
		}
		return code + text + "\x1b[0m"
	}
	switch s {
	case moduletest.Error, moduletest.Fail:
		return pal("\x1b[31m", "fail")
	case moduletest.Pass:
		return pal("\x1b[32m", "pass")
	case moduletest.Skip:
		return pal("\x1b[37m", "skip")
	}
	return pal("\x1b[37m", "pending")
}

func plainStatus(s moduletest.Status) string {
	switch s {
	case moduletest.Error, moduletest.Fail:
		return "fail"
	}
	return strings.ToLower(s.String())
}

func (v *Test) sources() ui.Sources {
	if v.suite != nil {
		v.out.AddSources(v.suite.Sources())
	}
	return v.out.sources
}

// Diagnostics shows ds, of file and run when they are not nil.
func (v *Test) Diagnostics(ds diags.Diagnostics, file *moduletest.File, run *moduletest.Run) {
	sources := v.sources()
	if v.human() {
		v.out.Diagnostics(ds)
	}
	path, name := "", ""
	if file != nil {
		path = file.Name
	}
	if run != nil {
		name = run.Name
	}
	for _, j := range v.jsons() {
		j.TestDiagnostics(ds, sources, path, name)
	}
}

// Abstract announces the files and runs about to be executed (in the
// test messages only).
func (v *Test) Abstract(files []*moduletest.File) {
	abstract := map[string][]string{}
	runs := 0
	for _, f := range files {
		// A file without runs has null for its list, as in OpenTofu.
		var names []string
		for _, r := range f.Runs {
			names = append(names, r.Name)
		}
		runs += len(f.Runs)
		abstract[f.Name] = names
	}
	for _, j := range v.jsons() {
		j.TestAbstract(abstract, len(files), runs)
	}
}

func (v *Test) File(f *moduletest.File) {
	if v.human() {
		fmt.Fprintf(v.out.streams.Stdout, "%s... %s\n", f.Name, v.statusWord(f.Status))
	}
	for _, j := range v.jsons() {
		j.TestFile(f.Name, strings.ToLower(f.Status.String()), plainStatus(f.Status))
	}
	v.Diagnostics(f.Diagnostics, f, nil)
}

func (v *Test) Run(r *moduletest.Run, f *moduletest.File) {
	ds := r.Diagnostics
	if v.human() {
		fmt.Fprintf(v.out.streams.Stdout, "  run %q... %s\n", r.Name, v.statusWord(r.Status))
		if r.Verbose != nil {
			ds = ds.Append(v.verboseHuman(r))
		}
	}
	for _, j := range v.jsons() {
		j.TestRun(f.Name, r.Name, strings.ToLower(r.Status.String()), plainStatus(r.Status))
		if r.Verbose != nil {
			ds = ds.Append(verboseJSON(j, r, f))
		}
	}
	v.Diagnostics(ds, f, r)
}

// verboseJSON writes a run's plan, or for an apply the state it left, as
// a test message.
func verboseJSON(j *jsonview.View, r *moduletest.Run, f *moduletest.File) diags.Diagnostics {
	vb := r.Verbose
	if r.Command == moduletest.ApplyCommand {
		doc, err := jsonstate.Marshal(vb.State, vb.Schemas, version.OpenTofuVersion)
		if err != nil {
			return diags.Diagnostics{diags.Warnf("Failed to render test state", "Terrane could not marshal the state for display: %s", err)}
		}
		j.TestState(f.Name, r.Name, doc)
		return nil
	}
	doc, err := jsonplan.Marshal(jsonplan.Input{Plan: vb.Plan, Config: vb.Config, Schemas: vb.Schemas})
	if err != nil {
		return diags.Diagnostics{diags.Warnf("Failed to render test plan", "Terrane could not marshal the plan for display: %s", err)}
	}
	j.TestPlan(f.Name, r.Name, json.RawMessage(doc))
	return nil
}

// verboseHuman shows a run's plan, or for an apply the state it left.
func (v *Test) verboseHuman(r *moduletest.Run) diags.Diagnostics {
	vb := r.Verbose
	w := v.out.streams.Stdout
	if r.Command == moduletest.ApplyCommand {
		return ui.RenderState(w, vb.State, vb.Schemas, ui.StateOptions{Color: v.out.color})
	}
	return ui.RenderPlan(w, vb.Plan, vb.Schemas, ui.PlanOptions{Color: v.out.color, Width: ui.Width(w)})
}

func (v *Test) DestroySummary(ds diags.Diagnostics, run *moduletest.Run, f *moduletest.File, left *states.State) {
	identifier := f.Name
	runName := ""
	if run != nil {
		identifier += "/" + run.Name
		runName = run.Name
	}
	objects := leftObjects(left)
	message := fmt.Sprintf("Terrane left the following resources in state after executing %s, these left-over resources can be viewed by reading the statefile written to disk(%s) and they need to be cleaned up manually:", identifier, ErroredTestStateFile)
	if v.human() {
		width := ui.Width(v.out.streams.Stderr)
		if ds.HasErrors() {
			fmt.Fprint(v.out.streams.Stderr, ui.WordWrap(fmt.Sprintf("Terrane encountered an error destroying resources created while executing %s.\n", identifier), width))
		}
		v.out.Diagnostics(ds)
		if len(objects) > 0 {
			fmt.Fprint(v.out.streams.Stderr, ui.WordWrap("\n"+message+"\n", width))
			printAddresses(v.out.streams.Stderr, objects)
		}
	}
	for _, j := range v.jsons() {
		if len(objects) > 0 {
			j.TestCleanup(f.Name, runName, strings.Replace(message, "the following", "some", 1), objects)
		}
		j.TestDiagnostics(ds, v.sources(), f.Name, runName)
	}
	if len(objects) > 0 {
		v.Diagnostics(v.saveErroredState(left), f, run)
	}
}

// leftObjects lists the managed objects a state still holds, deposed ones
// with their keys.
func leftObjects(state *states.State) []jsonview.TestFailedResource {
	var out []jsonview.TestFailedResource
	if state == nil {
		return nil
	}
	for _, entry := range state.AllResourceInstances() {
		if entry.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		if entry.Instance.Current != nil {
			out = append(out, jsonview.TestFailedResource{Instance: entry.Addr.String()})
		}
		keys := make([]string, 0, len(entry.Instance.Deposed))
		for key := range entry.Instance.Deposed {
			keys = append(keys, key.String())
		}
		sort.Strings(keys)
		for _, key := range keys {
			out = append(out, jsonview.TestFailedResource{Instance: entry.Addr.String(), DeposedKey: key})
		}
	}
	return out
}

// saveErroredState has what a clean-up left behind written to
// errored_test.tfstate, as OpenTofu does, so it can be cleaned up. As in
// OpenTofu, the notice that it does so is left out under -json-into.
func (v *Test) saveErroredState(state *states.State) diags.Diagnostics {
	switch {
	case v.out.json != nil:
		v.out.json.Message(jsonview.LevelInfo, "Writing state to file: "+ErroredTestStateFile)
	case v.into == nil:
		fmt.Fprint(v.out.streams.Stderr, ui.WordWrap("\nWriting state to file: "+ErroredTestStateFile+"\n", ui.Width(v.out.streams.Stderr)))
	}
	if err := v.persist(state); err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to persist state",
			"Writing %s failed: %s. The objects listed above were left behind by the tests and must be cleaned up by hand.", ErroredTestStateFile, err)}
	}
	return nil
}

// Conclusion ends the output with the counts of runs by outcome.
func (v *Test) Conclusion(files []*moduletest.File, status moduletest.Status) {
	var summary jsonview.TestSummary
	summary.Status = strings.ToLower(status.String())
	for _, f := range files {
		for _, r := range f.Runs {
			switch r.Status {
			case moduletest.Skip:
				summary.Skipped++
			case moduletest.Pass:
				summary.Passed++
			case moduletest.Error:
				summary.Errored++
			case moduletest.Fail:
				summary.Failed++
			}
		}
	}
	var message strings.Builder
	if status <= moduletest.Skip {
		message.WriteString("Executed 0 tests")
	} else if status == moduletest.Pass {
		message.WriteString("Success!")
	} else {
		message.WriteString("Failure!")
	}
	if status > moduletest.Skip {
		fmt.Fprintf(&message, " %d passed, %d failed", summary.Passed, summary.Failed+summary.Errored)
	}
	if summary.Skipped > 0 {
		fmt.Fprintf(&message, ", %d skipped.", summary.Skipped)
	} else {
		message.WriteString(".")
	}
	for _, j := range v.jsons() {
		j.TestSummaryMessage(message.String(), summary)
	}
	if !v.human() {
		return
	}
	text := message.String()
	if v.out.color {
		word, rest, _ := strings.Cut(text, " ")
		switch status {
		case moduletest.Pass:
			text = "\x1b[32m" + word + "\x1b[0m " + rest
		case moduletest.Fail, moduletest.Error:
			text = "\x1b[31m" + word + "\x1b[0m " + rest
		}
	}
	fmt.Fprintf(v.out.streams.Stdout, "\n%s\n", text)
}

// Interrupted says a first interrupt was received.
func (v *Test) Interrupted() {
	v.notice("\nInterrupt received.\nPlease wait for Terrane to exit or data loss may occur.\nGracefully shutting down...\n")
}

// FatalInterrupt says a second interrupt was received.
func (v *Test) FatalInterrupt() {
	v.notice("\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n")
}

// notice writes a message to stderr, and a log message to the test
// messages' streams.
func (v *Test) notice(message string) {
	for _, j := range v.jsons() {
		j.Log(jsonview.LevelInfo, message)
	}
	if v.human() {
		fmt.Fprint(v.out.streams.Stderr, ui.WordWrap(message, ui.Width(v.out.streams.Stderr)))
	}
}

// FatalInterruptSummary lists what the files a second interrupt stopped
// still hold: created objects, and objects whose creation was under way
// (an open intent) and may exist.
func (v *Test) FatalInterruptSummary(unfinished []moduletest.Unfinished) {
	byFile := map[string][]moduletest.Unfinished{}
	var files []string
	for _, u := range unfinished {
		if _, seen := byFile[u.File.Name]; !seen {
			files = append(files, u.File.Name)
		}
		byFile[u.File.Name] = append(byFile[u.File.Name], u)
	}
	for _, name := range files {
		for _, j := range v.jsons() {
			j.TestInterrupt(name, interruptedObjects(byFile[name]))
		}
		if !v.human() {
			continue
		}
		w := v.out.streams.Stderr
		fmt.Fprintf(w, "\nTerrane was interrupted while executing %s, and may not have performed the expected cleanup operations.\n", name)
		for _, u := range byFile[name] {
			created, creating := stateObjects(u.State)
			if len(created) > 0 {
				if u.Source == "" {
					fmt.Fprintf(w, "\nTerrane has already created the following resources from the module under test:\n")
				} else {
					fmt.Fprintf(w, "\nTerrane has already created the following resources for %q from %q:\n", runName(u.Run), u.Source)
				}
				printAddresses(w, created)
			}
			if len(creating) > 0 {
				module := "the module under test"
				if u.Source != "" {
					module = fmt.Sprintf("%q", u.Source)
				}
				fmt.Fprintf(w, "\nTerrane was in the process of creating the following resources for %q from %s, and they may not have been destroyed:\n", runName(u.Run), module)
				printAddresses(w, creating)
			}
		}
	}
}

func runName(r *moduletest.Run) string {
	if r == nil {
		return ""
	}
	return r.Name
}

func printAddresses(w io.Writer, objects []jsonview.TestFailedResource) {
	for _, o := range objects {
		if o.DeposedKey != "" {
			fmt.Fprintf(w, "  - %s (%s)\n", o.Instance, o.DeposedKey)
		} else {
			fmt.Fprintf(w, "  - %s\n", o.Instance)
		}
	}
}

// stateObjects splits a state's managed objects into those that exist and
// those a create was under way for (an open intent without an object).
func stateObjects(state *states.State) (created, creating []jsonview.TestFailedResource) {
	created = leftObjects(state)
	for _, entry := range state.AllResourceInstances() {
		if entry.Addr.Resource.Resource.Mode == addrs.ManagedResourceMode && entry.Instance.Current == nil && entry.Instance.Intent != nil {
			creating = append(creating, jsonview.TestFailedResource{Instance: entry.Addr.String()})
		}
	}
	return created, creating
}

// interruptedObjects is the test_interrupt message of one file.
func interruptedObjects(unfinished []moduletest.Unfinished) jsonview.TestInterrupt {
	msg := jsonview.TestInterrupt{States: map[string][]jsonview.TestFailedResource{}}
	for _, u := range unfinished {
		created, creating := stateObjects(u.State)
		if u.Source == "" {
			msg.State = append(msg.State, created...)
		} else {
			msg.States[runName(u.Run)] = append(msg.States[runName(u.Run)], created...)
		}
		for _, c := range creating {
			msg.Planned = append(msg.Planned, c.Instance)
		}
	}
	return msg
}
