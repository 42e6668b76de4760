package command

import (
	"context"

	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

// runInit implements `terrane init`: it installs the modules and
// providers the configuration needs, records the providers in the
// dependency lock file and prepares the state store.
func runInit(streams views.Streams, args []string) int {
	output, args := arguments.ExtractOutputView(args)
	opts, ds := arguments.ParseInit(args)
	view := views.NewInit(streams, output, opts.JSON)
	if opts.Help {
		printCommandHelp(streams.Stdout, "init")
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
			printCommandHelp(streams.Stdout, "init")
		}
		return 1
	}
	if opts.FromModule != "" {
		view.Diagnostics(diags.Diagnostics{diags.Errorf("Unsupported option",
			"Terrane does not support init -from-module yet. Copy the module's files into the directory and run terrane init.")}, nil)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	in := &initializer{view: view, stdin: streams.Stdin, stdout: streams.Stdout, opts: opts, sources: ui.Sources{}}
	return in.run(ctx)
}

// initializer carries one run of init.
type initializer struct {
	view    *views.Init
	stdin   io.Reader
	stdout  io.Writer
	opts    *arguments.Init
	sources ui.Sources

	// aborted is set when init stopped with a message that is no
	// diagnostic.
	aborted bool
	// stateProviders are the providers of the objects in the workspace's
	// state, which init installs although the configuration may not use
	// them any more.
	stateProviders []addrs.Provider

	cli      *cliconfig.Config
	oldLocks *depsfile.Locks
	newLocks *depsfile.Locks
}

// run does init's steps in OpenTofu's order — the backend, the modules,
// the providers — and prints their progress, then the warnings and the
// closing text, or the errors that stopped it.
func (in *initializer) run(ctx context.Context) int {
	if !hasConfigFiles(".") {
		in.view.EmptyDirectory()
		return 0
	}
	parser := config.NewParser()
	parser.Static = run.StaticInputs(".", in.opts.Vars, os.Environ())
	root, rootDiags := parser.LoadModule(".")
	if root != nil && !rootDiags.HasErrors() {
		// Reading the root module works out what is static in it, as
		// OpenTofu's does: errors there are configuration errors.
		rootDiags = append(rootDiags, parser.StaticRoot(root, ".").EvaluateStatic()...)
	}
	in.addSources(parser)
	// Test files are read with the root module, as OpenTofu reads them:
	// their run blocks' modules are installed too, and a file that cannot
	// be decoded is an error of the configuration.
	testFiles, testSources, testDiags := loadTestFiles(in.opts.TestDirectory)
	for name, file := range testSources {
		in.sources[name] = file
	}
	if rootDiags.HasErrors() || testDiags.HasErrors() {
		in.view.ConfigError()
		in.view.Diagnostics(diags.Diagnostics(nil).Append(rootDiags).Append(testDiags), in.sources)
		return 1
	}
	// The root module's warnings are reported with the whole tree's below,
	// which hold them again, as OpenTofu reports both loads.
	ds := diags.Diagnostics(nil).Append(rootDiags).Append(testDiags)
	testCalls := testModuleCalls(testFiles)
	if in.opts.Backend {
		in.view.Heading("Initializing the backend...", true)
		ds = ds.Append(in.initBackend(ctx, root))
		if ds.HasErrors() {
			return in.fail(ds)
		}
	}
	installing := in.opts.Get && (len(root.ModuleCalls) > 0 || len(testCalls) > 0)
	if installing {
		moreDiags := in.installModules(ctx, parser, testCalls)
		in.addSources(parser)
		if moreDiags.HasErrors() {
			return in.fail(ds.Append(moreDiags))
		}
	}
	// The whole tree is read again now that every module is in place; its
	// diagnostics include the root module's and the installed modules'.
	cfg, hclDiags := modules.LoadConfig(parser, ".")
	in.addSources(parser)
	if hclDiags.HasErrors() {
		// OpenTofu finds what is wrong with the tree while it installs the
		// modules, and then says nothing of the configuration as a whole.
		if !installing {
			in.view.ConfigError()
		}
		return in.fail(ds.Append(hclDiags))
	}
	// The test files are read with the tree each time, and their warnings
	// come with its own.
	ds = ds.Append(hclDiags).Append(testDiags)
	if installing {
		// OpenTofu reads the tree twice when it installs modules, and each
		// time warns of what it finds: its warnings come twice, and are
		// shown once with a count of the others.
		ds = ds.Append(hclDiags).Append(testDiags)
	}
	testModules, moreDiags := loadTestModules(parser, testFiles)
	in.addSources(parser)
	if moreDiags.HasErrors() {
		if !installing {
			in.view.ConfigError()
		}
		return in.fail(ds.Append(moreDiags))
	}
	ds = ds.Append(stateNotices(cfg.Module))
	// The test files' provider blocks and their run blocks' modules need
	// providers too.
	extra := []*config.Config{testProviderBlocks(cfg.Module, testFiles)}
	for _, source := range sortedKeys(testModules) {
		extra = append(extra, testModules[source])
	}
	ds = ds.Append(in.initProviders(ctx, cfg, extra))
	if ds.HasErrors() || in.aborted {
		return in.fail(ds)
	}
	in.view.Newline()
	in.view.Diagnostics(ds, in.sources)
	in.view.Success()
	return 0
}

func (in *initializer) fail(ds diags.Diagnostics) int {
	in.view.Diagnostics(ds, in.sources)
	return 1
}

func (in *initializer) addSources(parser *config.Parser) {
	for name, file := range parser.Files() {
		in.sources[name] = file
	}
}

// stateNotices explains what happens to a backend or cloud block: Terrane
// keeps state in its own store, so the state they point at stays where it
// is until the user brings it in.
func stateNotices(root *config.Module) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, block := range []*config.Backend{root.Backend, root.CloudConfig} {
		if block == nil || block == root.Backend && takesStateFrom(block.Type) {
			continue
		}
		what := fmt.Sprintf("the %q backend", block.Type)
		if block == root.CloudConfig {
			what = "HCP Terraform (the cloud block)"
		}
		diag := diags.Warnf("State is kept in Terrane's store, not in "+what,
			"Terrane keeps state as records in its own store (%s, unless a backend \"terrane\" block names a shared one), so this block is not used and no state is read from or written to %s.\n\n"+
				"To bring the state kept there into Terrane, save it with the tool that wrote it and push it:\n"+
				"  terraform state pull > terraform.tfstate\n"+
				"  terrane state push terraform.tfstate",
			filepath.Join(workdir.DirName, "state.db"), what)
		diag.Subject = block.DeclRange.Ptr()
		ds = append(ds, diag)
	}
	return ds
}

// installModules installs every module the configuration calls into
// .terrane/modules, reusing unchanged ones unless -upgrade, and prints
// OpenTofu's progress lines.
func (in *initializer) installModules(ctx context.Context, parser *config.Parser, testCalls []modules.TestCall) diags.Diagnostics {
	heading := "Initializing modules..."
	if in.opts.Upgrade {
		heading = "Upgrading modules..."
	}
	in.view.Heading(heading, false)
	installer := &modules.Installer{Parser: parser, Upgrade: in.opts.Upgrade, TestCalls: testCalls, Events: func(ev modules.Event) {
		in.view.ModuleInstalled(ev)
	}}
	_, ds := installer.Install(ctx, ".")
	return ds
}

// hasConfigFiles reports whether dir holds any configuration file, so that
// init leaves an empty directory untouched.
func hasConfigFiles(dir string) bool {
	probe := config.NewParser()
	_, _ = probe.LoadModule(dir)
	return len(probe.Files()) > 0
}
