package command

import (
	"context"

	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

type initOptions struct {
	upgrade     bool
	input       bool
	noColor     bool
	initBackend bool
	getModules  bool
	lockfile    string
	pluginDirs  stringList
	// vars are -var and -var-file, for module sources and versions built
	// from variables, and for an encryption configuration that uses them
	// (init writes the workspace record through it).
	vars []arguments.VarOption
	// backendConfig are the -backend-config arguments, in order.
	backendConfig stringList
	migrateState  bool
	forceCopy     bool
	reconfigure   bool
}

// runInit implements `terrane init`: it installs the providers the
// configuration needs into .terrane/providers, records them in the
// dependency lock file and prepares the embedded state store.
func runInit(streams Streams, args []string) int {
	fs := newFlagSet("init", streams)
	var opts initOptions
	fs.BoolVar(&opts.upgrade, "upgrade", false, "Install the newest provider versions the constraints allow, ignoring the lock file's selections")
	fs.BoolVar(&opts.input, "input", true, "Ask for input; with -input=false a question init would ask is an error")
	fs.BoolVar(&opts.noColor, "no-color", false, "Disable colour in the output")
	fs.BoolVar(&opts.initBackend, "backend", true, "Prepare the state store")
	fs.Var(&opts.backendConfig, "backend-config", "KEY=VALUE or a file of arguments completing the backend \"terrane\" block (repeatable)")
	fs.BoolVar(&opts.migrateState, "migrate-state", false, "Copy the state from the store used so far into the newly configured one")
	fs.BoolVar(&opts.forceCopy, "force-copy", false, "Answer yes to every question about copying state (implies -migrate-state)")
	fs.BoolVar(&opts.reconfigure, "reconfigure", false, "Use the newly configured store as it is, copying no state into it")
	fs.BoolVar(&opts.getModules, "get", true, "Install the modules the configuration calls")
	fs.StringVar(&opts.lockfile, "lockfile", "", `Set to "readonly" to fail instead of changing the dependency lock file`)
	fs.Var(&opts.pluginDirs, "plugin-dir", "Install providers only from this directory (repeatable)")
	arguments.AddVarFlags(fs, &opts.vars)
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(streams.Stderr, "Error: init takes no positional arguments; to initialise another directory use terrane -chdir=%s init\n", fs.Arg(0))
		return 1
	}
	if opts.migrateState && opts.reconfigure {
		fmt.Fprintf(streams.Stderr, "Error: the -migrate-state and -reconfigure options are mutually exclusive\n")
		return 1
	}
	// Copying state only happens when migrating it, so -force-copy
	// implies -migrate-state, as in OpenTofu.
	opts.migrateState = opts.migrateState || opts.forceCopy
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	view := &initView{out: streams.Stdout, errOut: streams.Stderr, color: !opts.noColor && os.Getenv("NO_COLOR") == ""}
	in := &initializer{view: view, out: streams.Stdout, stdin: streams.Stdin, opts: opts, sources: ui.Sources{}}
	return in.run(ctx)
}

// initializer carries one run of init.
type initializer struct {
	view    *initView
	out     io.Writer
	stdin   io.Reader
	opts    initOptions
	sources ui.Sources

	cli      *cliconfig.Config
	oldLocks *depsfile.Locks
	newLocks *depsfile.Locks
}

// run does init's steps in OpenTofu's order — the backend, the modules,
// the providers — and prints their progress, then the warnings and the
// closing text, or the errors that stopped it.
func (in *initializer) run(ctx context.Context) int {
	if d := in.checkOptions(); d != nil {
		in.view.diagnostics(diags.Diagnostics{*d}, nil)
		return 1
	}
	if !hasConfigFiles(".") {
		in.view.emptyDirectory()
		return 0
	}
	parser := config.NewParser()
	parser.Static = staticInputs(".", in.opts.vars)
	root, rootDiags := parser.LoadModule(".")
	in.addSources(parser)
	if rootDiags.HasErrors() {
		in.view.configError()
		in.view.diagnostics(diags.Diagnostics(nil).Append(rootDiags), in.sources)
		return 1
	}
	var ds diags.Diagnostics
	if in.opts.initBackend {
		in.view.heading("Initializing the backend...", true)
		ds = ds.Append(in.initBackend(ctx, root))
		if ds.HasErrors() {
			return in.fail(ds)
		}
	}
	if in.opts.getModules && len(root.ModuleCalls) > 0 {
		moreDiags := in.installModules(ctx, parser)
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
		in.view.configError()
		return in.fail(ds.Append(hclDiags))
	}
	ds = ds.Append(hclDiags)
	ds = ds.Append(stateNotices(cfg.Module))
	ds = ds.Append(in.initProviders(ctx, cfg))
	if ds.HasErrors() {
		return in.fail(ds)
	}
	in.view.newline()
	in.view.diagnostics(ds, in.sources)
	in.view.success()
	return 0
}

// checkOptions refuses options that do not fit together.
func (in *initializer) checkOptions() *diags.Diagnostic {
	var d diags.Diagnostic
	switch {
	case in.opts.lockfile != "" && in.opts.lockfile != "readonly":
		d = diags.Errorf("Invalid -lockfile option", "The only valid value of -lockfile is \"readonly\", not %q.", in.opts.lockfile)
	case in.opts.lockfile == "readonly" && in.opts.upgrade:
		d = diags.Errorf("Conflicting options", "-upgrade changes the dependency lock file, which -lockfile=readonly forbids. Use one or the other.")
	default:
		return nil
	}
	return &d
}

func (in *initializer) fail(ds diags.Diagnostics) int {
	in.view.diagnostics(ds, in.sources)
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
func (in *initializer) installModules(ctx context.Context, parser *config.Parser) diags.Diagnostics {
	heading := "Initializing modules..."
	if in.opts.upgrade {
		heading = "Upgrading modules..."
	}
	in.view.heading(heading, false)
	installer := &modules.Installer{Parser: parser, Upgrade: in.opts.upgrade, Events: func(ev modules.Event) {
		writeModuleEvent(in.out, ev)
	}}
	_, ds := installer.Install(ctx, ".")
	return ds
}

// writeModuleEvent prints one module's installation as init and get do.
func writeModuleEvent(w io.Writer, ev modules.Event) {
	switch {
	case ev.Source == "":
	case ev.Version != "":
		fmt.Fprintf(w, "Downloading %s %s for %s...\n", ev.Source, ev.Version, ev.Key)
	default:
		fmt.Fprintf(w, "Downloading %s for %s...\n", ev.Source, ev.Key)
	}
	fmt.Fprintf(w, "- %s in %s\n", ev.Key, ev.Dir)
}

// hasConfigFiles reports whether dir holds any configuration file, so that
// init leaves an empty directory untouched.
func hasConfigFiles(dir string) bool {
	probe := config.NewParser()
	_, _ = probe.LoadModule(dir)
	return len(probe.Files()) > 0
}
