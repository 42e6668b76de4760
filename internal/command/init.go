package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/plugin/pulumi"
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
	in := &initializer{out: streams.Stdout, stdin: streams.Stdin, opts: opts, sources: ui.Sources{}}
	ds := in.run(ctx)
	color := !opts.noColor && os.Getenv("NO_COLOR") == ""
	var warnings, errs diags.Diagnostics
	for _, d := range ds {
		if d.Severity == diags.Error {
			errs = append(errs, d)
		} else {
			warnings = append(warnings, d)
		}
	}
	ui.WriteDiagnostics(streams.Stdout, warnings, in.sources, color)
	ui.WriteDiagnostics(streams.Stderr, errs, in.sources, color)
	if len(errs) > 0 {
		return 1
	}
	in.printSuccess()
	return 0
}

// initializer carries one run of init.
type initializer struct {
	out     io.Writer
	stdin   io.Reader
	opts    initOptions
	sources ui.Sources

	cli      *cliconfig.Config
	oldLocks *depsfile.Locks
	newLocks *depsfile.Locks
	// empty is set when the directory has no configuration.
	empty bool
}

func (in *initializer) run(ctx context.Context) diags.Diagnostics {
	var ds diags.Diagnostics
	switch {
	case in.opts.lockfile != "" && in.opts.lockfile != "readonly":
		return ds.Append(diags.Errorf("Invalid -lockfile option", "The only valid value of -lockfile is \"readonly\", not %q.", in.opts.lockfile))
	case in.opts.lockfile == "readonly" && in.opts.upgrade:
		return ds.Append(diags.Errorf("Conflicting options", "-upgrade changes the dependency lock file, which -lockfile=readonly forbids. Use one or the other."))
	}
	parser := config.NewParser()
	parser.Static = staticInputs(".", in.opts.vars)
	if in.opts.getModules && hasConfigFiles(".") {
		ds = ds.Append(in.installModules(ctx, parser))
		if ds.HasErrors() {
			for name, file := range parser.Files() {
				in.sources[name] = file
			}
			return ds
		}
	}
	cfg, hclDiags := modules.LoadConfig(parser, ".")
	for name, file := range parser.Files() {
		in.sources[name] = file
	}
	ds = ds.Append(hclDiags)
	if ds.HasErrors() {
		return ds
	}
	if len(parser.Files()) == 0 {
		// As Terraform does, an empty directory is left as it is.
		fmt.Fprintf(in.out, "Terrane initialized in an empty directory!\n\n"+
			"The directory has no configuration files. You may begin working\n"+
			"with Terrane immediately by creating configuration files.\n")
		in.empty = true
		return ds
	}
	ds = ds.Append(stateNotices(cfg))
	if in.opts.initBackend {
		ds = ds.Append(in.initBackend(ctx, cfg))
		if ds.HasErrors() {
			return ds
		}
	}
	return ds.Append(in.initProviders(ctx, cfg))
}

