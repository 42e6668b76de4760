package command

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/logging"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/moduletest"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/workdir"
)

// runTest is `terrane test`: it runs the test files of OpenTofu's testing
// framework against the configuration in the working directory, each
// file's runs against throwaway in-memory state, and destroys what each
// file created once it is done. It exits 0 when every run passed.
func runTest(streams Streams, args []string) int {
	opts, ds := arguments.ParseTest(args)
	out := newOperationOutput(streams, opts.View)
	if opts.Help {
		printCommandHelp(streams.Stdout, "test")
		return 0
	}
	if ds.HasErrors() {
		out.diagnostics(ds)
		out.helpPrompt("test")
		return 1
	}
	view := &testView{out: out}
	suite, files, ds := prepareTestSuite(out, opts)
	if ds.HasErrors() {
		view.diagnostics(ds, nil, nil)
		return 1
	}
	suite.View = view
	view.suite = suite
	view.diagnostics(ds, nil, nil)
	view.Abstract(files)
	status, cancelled := runSuiteWithInterrupts(view, suite)
	if cancelled {
		return 1
	}
	view.Conclusion(files, status)
	if status != moduletest.Pass {
		return 1
	}
	return 0
}

// prepareTestSuite loads the configuration, the test files -filter
// selects, the global variable values and the installed providers.
func prepareTestSuite(out *operationOutput, opts *arguments.Test) (*moduletest.Suite, []*moduletest.File, diags.Diagnostics) {
	parser := config.NewParser()
	cfg, hd := modules.LoadConfig(parser, ".")
	out.addSources(parser.Files())
	ds := diags.Diagnostics{}.Append(hd)
	if cfg == nil || ds.HasErrors() {
		return nil, nil, ds
	}
	names, fds := moduletest.FindFiles(opts.TestDirectory)
	ds = ds.Append(fds)
	names, fds = filterTestFiles(names, opts.Filter)
	ds = ds.Append(fds)
	loader := moduletest.NewLoader()
	files := make([]*moduletest.File, 0, len(names))
	for _, name := range names {
		files = append(files, loader.Load(name))
	}
	out.addSources(loader.Sources())
	raw, vds := inputvars.CollectRawValues([]string{".", opts.TestDirectory}, opts.Vars, os.Environ())
	out.addSources(raw.Files)
	ds = ds.Append(vds)
	factories, _, pds := run.ProviderFactories(context.Background(), ".", cfg, os.Environ(), out.addSources)
	ds = ds.Append(pds)
	workspace, err := workdir.CurrentWorkspace(".")
	if err != nil {
		ds = ds.Append(run.CurrentWorkspaceError(err))
	}
	if ds.HasErrors() {
		return nil, nil, ds
	}
	globals := make(map[string]moduletest.GlobalValue, len(raw.ByName))
	for name, v := range raw.ByName {
		globals[name] = v
	}
	suite := &moduletest.Suite{Config: cfg, Files: files, Globals: globals, Providers: factories,
		Parallelism: opts.Parallelism, Verbose: opts.Verbose, Workspace: workspace, Logger: logging.Named("test")}
	return suite, files, ds
}

// filterTestFiles keeps the files -filter names (paths relative to the
// working directory), warning of names that are no test file.
func filterTestFiles(names, filter []string) ([]string, diags.Diagnostics) {
	if len(filter) == 0 {
		return names, nil
	}
	present := map[string]bool{}
	for _, name := range names {
		present[name] = true
	}
	var kept []string
	var ds diags.Diagnostics
	seen := map[string]bool{}
	for _, f := range filter {
		name := filepath.ToSlash(filepath.Clean(f))
		if !present[name] {
			ds = ds.Append(diags.Warnf("Unknown test file", "The specified test file, %s, could not be found.", f))
			continue
		}
		if !seen[name] {
			seen[name] = true
			kept = append(kept, name)
		}
	}
	if len(kept) == 0 {
		ds = ds.Append(diags.Warnf("No tests were found",
			"-filter is being used but no tests were found. Make sure you're using a relative path to the current working directory."))
	}
	return sortedStrings(kept), ds
}

func sortedStrings(in []string) []string {
	out := append([]string{}, in...)
	sort.Strings(out)
	return out
}

// runSuiteWithInterrupts runs the suite; the first interrupt lets the runs
// under way finish and skips the rest, still destroying what was created;
// the second cancels what is under way, destroys nothing, and after at
// most five seconds lists what was left behind; cancelled is then true.
func runSuiteWithInterrupts(view *testView, suite *moduletest.Suite) (status moduletest.Status, cancelled bool) {
	stop, stopRuns := context.WithCancel(context.Background())
	cancel, cancelAll := context.WithCancel(context.Background())
	defer stopRuns()
	defer cancelAll()
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	done := make(chan moduletest.Status, 1)
	go func() { done <- suite.Run(stop, cancel) }()
	for interrupts := 0; ; {
		select {
		case status = <-done:
			return status, cancel.Err() != nil
		case <-signals:
			interrupts++
			if interrupts == 1 {
				view.Interrupted()
				stopRuns()
				continue
			}
			view.FatalInterrupt()
			cancelAll()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
			}
			view.FatalInterruptSummary(suite.Unfinished(context.Background()))
			return moduletest.Error, true
		}
	}
}
