package command

import (
	"os"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

// providerJob is what providers lock and providers mirror share: the
// configuration's provider requirements, the platforms, the current lock
// file and how they report.
type providerJob struct {
	view    *views.Init
	streams views.Streams
	// requirements are every provider the configuration needs, built-in
	// ones included, as OpenTofu's ProviderRequirements gives them.
	requirements map[addrs.Provider]discovery.Constraints
	// subpackages are the required Pulumi sub-packages, served by their
	// base packages.
	subpackages map[addrs.Provider]workdir.Subpackage
	locks       *depsfile.Locks
	platforms   []discovery.Platform
	network     *discovery.Network
	cli         *cliconfig.Config
	sources     ui.Sources
}

// newProviderJob sets up the command's view from its view options: human
// output on the streams, JSON messages instead under -json, and both with
// -json-into. The returned function closes a -json-into file.
func newProviderJob(streams views.Streams, output arguments.OutputView, opts arguments.ProviderJob) (*providerJob, func(), diags.Diagnostics) {
	view := views.NewInit(streams, output, opts.JSON)
	job := &providerJob{view: view, streams: streams, sources: ui.Sources{}}
	closer := func() {}
	var ds diags.Diagnostics
	if opts.JSONInto != "" && !opts.JSON {
		file, err := os.OpenFile(opts.JSONInto, os.O_TRUNC|os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			ds = ds.Append(diags.Errorf("Invalid argument", "Unable to open the file %q specified by -json-into for writing: %s", opts.JSONInto, err))
		} else {
			closer = func() { file.Close() }
			view.AlsoJSON(file)
		}
	}
	view.Start()
	return job, closer, ds
}

// usageError reports wrong options as OpenTofu does: the diagnostics, then
// the command's help unless the output is JSON.
func (job *providerJob) usageError(name string, ds diags.Diagnostics) int {
	job.view.Diagnostics(ds, nil)
	if job.view.Human() {
		printCommandHelp(job.streams.Stdout, name)
	}
	return 1
}

// parsePlatforms reads the -platform options; none means this machine's.
func (job *providerJob) parsePlatforms(raw []string) diags.Diagnostics {
	var ds diags.Diagnostics
	if len(raw) == 0 {
		job.platforms = []discovery.Platform{discovery.CurrentPlatform()}
		return nil
	}
	for _, text := range raw {
		platform, err := discovery.ParsePlatformOption(text)
		if err != nil {
			ds = ds.Append(diags.Errorf("Invalid target platform",
				"The string %q given in the -platform option is not a valid target platform: %s.", text, err))
			continue
		}
		job.platforms = append(job.platforms, platform)
	}
	return ds
}

// load reads the configuration (with installed modules), its provider
// requirements, the CLI configuration and the lock file.
func (job *providerJob) load(vars []inputvars.VarOption) diags.Diagnostics {
	parser := config.NewParser()
	parser.Static = run.StaticInputs(".", vars, os.Environ())
	cfg, hclDiags := modules.LoadConfig(parser, ".")
	for name, file := range parser.Files() {
		job.sources[name] = file
	}
	var ds diags.Diagnostics
	if ds = ds.Append(hclDiags); ds.HasErrors() || cfg == nil {
		return ds
	}
	var more diags.Diagnostics
	job.requirements, more = workdir.AllProviderRequirements(cfg)
	ds = ds.Append(more)
	job.subpackages, more = workdir.Subpackages(cfg)
	ds = ds.Append(more)
	job.cli, more = cliconfig.Load(cliconfig.Environment{WorkingDir: "."})
	ds = ds.Append(more)
	job.locks, more = depsfile.LoadFile(workdir.LockFilePath("."))
	for name, file := range job.locks.Sources() {
		job.sources[name] = file
	}
	ds = ds.Append(more)
	if job.cli != nil {
		job.network = &discovery.Network{Credentials: discovery.NewCredentials(job.cli.Credentials, os.Environ())}
	}
	return ds
}

// packageOf is the package that serves provider: a sub-package's base
// package, else the provider itself.
func (job *providerJob) packageOf(provider addrs.Provider) addrs.Provider {
	if sub, ok := job.subpackages[provider]; ok {
		return sub.Base
	}
	return provider
}

// devOverridden reports a provider under a development override in the
// CLI configuration, which is used from where it is and never locked or
// mirrored, with a warning naming it.
func (job *providerJob) devOverridden(provider addrs.Provider, what string) *diags.Diagnostic {
	if _, overridden := discovery.DevOverrides(job.cli.ProviderInstallation.DevOverrides)[provider]; !overridden {
		return nil
	}
	d := diags.Warnf("Provider development override in effect",
		"%s is overridden in the CLI configuration, so it is not %s.", addrs.ProviderForDisplay(provider), what)
	return &d
}
