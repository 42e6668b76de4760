package command

import (
	"context"
	"os"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/ui"
)

// runGet is `terrane get [-update]`: it installs the modules the
// configuration calls, as init does but without touching providers or the
// state, like `tofu get`. Installed modules are kept unless -update asks
// for the newest versions their constraints allow.
func runGet(streams views.Streams, args []string) int {
	output, args := arguments.ExtractOutputView(args)
	opts, ds := arguments.ParseGet(args)
	view := views.NewInit(streams, output, opts.JSON)
	if opts.Help {
		printCommandHelp(streams.Stdout, "get")
		return 0
	}
	if opts.JSONInto != "" && !ds.HasErrors() {
		file, err := os.OpenFile(opts.JSONInto, os.O_TRUNC|os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			ds = ds.Append(diags.Errorf("Invalid argument", "Unable to open the file %q specified by -json-into for writing: %s", opts.JSONInto, err))
		} else {
			defer file.Close()
			view.AlsoJSON(file)
		}
	}
	view.Start()
	if ds.HasErrors() {
		view.Diagnostics(ds, nil)
		if !opts.JSON {
			printCommandHelp(streams.Stdout, "get")
		}
		return 1
	}
	parser := config.NewParser()
	parser.Static = run.StaticInputs(".", opts.Vars, os.Environ())
	// The modules of test files' run blocks are installed too, as OpenTofu
	// installs them.
	testFiles, testSources, testDiags := loadTestFiles(opts.TestDirectory)
	installer := &modules.Installer{Parser: parser, Upgrade: opts.Update, Events: view.ModuleInstalled, TestCalls: testModuleCalls(testFiles)}
	_, ds = installer.Install(context.Background(), ".")
	ds = testDiags.Append(ds)
	sources := ui.Sources(parser.Files())
	for name, file := range testSources {
		sources[name] = file
	}
	view.Diagnostics(ds, sources)
	if ds.HasErrors() {
		return 1
	}
	return 0
}
