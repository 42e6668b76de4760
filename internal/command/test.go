package command

import (
	"bytes"
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/logging"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/moduletest"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/version"
	"github.com/terrane/terrane/internal/workdir"
)

// runTest is `terrane test`: it runs the test files of OpenTofu's testing
// framework against the configuration in the working directory, each
// file's runs against throwaway in-memory state, and destroys what each
// file created once it is done. It exits 0 when every run passed.
func runTest(streams views.Streams, args []string) int {
	opts, ds := arguments.ParseTest(args)
	if opts.Help {
		printCommandHelp(streams.Stdout, "test")
		return 0
	}
	if ds.HasErrors() {
		// The command line's errors are told in words, -json or not, as
		// OpenTofu tells them.
		human := opts.View
		human.JSON = false
		out := views.NewOperation(streams, human)
		out.Diagnostics(ds)
		out.HelpPrompt("test")
		return 1
	}
	out := views.NewOperation(streams, opts.View)
	view := views.NewTest(out, writeErroredTestState)
	if opts.JSONInto != "" {
		file, err := os.OpenFile(opts.JSONInto, os.O_TRUNC|os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			view.Diagnostics(diags.Diagnostics{diags.Errorf("Invalid argument",
				"Unable to open the file %q specified by -json-into for writing: %s", opts.JSONInto, err)}, nil, nil)
			out.HelpPrompt("test")
			return 1
		}
		defer file.Close()
		view.JSONInto(file)
	}
	suite, files, ds := prepareTestSuite(out, opts)
	if ds.HasErrors() {
		view.Diagnostics(ds, nil, nil)
		return 1
	}
	suite.View = view
	view.SetSuite(suite)
	view.Diagnostics(ds, nil, nil)
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

// prepareTestSuite loads the configuration with its test files and their
// run blocks' modules, as OpenTofu loads them before running anything,
// then keeps the files -filter selects, and gathers the global variable
// values and the installed providers.
func prepareTestSuite(out *views.Operation, opts *arguments.Test) (*moduletest.Suite, []*moduletest.File, diags.Diagnostics) {
	raw, ds := inputvars.CollectRawValues(".", opts.TestDirectory, opts.Vars, os.Environ())
	// The text of -var options and TF_VAR_ variables is not shown in
	// diagnostics, as OpenTofu's test command does not show it; the
	// files' is.
	for name, file := range raw.Files {
		if !strings.HasPrefix(name, "<") {
			out.AddSources(map[string]*hcl.File{name: file})
		}
	}
	if ds.HasErrors() {
		return nil, nil, ds
	}
	parser := config.NewParser()
	cfg, hd := modules.LoadConfig(parser, ".")
	ds = ds.Append(hd)
	all, sources, fds := loadTestFiles(opts.TestDirectory)
	out.AddSources(sources)
	ds = ds.Append(fds)
	testModules, mds := loadTestModules(parser, all)
	ds = ds.Append(mds)
	out.AddSources(parser.Files())
	if cfg == nil || ds.HasErrors() {
		return nil, nil, ds
	}
	files, fds := filterTestFiles(all, opts.Filter)
	ds = ds.Append(fds)
	factories, pds := testProviderFactories(out)
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
	suite := &moduletest.Suite{Config: cfg, Files: files, Globals: globals, Providers: factories, Modules: testModules,
		Parallelism: opts.Parallelism, Verbose: opts.Verbose, Workspace: workspace, Logger: logging.Named("test")}
	return suite, files, ds
}

// testProviderFactories are the factories of the providers the lock file
// selects. As in OpenTofu, the lock file is not checked against the
// configuration first: a run that needs a provider init did not install
// fails by itself.
func testProviderFactories(out *views.Operation) (map[addrs.Provider]providers.Factory, diags.Diagnostics) {
	cli, ds := cliconfig.Load(cliconfig.Environment{WorkingDir: "."})
	if ds.HasErrors() {
		return nil, ds
	}
	locks, lds := depsfile.LoadFile(workdir.LockFilePath("."))
	out.AddSources(locks.Sources())
	if ds = ds.Append(lds); ds.HasErrors() {
		return nil, ds
	}
	// Without a schema cache every run asks each provider for its schema,
	// which is slower but correct, so a broken cache directory is no error.
	schemas, _ := plugin.DefaultSchemaStore()
	factories, fds := workdir.ProviderFactories(context.Background(), ".", locks, cli, schemas)
	return factories, ds.Append(fds)
}

// writeErroredTestState writes what a clean-up left behind to
// errored_test.tfstate, as OpenTofu does, for the user to clean up.
func writeErroredTestState(state *states.State) error {
	var buf bytes.Buffer
	err := statefile.Write(&statefile.File{State: state, TerraformVersion: version.OpenTofuVersion, Lineage: "terrane-test"}, &buf)
	if err != nil {
		return err
	}
	return os.WriteFile(views.ErroredTestStateFile, buf.Bytes(), 0o600)
}

// filterTestFiles keeps the files -filter names (paths relative to the
// working directory), in name order. As in OpenTofu, a name that is no
// test file is passed over without a word, unless no file is left.
func filterTestFiles(files []*moduletest.File, filter []string) ([]*moduletest.File, diags.Diagnostics) {
	if len(filter) == 0 {
		return files, nil
	}
	wanted := map[string]bool{}
	for _, f := range filter {
		wanted[f] = true
	}
	var kept []*moduletest.File
	for _, f := range files {
		if wanted[f.Name] {
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 {
		return nil, diags.Diagnostics{diags.Warnf("No tests were found",
			"-filter is being used but no tests were found. Make sure you're using a relative path to the current working directory.")}
	}
	return kept, nil
}

// runSuiteWithInterrupts runs the suite; the first interrupt lets the runs
// under way finish and skips the rest, still destroying what was created;
// the second cancels what is under way, destroys nothing, and after at
// most five seconds lists what was left behind; cancelled is then true.
func runSuiteWithInterrupts(view *views.Test, suite *moduletest.Suite) (status moduletest.Status, cancelled bool) {
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
