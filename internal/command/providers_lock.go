package command

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

// runProvidersLock records in the dependency lock file the checksums of
// every required provider's package for each platform asked for, as
// `terraform providers lock` does, so teams on other platforms can verify
// their own downloads.
func runProvidersLock(streams Streams, args []string) int {
	fs := newFlagSet("providers lock", streams)
	var platforms, fsMirror, netMirror stringList
	fs.Var(&platforms, "platform", "A target platform (OS_ARCH) to lock for; repeat for several (default: this machine's)")
	fs.Var(&fsMirror, "fs-mirror", "Consult only this filesystem mirror directory")
	fs.Var(&netMirror, "net-mirror", "Consult only this network mirror base URL")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	if err := fs.Parse(args); err != nil {
		return flagParseError(streams.Stderr, err, ui.ColorEnabled(*noColor))
	}
	job, ds := prepareProviderJob(platforms, fs.Args())
	if !ds.HasErrors() {
		ds = ds.Append(job.useMirrorFlags(fsMirror, netMirror))
	}
	if !ds.HasErrors() {
		ds = ds.Append(job.lock(context.Background(), streams))
	}
	ui.WriteDiagnostics(streams.Stderr, ds, job.sources, false)
	if ds.HasErrors() {
		return 1
	}
	fmt.Fprintf(streams.Stdout, "\nSuccess! Terrane has updated the lock file.\n\nReview the changes in %s and then commit to your\nversion control system to retain the new checksums.\n", depsfile.FileName)
	return 0
}

// providerJob is what providers lock and providers mirror share: the
// configuration's provider requirements, where packages come from, the
// platforms and the current lock file.
type providerJob struct {
	requirements map[addrs.Provider]discovery.Constraints
	// subpackages are the required Pulumi sub-packages, served by their
	// base packages.
	subpackages map[addrs.Provider]workdir.Subpackage
	locks       *depsfile.Locks
	platforms   []discovery.Platform
	source      discovery.Source
	network     *discovery.Network
	cli         *cliconfig.Config
	sources     ui.Sources
}

// prepareProviderJob reads the configuration (with installed modules), the
// CLI configuration and the lock file; only, when not empty, limits the
// providers to those named.
func prepareProviderJob(rawPlatforms, only []string) (*providerJob, diags.Diagnostics) {
	job := &providerJob{sources: ui.Sources{}}
	var ds diags.Diagnostics
	for _, raw := range rawPlatforms {
		platform, err := discovery.ParsePlatform(raw)
		if err != nil {
			ds = ds.Append(diags.Errorf("Invalid -platform option", "%s.", err))
		}
		job.platforms = append(job.platforms, platform)
	}
	if len(job.platforms) == 0 {
		job.platforms = []discovery.Platform{discovery.CurrentPlatform()}
	}
	parser := config.NewParser()
	parser.Static = staticInputs(".", nil)
	cfg, hclDiags := modules.LoadConfig(parser, ".")
	for name, file := range parser.Files() {
		job.sources[name] = file
	}
	ds = ds.Append(hclDiags)
	if ds.HasErrors() {
		return job, ds
	}
	var more diags.Diagnostics
	job.requirements, more = workdir.ProviderRequirements(cfg)
	ds = ds.Append(more)
	job.subpackages, more = workdir.Subpackages(cfg)
	ds = ds.Append(more)
	job.cli, more = cliconfig.Load(cliconfig.Environment{WorkingDir: "."})
	ds = ds.Append(more)
	job.locks, more = depsfile.LoadFile(workdir.LockFilePath("."))
	ds = ds.Append(more)
	ds = ds.Append(job.limitTo(only))
	if ds.HasErrors() {
		return job, ds
	}
	job.network = &discovery.Network{Credentials: discovery.NewCredentials(job.cli.Credentials, os.Environ())}
	job.source = discovery.SourceForInstallationOnline(job.cli.ProviderInstallation, job.network)
	return job, ds
}

// limitTo keeps only the named providers, which the configuration must
// require.
func (job *providerJob) limitTo(only []string) diags.Diagnostics {
	if len(only) == 0 {
		return nil
	}
	var ds diags.Diagnostics
	kept := map[addrs.Provider]discovery.Constraints{}
	for _, raw := range only {
		provider, err := addrs.ParseProviderSource(raw)
		if err != nil {
			ds = ds.Append(diags.Errorf("Invalid provider address", "%q is not a provider source address: %s.", raw, err))
			continue
		}
		constraints, required := job.requirements[provider]
		if !required {
			ds = ds.Append(diags.Errorf("Provider not required", "The configuration does not require %s; name only providers it uses.", provider.ForDisplay()))
			continue
		}
		kept[provider] = constraints
	}
	job.requirements = kept
	return ds
}

