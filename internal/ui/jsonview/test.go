package jsonview

import (
	"encoding/json"
	"fmt"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
)

// The messages of `terrane test -json`, as OpenTofu's test command writes
// them: statuses are "pass", "fail", "error", "skip" or "pending".

// TestSummary is the test_summary message's body.
type TestSummary struct {
	Status  string `json:"status"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Errored int    `json:"errored"`
	Skipped int    `json:"skipped"`
}

// TestFailedResource is an object a test's clean-up left behind.
type TestFailedResource struct {
	Instance   string `json:"instance"`
	DeposedKey string `json:"deposed_key,omitempty"`
}

// TestAbstract announces the files and their runs before any runs.
func (v *View) TestAbstract(files map[string][]string, fileCount, runCount int) {
	fileWord, runWord := "files", "run blocks"
	if fileCount == 1 {
		fileWord = "file"
	}
	if runCount == 1 {
		runWord = "run block"
	}
	v.emit(LevelInfo, "test_abstract", fmt.Sprintf("Found %d %s and %d %s", fileCount, fileWord, runCount, runWord),
		map[string]any{"test_abstract": files})
}

// TestFile reports a file's outcome; shown is its status as people read
// it ("fail" for an error).
func (v *View) TestFile(path, status, shown string) {
	v.emit(LevelInfo, "test_file", fmt.Sprintf("%s... %s", path, shown), map[string]any{
		"test_file": map[string]string{"path": path, "status": status},
		"@testfile": path,
	})
}

// TestRun reports a run's outcome.
func (v *View) TestRun(path, run, status, shown string) {
	v.emit(LevelInfo, "test_run", fmt.Sprintf("  %q... %s", run, shown), map[string]any{
		"test_run":  map[string]string{"path": path, "run": run, "status": status},
		"@testfile": path,
		"@testrun":  run,
	})
}

// TestPlan carries a run's plan (-verbose) in the plan JSON format.
func (v *View) TestPlan(path, run string, plan json.RawMessage) {
	v.emit(LevelInfo, "test_plan", "-verbose flag enabled, printing plan", map[string]any{
		"test_plan": plan, "@testfile": path, "@testrun": run,
	})
}

// TestState carries the state after a run (-verbose) in the state JSON
// format.
func (v *View) TestState(path, run string, state json.RawMessage) {
	v.emit(LevelInfo, "test_state", "-verbose flag enabled, printing state", map[string]any{
		"test_state": state, "@testfile": path, "@testrun": run,
	})
}

// TestCleanup lists what a file's clean-up could not destroy; run is
// empty when no run is to blame.
func (v *View) TestCleanup(path, run, message string, failed []TestFailedResource) {
	fields := map[string]any{"test_cleanup": map[string]any{"failed_resources": failed}, "@testfile": path}
	if run != "" {
		fields["@testrun"] = run
	}
	v.emit(LevelError, "test_cleanup", message, fields)
}

// TestSummaryMessage ends the stream with the counts of runs by outcome.
func (v *View) TestSummaryMessage(message string, summary TestSummary) {
	v.emit(LevelInfo, "test_summary", message, map[string]any{"test_summary": summary})
}

// TestDiagnostics writes diagnostics of a test file (path) or one of its
// runs (run, when not empty).
func (v *View) TestDiagnostics(ds diags.Diagnostics, sources ui.Sources, path, run string) {
	for _, d := range ds {
		level, prefix := LevelError, "Error: "
		if d.Severity != diags.Error {
			level, prefix = LevelWarn, "Warning: "
		}
		fields := map[string]any{"diagnostic": ui.NewDiagnosticJSON(d, sources)}
		if path != "" {
			fields["@testfile"] = path
		}
		if run != "" {
			fields["@testrun"] = run
		}
		v.emit(level, "diagnostic", prefix+d.Summary, fields)
	}
}

// TestInterrupt is the test_interrupt message's body: what an interrupted
// file's states hold (State for the configuration under test, States by
// run for run block modules) and the objects being created.
type TestInterrupt struct {
	State   []TestFailedResource            `json:"state,omitempty"`
	States  map[string][]TestFailedResource `json:"states,omitempty"`
	Planned []string                        `json:"planned,omitempty"`
}

// TestInterrupt reports what an interrupted file left behind.
func (v *View) TestInterrupt(path string, body TestInterrupt) {
	v.emit(LevelError, "test_interrupt", "Terrane was interrupted during test execution, and may not have performed the expected cleanup operations.",
		map[string]any{"test_interrupt": body, "@testfile": path})
}
