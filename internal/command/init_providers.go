package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/workdir"
)

// transitionalRegistryHost is the registry Terraform's state names
// providers on.
const transitionalRegistryHost = "registry.terraform.io"

// builtinProviderTypes are the providers built in to Terrane.
var builtinProviderTypes = []string{"terraform"}

// providerWork is init's work on one provider package: the version it
// chose, and the lock it had before.
type providerWork struct {
	provider    addrs.Provider
	constraints discovery.Constraints
	old         *depsfile.ProviderLock
	// locked is set when the lock file's version is kept.
	locked  bool
	version versions.Version
	// incomplete is set when the lock gets only hashes computed here, so
	// it cannot check the packages of other platforms.
	incomplete bool
}

// initProviders installs every required provider and updates the lock
// file. As OpenTofu does, it first checks the built-in providers and the
// locked versions, then chooses every version, then installs every
// package, so that its lines come in the same order.
func (in *initializer) initProviders(ctx context.Context, cfg *config.Config, extra []*config.Config) diags.Diagnostics {
	requirements, ds := workdir.AllProviderRequirements(cfg)
	// The providers that only the test files need are installed too.
	for _, more := range extra {
		more, moreDiags := workdir.AllProviderRequirements(more)
		ds = ds.Append(moreDiags)
		for provider, constraints := range more {
			requirements[provider] = append(requirements[provider], constraints...)
		}
	}
	for _, provider := range in.stateProviders {
		// As OpenTofu, a provider of registry.terraform.io that only the
		// state names is taken to be the same one on OpenTofu's registry.
		if _, referenced := requirements[provider]; !referenced && provider.Hostname == transitionalRegistryHost {
			provider.Hostname = addrs.DefaultProviderRegistryHost
		}
		if _, ok := requirements[provider]; !ok {
			requirements[provider] = nil
		}
	}
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
	if in.opts.Upgrade && in.opts.Lockfile == "readonly" {
		in.view.Failure("The -upgrade flag conflicts with -lockfile=readonly.")
		in.aborted = true
		return ds
	}
	in.view.Heading("Initializing provider plugins...", true)
	installer := in.installer()
	overrides := discovery.DevOverrides(in.cli.ProviderInstallation.DevOverrides)
	reattached, more := plugin.ParseReattachProviders(os.Getenv(plugin.EnvReattachProviders))
	ds = ds.Append(more)
	subpackages, more := workdir.Subpackages(cfg)
	ds = ds.Append(more)
	in.newLocks = depsfile.NewLocks()
	var work []*providerWork
	var subs []addrs.Provider
	for _, provider := range workdir.SortedProviders(requirements) {
		_, overridden := overrides[provider]
		_, attached := reattached[provider]
		_, sub := subpackages[provider]
		switch {
		case provider.IsBuiltIn():
			ds = ds.Append(in.builtinProvider(provider, requirements[provider]))
		case overridden || attached:
			// used from where it is; never installed or locked
		case sub:
			subs = append(subs, provider)
		default:
			w := &providerWork{provider: provider, constraints: requirements[provider], old: in.oldLocks.Provider(provider)}
			if diag := in.keepLocked(w); diag != nil {
				ds = append(ds, *diag)
				continue
			}
			work = append(work, w)
		}
	}
	chosen := work[:0:0]
	for _, w := range work {
		if diag := in.chooseVersion(ctx, installer.Source, w); diag != nil {
			ds = append(ds, *diag)
			continue
		}
		chosen = append(chosen, w)
	}
	var incomplete []string
	for _, w := range chosen {
		if err := ctx.Err(); err != nil {
			return ds.Append(diags.Errorf("Init interrupted", "Init stopped before installing %s. Run it again.", addrs.ProviderForDisplay(w.provider)))
		}
		lock, diag := in.installChosen(ctx, installer, w)
		if diag != nil {
			ds = append(ds, *diag)
			continue
		}
		in.newLocks.SetProvider(w.provider, lock.Version(), w.constraints, lock.Hashes())
		if w.incomplete {
			incomplete = append(incomplete, addrs.ProviderForDisplay(w.provider))
		}
	}
	for _, provider := range subs {
		lock, more := in.ensureSubpackage(ctx, installer, provider, subpackages[provider], requirements[provider])
		ds = ds.Append(more.WithAddress(provider.String()))
		if lock != nil {
			in.newLocks.SetProviderLock(lock)
		}
	}
	if warning := overrides.Warning(); warning != nil {
		ds = append(ds, *warning)
	}
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(in.writeLocks(incomplete))
}