// useMirrorFlags replaces the installation methods with the mirrors given
// on the command line.
func (job *providerJob) useMirrorFlags(fsMirror, netMirror stringList) diags.Diagnostics {
	if len(fsMirror)+len(netMirror) == 0 {
		return nil
	}
	if len(fsMirror)+len(netMirror) > 1 {
		return diags.Diagnostics{diags.Errorf("Conflicting mirror options", "Give one -fs-mirror or one -net-mirror, not several.")}
	}
	if len(fsMirror) == 1 {
		job.source = discovery.NewFilesystemMirror(fsMirror[0])
		return nil
	}
	mirror, err := discovery.NewNetworkMirror(netMirror[0], job.network)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Invalid -net-mirror option", "%s.", err)}
	}
	job.source = mirror
	return nil
}

// packageOf is the package that serves provider: a sub-package's base
// package, else the provider itself.
func (job *providerJob) packageOf(provider addrs.Provider) addrs.Provider {
	if sub, ok := job.subpackages[provider]; ok {
		return sub.Base
	}
	return provider
}

// selectVersion keeps the locked version while it meets the constraints,
// as init does, else picks the newest that does (of the base package, for
// a sub-package).
func (job *providerJob) selectVersion(ctx context.Context, provider addrs.Provider) (versions.Version, error) {
	constraints := job.requirements[provider]
	if lock := job.locks.Provider(provider); lock != nil && versions.MeetingConstraints(constraints).Has(lock.Version()) {
		return lock.Version(), nil
	}
	available, _, err := job.source.AvailableVersions(ctx, job.packageOf(provider))
	if err != nil {
		return versions.Unspecified, err
	}
	return discovery.SelectVersion(available, constraints)
}

// lock computes each provider's hashes and writes the lock file, keeping
// hashes recorded before for the same version.
func (job *providerJob) lock(ctx context.Context, streams Streams) diags.Diagnostics {
	var ds diags.Diagnostics
	overrides := discovery.DevOverrides(job.cli.ProviderInstallation.DevOverrides)
	for _, provider := range workdir.SortedProviders(job.requirements) {
		name := addrs.ProviderForDisplay(provider)
		if _, overridden := overrides[provider]; overridden {
			ds = ds.Append(diags.Warnf("Provider development override in effect", "%s is overridden in the CLI configuration, so it is not locked.", name))
			continue
		}
		recorded, problem := job.subpackageRecord(provider)
		if problem != nil {
			ds = ds.Append(*problem)
			continue
		}
		version, err := job.selectVersion(ctx, provider)
		if err != nil {
			ds = ds.Append(providerJobError(provider, "Cannot select a provider version", err))
			continue
		}
		fmt.Fprintf(streams.Stdout, "- Fetching %s %s for %s...\n", name, version, platformNames(job.platforms))
		hashes, err := discovery.PlatformHashes(ctx, job.source, job.network, job.packageOf(provider), version, job.platforms)
		if err != nil {
			ds = ds.Append(providerJobError(provider, "Cannot compute provider checksums", err))
			continue
		}
		if old := job.locks.Provider(provider); old != nil && old.Version().Same(version) {
			hashes = append(hashes, old.Hashes()...)
		}
		job.locks.SetProviderLock(depsfile.NewProviderLock(provider, version, job.requirements[provider], hashes).WithParameterization(recorded))
		fmt.Fprintf(streams.Stdout, "- Obtained %s checksums for %s\n", name, platformNames(job.platforms))
	}
	if ds.HasErrors() {
		return ds
	}
	if err := job.locks.WriteFile(workdir.LockFilePath(".")); err != nil {
		ds = ds.Append(diags.Errorf("Cannot write the dependency lock file", "%s.", err))
	}
	return ds
}

// subpackageRecord is the lock file's record of how a sub-package is
// made, kept as it is: making a sub-package needs its base provider
// running, which is init's job. A sub-package init has not recorded (or
// recorded with other parameters) is an error saying to run init.
func (job *providerJob) subpackageRecord(provider addrs.Provider) (*depsfile.Parameterization, *diags.Diagnostic) {
	want, isSub := job.subpackages[provider]
	if !isSub {
		return nil, nil
	}
	lock := job.locks.Provider(provider)
	if lock == nil {
		diag := providerJobError(provider, "Sub-package not recorded",
			fmt.Errorf("it is a sub-package of %s, which only terrane init can make and record; run terrane init, then terrane providers lock", addrs.ProviderForDisplay(want.Base)))
		diag.Subject = want.DeclRange.Ptr()
		return nil, &diag
	}
	if problem := workdir.SubpackageLockProblem(want, lock); problem != "" {
		diag := providerJobError(provider, "Sub-package parameters changed", fmt.Errorf("%s; run terrane init -upgrade, then terrane providers lock", problem))
		diag.Subject = want.DeclRange.Ptr()
		return nil, &diag
	}
	return lock.Parameterization(), nil
}

func providerJobError(provider addrs.Provider, summary string, err error) diags.Diagnostic {
	diag := diags.Errorf(summary, "For %s: %s.", addrs.ProviderForDisplay(provider), err)
	diag.Address = provider.String()
	return diag
}

func platformNames(platforms []discovery.Platform) string {
	names := make([]string, len(platforms))
	for i, platform := range platforms {
		names[i] = platform.String()
	}
	return strings.Join(names, ", ")
}