// stateNotices explains what happens to a backend or cloud block: Terrane
// keeps state in its own store, so the state they point at stays where it
// is until the user brings it in.
func stateNotices(cfg *config.Config) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, block := range []*config.Backend{cfg.Module.Backend, cfg.Module.CloudConfig} {
		if block == nil || block == cfg.Module.Backend && takesStateFrom(block.Type) {
			continue
		}
		what := fmt.Sprintf("the %q backend", block.Type)
		if block == cfg.Module.CloudConfig {
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

// initProviders installs every required provider and updates the lock
// file.
func (in *initializer) initProviders(ctx context.Context, cfg *config.Config) diags.Diagnostics {
	fmt.Fprintf(in.out, "\nInitializing provider plugins...\n")
	requirements, ds := workdir.ProviderRequirements(cfg)
	var more diags.Diagnostics
	in.cli, more = cliconfig.Load(cliconfig.Environment{WorkingDir: "."})
	ds = ds.Append(more)
	in.oldLocks, more = depsfile.LoadFile(workdir.LockFilePath("."))
	for name, file := range in.oldLocks.Sources() {
		in.sources[name] = file
	}
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	installer := in.installer()
	overrides := discovery.DevOverrides(in.cli.ProviderInstallation.DevOverrides)
	reattached, more := plugin.ParseReattachProviders(os.Getenv(plugin.EnvReattachProviders))
	ds = ds.Append(more)
	subpackages, more := workdir.Subpackages(cfg)
	ds = ds.Append(more)
	in.newLocks = depsfile.NewLocks()
	for _, provider := range workdir.SortedProviders(requirements) {
		_, overridden := overrides[provider]
		_, attached := reattached[provider]
		if overridden || attached {
			continue // used from where it is; never installed or locked
		}
		if err := ctx.Err(); err != nil {
			return ds.Append(diags.Errorf("Init interrupted", "Init stopped before installing %s. Run it again.", provider.ForDisplay()))
		}
		if sub, ok := subpackages[provider]; ok {
			lock, more := in.ensureSubpackage(ctx, installer, provider, sub, requirements[provider])
			ds = ds.Append(more.WithAddress(provider.String()))
			if lock != nil {
				in.newLocks.SetProviderLock(lock)
			}
			continue
		}
		lock, diag := in.ensureProvider(ctx, installer, provider, requirements[provider], in.oldLocks.Provider(provider))
		if diag != nil {
			diag.Address = provider.String()
			ds = append(ds, *diag)
			continue
		}
		in.newLocks.SetProvider(provider, lock.Version(), requirements[provider], lock.Hashes())
	}
	if warning := overrides.Warning(); warning != nil {
		ds = append(ds, *warning)
	}
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(in.writeLocks())
}

// installer builds the provider installer: the CLI configuration's
// installation methods, or only the -plugin-dir directories when given.
func (in *initializer) installer() *discovery.ProviderInstaller {
	installer := &discovery.ProviderInstaller{
		TargetDir:                workdir.ProvidersDir("."),
		CacheDir:                 in.cli.PluginCacheDir,
		CacheWithoutLockedHashes: in.cli.PluginCacheMayBreakDependencyLockFile,
	}
	if len(in.opts.pluginDirs) > 0 {
		// As in Terraform, -plugin-dir replaces every other source and
		// the cache, so init installs exactly what those directories hold.
		var source discovery.MultiSource
		for _, dir := range in.opts.pluginDirs {
			source = append(source, discovery.MultiSourceEntry{Source: discovery.NewFilesystemMirror(dir)})
		}
		installer.Source, installer.CacheDir = source, ""
		return installer
	}
	installer.Network = &discovery.Network{Credentials: discovery.NewCredentials(in.cli.Credentials, os.Environ())}
	installer.Source = discovery.SourceForInstallationOnline(in.cli.ProviderInstallation, installer.Network)
	return installer
}

// ensureProvider selects the version of one provider package, installs
// it unless it is installed already, and returns its lock. old is the
// package's previous lock, if any.
func (in *initializer) ensureProvider(ctx context.Context, installer *discovery.ProviderInstaller, provider addrs.Provider, constraints discovery.Constraints, old *depsfile.ProviderLock) (*depsfile.ProviderLock, *diags.Diagnostic) {
	name := addrs.ProviderForDisplay(provider)
	var version versions.Version
	var acceptable []discovery.Hash
	if old != nil && !in.opts.upgrade {
		if !versions.MeetingConstraints(constraints).Has(old.Version()) {
			diag := diags.Errorf("Locked provider version does not meet the constraints",
				"%s selects %s v%s, but the configuration now requires %q. Run terrane init -upgrade to select a version that meets the constraints.",
				depsfile.FileName, name, old.Version(), depsfile.ConstraintsString(constraints))
			return nil, &diag
		}
		fmt.Fprintf(in.out, "- Reusing previous version of %s from the dependency lock file\n", name)
		version, acceptable = old.Version(), old.Hashes()
		if in.installedMatches(old) {
			fmt.Fprintf(in.out, "- Using previously-installed %s v%s\n", name, version)
			return old, nil
		}
	} else {
		var diag *diags.Diagnostic
		if version, diag = in.selectVersion(ctx, installer.Source, provider, constraints); diag != nil {
			return nil, diag
		}
		if old != nil && old.Version().Same(version) {
			acceptable = old.Hashes()
		}
	}
	fmt.Fprintf(in.out, "- Installing %s v%s...\n", name, version)
	installed, err := installer.Install(ctx, provider, version, acceptable)
	if err != nil {
		return nil, installDiagnostic(name, version, err)
	}
	if installed.FromCache {
		fmt.Fprintf(in.out, "- Using %s v%s from the shared cache directory\n", name, version)
	} else {
		fmt.Fprintf(in.out, "- Installed %s v%s (%s)\n", name, version, authentication(installed.Authentication))
	}
	// A package from a registry brings the zh: hashes its signed checksums
	// list; one from a mirror only its h1: hash, as Terraform records it.
	return depsfile.NewProviderLock(provider, version, constraints, installed.Hashes), nil
}

// ensureSubpackage installs a sub-package's base package and returns the
// sub-package's lock: the base's version and hashes under the
// sub-package's address, with its parameterization. A parameterization
// recorded for the same base and parameters is kept, as versions are,
// unless -upgrade; otherwise the base is launched with the parameters and
// what it answers is recorded.
func (in *initializer) ensureSubpackage(ctx context.Context, installer *discovery.ProviderInstaller, provider addrs.Provider, sub workdir.Subpackage, constraints discovery.Constraints) (*depsfile.ProviderLock, diags.Diagnostics) {
	old := in.oldLocks.Provider(provider)
	var oldBase *depsfile.ProviderLock
	if old != nil && !in.opts.upgrade {
		if problem := workdir.SubpackageLockProblem(sub, old); problem != "" {
			diag := diags.Errorf("Sub-package parameters changed",
				"%s. Run terrane init -upgrade to make the sub-package again and record it.", problem)
			diag.Subject = sub.DeclRange.Ptr()
			return nil, diags.Diagnostics{diag}
		}
		oldBase = depsfile.NewProviderLock(sub.Base, old.Version(), old.Constraints(), old.Hashes())
	}
	baseLock, diag := in.ensureProvider(ctx, installer, sub.Base, constraints, oldBase)
	if diag != nil {
		return nil, diags.Diagnostics{*diag}
	}
	lock := depsfile.NewProviderLock(provider, baseLock.Version(), constraints, baseLock.Hashes())
	if oldBase != nil && oldBase.Version().Same(baseLock.Version()) {
		recorded := old.Parameterization()
		fmt.Fprintf(in.out, "- Reusing sub-package %s v%s from the dependency lock file\n", recorded.Name, recorded.Version)
		return lock.WithParameterization(recorded), nil
	}
	record, ds := in.parameterize(ctx, provider, sub, baseLock)
	if record == nil {
		return nil, ds
	}
	return lock.WithParameterization(record), ds
}

// parameterize launches the installed base package with the
// requirement's parameters and returns what to record.
func (in *initializer) parameterize(ctx context.Context, provider addrs.Provider, sub workdir.Subpackage, baseLock *depsfile.ProviderLock) (*depsfile.Parameterization, diags.Diagnostics) {
	var ds diags.Diagnostics
	executable, diag := workdir.VerifyInstalled(".", baseLock)
	if diag != nil {
		return nil, ds.Append(*diag)
	}
	fmt.Fprintf(in.out, "- Making sub-package %s of %s with parameters %q...\n", provider.Type, addrs.ProviderForDisplay(sub.Base), sub.Args)
	p, err := workdir.LaunchSubpackage(ctx, provider, sub.Base, executable, &pulumi.Parameters{Args: sub.Args})
	if err != nil {
		return nil, ds.Append(err)
	}
	defer p.Close()
	value, err := p.Parameterization(ctx)
	if err != nil {
		return nil, ds.Append(err)
	}
	if value.Name != provider.Type {
		diag := diags.Errorf("Sub-package name does not match its local name",
			"%s made the sub-package %q from the parameters %q, but the requirement's local name is %q. A sub-package is required under its own name, since its resource types start with it: rename the requirement to %q.",
			addrs.ProviderForDisplay(sub.Base), value.Name, sub.Args, provider.Type, value.Name)
		diag.Subject = sub.DeclRange.Ptr()
		return nil, ds.Append(diag)
	}
	fmt.Fprintf(in.out, "- Recorded sub-package %s v%s\n", value.Name, value.Version)
	return &depsfile.Parameterization{Base: sub.Base, Args: sub.Args, Name: value.Name, Version: value.Version, Value: value.Value}, ds
}

// selectVersion prints what init looks for and picks the newest version
// that meets the constraints.
func (in *initializer) selectVersion(ctx context.Context, source discovery.Source, provider addrs.Provider, constraints discovery.Constraints) (versions.Version, *diags.Diagnostic) {
	name := addrs.ProviderForDisplay(provider)
	if len(constraints) == 0 {
		fmt.Fprintf(in.out, "- Finding latest version of %s...\n", name)
	} else {
		fmt.Fprintf(in.out, "- Finding %s versions matching %q...\n", name, depsfile.ConstraintsString(constraints))
	}
	available, _, err := source.AvailableVersions(ctx, provider)
	if err != nil {
		return versions.Unspecified, lookupDiagnostic(name, err)
	}
	version, err := discovery.SelectVersion(available, constraints)
	if err != nil {
		diag := diags.Errorf("No provider version matches the constraints",
			"For %s, %s. Change the version constraint in required_providers, or make a matching version available.", name, err)
		return versions.Unspecified, &diag
	}
	return version, nil
}

// installedMatches reports whether the locked version is installed and
// matches the lock, so init has nothing to do for it.
func (in *initializer) installedMatches(lock *depsfile.ProviderLock) bool {
	if len(lock.Hashes()) == 0 {
		return false
	}
	_, diag := workdir.VerifyInstalled(".", lock)
	return diag == nil
}

func authentication(how string) string {
	if strings.HasPrefix(how, "signed") {
		return how
	}
	return "unauthenticated"
}

// writeLocks writes the lock file when it changed, or refuses to under
// -lockfile=readonly.
func (in *initializer) writeLocks() diags.Diagnostics {
	if in.newLocks.Equal(in.oldLocks) {
		return nil
	}
	path := workdir.LockFilePath(".")
	if in.opts.lockfile == "readonly" {
		return diags.Diagnostics{diags.Errorf("Provider dependency changes detected",
			"The providers selected differ from those %s records, and -lockfile=readonly forbids changing it. "+
				"Run terrane init without -lockfile=readonly to record the new selections.", depsfile.FileName)}
	}
	_, statErr := os.Stat(path)
	if err := in.newLocks.WriteFile(path); err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot write the dependency lock file", "%s. Check that the configuration directory can be written to.", capitalizeFirst(err.Error()))}
	}
	if errors.Is(statErr, os.ErrNotExist) {
		fmt.Fprintf(in.out, "\nTerrane has created a lock file %s to record the provider\n"+
			"selections it made above. Include this file in your version control repository\n"+
			"so that Terrane can guarantee to make the same selections by default when\n"+
			"you run \"terrane init\" in the future.\n", depsfile.FileName)
	} else {
		fmt.Fprintf(in.out, "\nTerrane has made some changes to the provider dependency selections recorded\n"+
			"in the %s file. Review those changes and commit them to your\n"+
			"version control system if they represent changes you intended to make.\n", depsfile.FileName)
	}
	return nil
}

func (in *initializer) printSuccess() {
	if in.empty {
		return
	}
	fmt.Fprintf(in.out, "\nTerrane has been successfully initialized!\n\n"+
		"You may now begin working with Terrane. Try running \"terrane plan\" to see\n"+
		"any changes that are required for your infrastructure. All Terrane commands\n"+
		"should now work.\n\n"+
		"If you ever set or change modules or provider requirements for Terrane,\n"+
		"rerun this command to reinitialize your working directory. If you forget, other\n"+
		"commands will detect it and remind you to do so if necessary.\n")
}

// lookupDiagnostic explains a failure to find a provider's versions.
func lookupDiagnostic(name string, err error) *diags.Diagnostic {
	var notFound *discovery.ErrProviderNotFound
	if errors.As(err, &notFound) {
		var detail strings.Builder
		fmt.Fprintf(&detail, "Terrane could not find %s. It looked in:", name)
		for _, place := range notFound.LookedIn {
			fmt.Fprintf(&detail, "\n - %s", place)
		}
		for _, note := range notFound.Notes {
			fmt.Fprintf(&detail, "\n\nNote: %s.", note)
		}
		detail.WriteString("\n\nCheck the provider's source address in required_providers, or make the provider available in one of these places.")
		diag := diags.Errorf("Failed to query available provider packages", "%s", detail.String())
		return &diag
	}
	var unreachable *discovery.ErrUnreachable
	if errors.As(err, &unreachable) {
		diag := diags.Errorf("Provider registry unreachable",
			"Looking up the versions of %s failed: %s.\n\n"+
				"To work without network access, make the provider available offline: a filesystem_mirror "+
				"(`terrane providers mirror DIR` on a connected machine writes one), a network_mirror inside your "+
				"network, or plugin_cache_dir, in the provider_installation block of the CLI configuration "+
				"(TERRANE_CLI_CONFIG_FILE, TF_CLI_CONFIG_FILE or ~/.terraformrc); or pass -plugin-dir=DIR.", name, err)
		return &diag
	}
	diag := diags.Errorf("Failed to query available provider packages", "Looking up the versions of %s failed: %s.", name, err)
	return &diag
}

// installDiagnostic explains a failure to install a selected version.
func installDiagnostic(name string, version versions.Version, err error) *diags.Diagnostic {
	var mismatch *discovery.ErrChecksumMismatch
	if errors.As(err, &mismatch) {
		diag := diags.Errorf("Provider package does not match the dependency lock file",
			"Installing %s v%s failed: %s.\n\n"+
				"The package may have been changed, or be a different build of that version. If you trust it, remove the provider's block from %s and run terrane init again to record its checksum; otherwise install the provider from a trusted source.",
			name, version, err, depsfile.FileName)
		return &diag
	}
	diag := diags.Errorf("Failed to install provider", "Installing %s v%s failed: %s.", name, version, err)
	return &diag
}

func capitalizeFirst(text string) string {
	if text == "" {
		return text
	}
	return strings.ToUpper(text[:1]) + text[1:]
}

// installModules installs every module the configuration calls into
// .terrane/modules, reusing unchanged ones unless -upgrade, and prints
// Terraform's progress lines.
func (in *initializer) installModules(ctx context.Context, parser *config.Parser) diags.Diagnostics {
	announced := false
	installer := &modules.Installer{Parser: parser, Upgrade: in.opts.upgrade, Events: func(ev modules.Event) {
		if !announced {
			fmt.Fprintf(in.out, "Initializing modules...\n")
			announced = true
		}
		writeModuleEvent(in.out, ev)
	}}
	_, ds := installer.Install(ctx, ".")
	if announced {
		fmt.Fprintln(in.out)
	}
	return ds
}

// writeModuleEvent prints one module's installation as init and get do.
func writeModuleEvent(w io.Writer, ev modules.Event) {
	switch {
	case ev.Reused:
		fmt.Fprintf(w, "- %s in .terrane/modules/%s\n", ev.Key, ev.Key)
	case ev.Version != "":
		fmt.Fprintf(w, "Downloading %s %s for %s...\n- %s in .terrane/modules/%s\n", ev.Source, ev.Version, ev.Key, ev.Key, ev.Key)
	default:
		fmt.Fprintf(w, "Downloading %s for %s...\n- %s in .terrane/modules/%s\n", ev.Source, ev.Key, ev.Key, ev.Key)
	}
}

// hasConfigFiles reports whether dir holds any configuration file, so that
// init leaves an empty directory untouched.
func hasConfigFiles(dir string) bool {
	probe := config.NewParser()
	_, _ = probe.LoadModule(dir)
	return len(probe.Files()) > 0
}