// builtinProvider reports a built-in provider: available, or not one
// Terrane has, or given a version constraint it cannot meet.
func (in *initializer) builtinProvider(provider addrs.Provider, constraints discovery.Constraints) diags.Diagnostics {
	var problem string
	switch {
	case !slices.Contains(builtinProviderTypes, provider.Type):
		problem = fmt.Sprintf("this Terrane release has no built-in provider named %q", provider.Type)
	case len(constraints) > 0:
		problem = "built-in providers do not support explicit version constraints"
	default:
		in.view.Progress("%s is built in to Terrane", addrs.ProviderForDisplay(provider))
		return nil
	}
	return diags.Diagnostics{diags.Errorf("Invalid dependency on built-in provider", "Cannot use %s: %s.", addrs.ProviderForDisplay(provider), problem)}
}

// keepLocked decides whether the lock file's version is kept: unless
// -upgrade, it is, and must still meet the constraints.
func (in *initializer) keepLocked(w *providerWork) *diags.Diagnostic {
	if w.old == nil || in.opts.Upgrade {
		return nil
	}
	if !versions.MeetingConstraints(w.constraints).Has(w.old.Version()) {
		in.view.Progress("Reusing previous version of %s from the dependency lock file", addrs.ProviderForDisplay(w.provider))
		diag := diags.Errorf("Failed to resolve provider packages",
			"Could not resolve provider %s: locked provider %s %s does not match configured version constraint %s; must use terrane init -upgrade to allow selection of new versions",
			addrs.ProviderForDisplay(w.provider), w.provider, w.old.Version(), depsfile.ConstraintsString(w.constraints))
		return &diag
	}
	w.locked = true
	return nil
}

// chooseVersion prints what init looks for and picks the locked version,
// or the newest one that meets the constraints.
func (in *initializer) chooseVersion(ctx context.Context, source discovery.Source, w *providerWork) *diags.Diagnostic {
	name := addrs.ProviderForDisplay(w.provider)
	switch {
	case w.locked:
		in.view.Progress("Reusing previous version of %s from the dependency lock file", name)
	case len(w.constraints) == 0:
		in.view.Progress("Finding latest version of %s...", name)
	default:
		in.view.Progress("Finding %s versions matching %q...", name, depsfile.ConstraintsString(w.constraints))
	}
	available, _, err := source.AvailableVersions(ctx, w.provider)
	if err != nil {
		return lookupDiagnostic(name, err)
	}
	if w.locked {
		if !slices.ContainsFunc(available, w.old.Version().Same) {
			diag := diags.Errorf("Failed to resolve provider packages", "Could not resolve provider %s: the previously-selected version %s is no longer available", name, w.old.Version())
			return &diag
		}
		w.version = w.old.Version()
		return nil
	}
	version, err := discovery.SelectVersion(available, w.constraints)
	if err != nil {
		diag := diags.Errorf("Failed to resolve provider packages",
			"Could not resolve provider %s: no available releases match the given constraints %s", name, depsfile.ConstraintsString(w.constraints))
		return &diag
	}
	w.version = version
	return nil
}

// installChosen installs the chosen version unless the package installed
// already matches its lock, and returns the new lock.
func (in *initializer) installChosen(ctx context.Context, installer *discovery.ProviderInstaller, w *providerWork) (*depsfile.ProviderLock, *diags.Diagnostic) {
	name := addrs.ProviderForDisplay(w.provider)
	var prior []discovery.Hash
	if w.old != nil && w.old.Version().Same(w.version) {
		prior = w.old.Hashes()
		if in.installedMatches(w.old) {
			in.view.Progress("Using previously-installed %s v%s", name, w.version)
			return w.old, nil
		}
	}
	// With a plugin cache, OpenTofu either links the cached package
	// ("Using ... from the shared cache directory") or fetches it into
	// the cache first, saying so; which one is known only once installed.
	withCache := installer.CacheDir != ""
	if !withCache {
		in.view.Progress("Installing %s v%s...", name, w.version)
	}
	installed, err := installer.Install(ctx, w.provider, w.version, prior)
	if withCache && (err != nil || !installed.FromCache) {
		in.view.Progress("Installing %s v%s to the shared cache directory...", name, w.version)
	}
	if err != nil {
		return nil, installDiagnostic(name, w.version, err)
	}
	if !installed.FromCache {
		in.view.Progress("Installed %s v%s (%s)", name, w.version, authentication(installed.Authentication))
	}
	if withCache {
		in.view.Progress("Using %s v%s from the shared cache directory", name, w.version)
	}
	// A package from a registry brings the zh: hashes its signed checksums
	// list; one from a mirror only the hash computed here, which cannot
	// check another platform's package.
	w.incomplete = !hasSignedHashes(installed.Hashes) && (len(prior) == 0 || slices.Equal(prior, localHashes(installed.Hashes)))
	return depsfile.NewProviderLock(w.provider, w.version, w.constraints, installed.Hashes), nil
}

func hasSignedHashes(hashes []discovery.Hash) bool {
	return slices.ContainsFunc(hashes, func(h discovery.Hash) bool { return strings.HasPrefix(string(h), "zh:") })
}

func localHashes(hashes []discovery.Hash) []discovery.Hash {
	var out []discovery.Hash
	for _, h := range hashes {
		if strings.HasPrefix(string(h), "h1:") {
			out = append(out, h)
		}
	}
	return out
}

// ensureProvider chooses and installs one provider package, as for a
// sub-package's base, and returns its lock. old is the package's previous
// lock, if any.
func (in *initializer) ensureProvider(ctx context.Context, installer *discovery.ProviderInstaller, provider addrs.Provider, constraints discovery.Constraints, old *depsfile.ProviderLock) (*depsfile.ProviderLock, *diags.Diagnostic) {
	w := &providerWork{provider: provider, constraints: constraints, old: old}
	if diag := in.keepLocked(w); diag != nil {
		return nil, diag
	}
	if diag := in.chooseVersion(ctx, installer.Source, w); diag != nil {
		return nil, diag
	}
	return in.installChosen(ctx, installer, w)
}

// installer builds the provider installer: the CLI configuration's
// installation methods, or only the -plugin-dir directories when given.
func (in *initializer) installer() *discovery.ProviderInstaller {
	installer := &discovery.ProviderInstaller{
		TargetDir:                workdir.ProvidersDir("."),
		CacheDir:                 in.cli.PluginCacheDir,
		CacheWithoutLockedHashes: in.cli.PluginCacheMayBreakDependencyLockFile,
	}
	if len(in.opts.PluginDirs) > 0 {
		// As in OpenTofu, -plugin-dir replaces every other source and
		// the cache, so init installs exactly what those directories hold.
		var source discovery.MultiSource
		for _, dir := range in.opts.PluginDirs {
			source = append(source, discovery.MultiSourceEntry{Source: discovery.NewFilesystemMirror(dir)})
		}
		installer.Source, installer.CacheDir = source, ""
		return installer
	}
	installer.Network = &discovery.Network{Credentials: discovery.NewCredentials(in.cli.Credentials, os.Environ())}
	installer.Source = discovery.SourceForInstallationOnline(in.cli.ProviderInstallation, installer.Network)
	return installer
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
// -lockfile=readonly. incomplete names the providers whose new locks
// hold only hashes computed here.
func (in *initializer) writeLocks(incomplete []string) diags.Diagnostics {
	if in.newLocks.Equal(in.oldLocks) {
		return nil
	}
	if in.opts.Lockfile == "readonly" {
		if !sameProviders(in.newLocks, in.oldLocks) {
			return diags.Diagnostics{diags.Errorf("Provider dependency changes detected",
				"Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run \"terrane init\" without the \"-lockfile=readonly\" flag.")}
		}
		return diags.Diagnostics{diags.Warnf("Provider lock file not updated",
			"Changes to the provider selections were detected, but not saved in the %s file. To record these selections, run \"terrane init\" without the \"-lockfile=readonly\" flag.", depsfile.FileName)}
	}
	var ds diags.Diagnostics
	if len(incomplete) > 0 {
		slices.Sort(incomplete)
		platform := discovery.CurrentPlatform().String()
		ds = ds.Append(diags.Warnf("Incomplete lock file information for providers",
			"Due to your customized provider installation methods, Terrane was forced to calculate lock file checksums locally for the following providers:\n  - %s\n\n"+
				"The current %s file only includes checksums for %s, so Terrane running on another platform will fail to install these providers.\n\n"+
				"To calculate additional checksums for another platform, run:\n  terrane providers lock -platform=linux_amd64\n(where linux_amd64 is the platform to generate)",
			strings.Join(incomplete, "\n  - "), depsfile.FileName, platform))
	}
	if in.oldLocks.Empty() {
		in.view.LockFileCreated(depsfile.FileName)
	} else {
		in.view.LockFileChanged(depsfile.FileName)
	}
	if err := in.newLocks.WriteFile(workdir.LockFilePath(".")); err != nil {
		return ds.Append(diags.Errorf("Failed to write the dependency lock file", "%s. Check that the configuration directory can be written to.", diags.Capitalize(err.Error())))
	}
	return ds
}

// sameProviders reports whether two lock files lock the same providers.
func sameProviders(a, b *depsfile.Locks) bool {
	return slices.Equal(a.SortedProviders(), b.SortedProviders())
}

// lookupDiagnostic explains a failure to find a provider's versions.
func lookupDiagnostic(name string, err error) *diags.Diagnostic {
	var notFound *discovery.ErrProviderNotFound
	if errors.As(err, &notFound) {
		sources := make([]string, len(notFound.Sources))
		for i, source := range notFound.Sources {
			sources[i] = "  - " + source
		}
		diag := diags.Errorf("Failed to query available provider packages",
			"Could not retrieve the list of available versions for provider %s: provider %s was not found in any of the search locations\n\n%s",
			name, notFound.Provider, strings.Join(sources, "\n"))
		return &diag
	}
	// As OpenTofu, any other failure (a registry that cannot be reached
	// or answers wrongly) is a failure to resolve the provider.
	diag := diags.Errorf("Failed to resolve provider packages", "Could not resolve provider %s: %s", name, err)
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
