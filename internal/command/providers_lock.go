package command

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/workdir"
)

// runProvidersLock records in the dependency lock file the checksums of
// every required provider's package for each platform asked for, as
// `tofu providers lock` does: from the providers' origin registries, or
// only the mirror -fs-mirror or -net-mirror names, whatever the CLI
// configuration's installation methods, so that teams on other platforms
// and behind mirrors can verify their own packages.
func runProvidersLock(streams views.Streams, args []string) int {
	output, args := arguments.ExtractOutputView(args)
	opts, ds := arguments.ParseProvidersLock(args)
	job, closeView, vds := newProviderJob(streams, output, opts.ProviderJob)
	defer closeView()
	if opts.Help {
		printCommandHelp(streams.Stdout, "providers lock")
		return 0
	}
	if ds = ds.Append(vds); ds.HasErrors() {
		return job.usageError("providers lock", ds)
	}
	ds = ds.Append(job.parsePlatforms(opts.Platforms))
	source, sds := job.lockSource(opts)
	if ds = ds.Append(sds); sds.HasErrors() {
		job.view.Diagnostics(ds, nil)
		return 1
	}
	ds = ds.Append(job.load(opts.Vars))
	if !ds.HasErrors() {
		ds = ds.Append(job.limitTo(opts.Providers))
	}
	if ds.HasErrors() {
		job.view.Diagnostics(ds, job.sources)
		return 1
	}
	if source == nil {
		source = discovery.NewRegistrySource(job.network)
	}
	changed, lds := job.lock(context.Background(), discovery.WithPulumiPlugins(source))
	if ds = ds.Append(lds); ds.HasErrors() {
		job.view.Diagnostics(ds, job.sources)
		return 1
	}
	job.view.Diagnostics(ds, job.sources)
	job.view.LockSucceeded(changed)
	return 0
}

// lockSource is the source the mirror options name, or nil for the
// providers' origin registries.
func (job *providerJob) lockSource(opts *arguments.ProvidersLock) (discovery.Source, diags.Diagnostics) {
	switch {
	case opts.FSMirror != "":
		return searchedMirror{discovery.NewFilesystemMirror(opts.FSMirror)}, nil
	case opts.NetMirror != "":
		u, err := url.Parse(opts.NetMirror)
		if err != nil || u.Scheme != "https" {
			return nil, diags.Diagnostics{diags.Errorf("Invalid network mirror URL",
				"The -net-mirror option requires a valid https: URL as the mirror base URL.")}
		}
		mirror, err := discovery.NewNetworkMirror(opts.NetMirror, &discovery.Network{})
		if err != nil {
			return nil, diags.Diagnostics{diags.Errorf("Invalid network mirror URL", "%s.", err)}
		}
		return lateNetworkMirror{mirror, job}, nil
	}
	return nil, nil
}

// lateNetworkMirror is a network mirror that uses the job's network, with
// the CLI configuration's credentials, once it is loaded.
type lateNetworkMirror struct {
	*discovery.NetworkMirror
	job *providerJob
}

func (m lateNetworkMirror) AvailableVersions(ctx context.Context, provider addrs.Provider) (versions.List, discovery.Warnings, error) {
	m.NetworkMirror.Network = m.job.network
	return m.NetworkMirror.AvailableVersions(ctx, provider)
}

// searchedMirror reads a -fs-mirror directory as OpenTofu's lock does: a
// directory that cannot be searched is an error naming it, and a provider
// the directory does not hold simply has no versions.
type searchedMirror struct{ *discovery.FilesystemMirror }

func (m searchedMirror) AvailableVersions(ctx context.Context, provider addrs.Provider) (versions.List, discovery.Warnings, error) {
	if _, err := os.Lstat(m.Dir); err != nil {
		return nil, nil, fmt.Errorf("cannot search %s: %w", m.Dir, err)
	}
	list, warnings, err := m.FilesystemMirror.AvailableVersions(ctx, provider)
	var notFound *discovery.ErrProviderNotFound
	if errors.As(err, &notFound) {
		return nil, warnings, nil
	}
	return list, warnings, err
}

// limitTo keeps only the providers named on the command line, which the
// configuration must require, and of those only the ones a lock file
// records: not the built-in ones.
func (job *providerJob) limitTo(only []string) diags.Diagnostics {
	var ds diags.Diagnostics
	if len(only) > 0 {
		named := map[addrs.Provider]bool{}
		for _, raw := range only {
			provider, err := addrs.ParseProviderSource(raw)
			if err != nil {
				summary, detail := "Invalid provider source string", err.Error()
				var parserErr *tfaddr.ParserError
				if errors.As(err, &parserErr) {
					summary, detail = parserErr.Summary, parserErr.Detail
				}
				ds = ds.Append(diags.Errorf(summary, "%s", detail))
				continue
			}
			named[provider] = true
			if _, required := job.requirements[provider]; !required {
				ds = ds.Append(diags.Errorf("Invalid provider argument",
					"The provider %s is not required by the current configuration.", provider))
			}
		}
		for provider := range job.requirements {
			if !named[provider] {
				delete(job.requirements, provider)
			}
		}
	}
	for provider := range job.requirements {
		if provider.IsBuiltIn() {
			delete(job.requirements, provider)
		}
	}
	return ds
}

// lock installs each provider for each platform into a directory of its
// own, as OpenTofu does, then records the union of the hashes, keeping
// the locks of providers it did not visit. It reports whether the lock
// file gained anything.
func (job *providerJob) lock(ctx context.Context, source discovery.Source) (bool, diags.Diagnostics) {
	var ds diags.Diagnostics
	var providers []addrs.Provider
	for _, provider := range workdir.SortedProviders(job.requirements) {
		if d := job.devOverridden(provider, "locked"); d != nil {
			ds = append(ds, *d)
			continue
		}
		if d := job.subpackageProblem(provider); d != nil {
			ds = append(ds, *d)
			continue
		}
		providers = append(providers, provider)
	}
	if ds.HasErrors() {
		return false, ds
	}
	byPlatform := make([]map[addrs.Provider]*depsfile.ProviderLock, len(job.platforms))
	for i, platform := range job.platforms {
		locks, err := job.lockPlatform(ctx, source, platform, providers)
		if err != nil {
			return false, ds.Append(diags.Errorf("Could not retrieve providers for locking",
				"Terrane failed to fetch the requested providers for %s in order to calculate their checksums: %s.", platform, err))
		}
		byPlatform[i] = locks
	}
	changed := false
	for _, provider := range providers {
		old := job.locks.Provider(provider)
		var merged *depsfile.ProviderLock
		var hashes []discovery.Hash
		if old != nil {
			hashes = old.Hashes()
		}
		for i, platform := range job.platforms {
			lock := byPlatform[i][provider]
			if lock == nil {
				continue
			}
			merged = lock
			hashes = append(hashes, lock.Hashes()...)
			name := addrs.ProviderForDisplay(provider)
			switch {
			case old == nil:
				changed = true
				job.view.Info(fmt.Sprintf("- Obtained %s checksums for %s; This was a new provider and the checksums for this platform are now tracked in the lock file", name, platform),
					fmt.Sprintf("Obtained %s checksums for %s; This was a new provider and the checksums for this platform are now tracked in the lock file", name, platform))
			case old.ContainsAll(lock.Hashes()):
				job.view.Info(fmt.Sprintf("- Obtained %s checksums for %s; All checksums for this platform were already tracked in the lock file", name, platform),
					fmt.Sprintf("Obtained %s checksums for %s; All checksums for this platform were already tracked in the lock file", name, platform))
			default:
				changed = true
				job.view.Info(fmt.Sprintf("- Obtained %s checksums for %s; Additional checksums for this platform are now tracked in the lock file", name, platform),
					fmt.Sprintf("Obtained %s checksums for %s; Additional checksums for this platform are now tracked in the lock file", name, platform))
			}
		}
		if merged == nil {
			continue
		}
		lock := depsfile.NewProviderLock(provider, merged.Version(), merged.Constraints(), hashes)
		job.locks.SetProviderLock(lock.WithParameterization(merged.Parameterization()))
	}
	if err := job.locks.WriteFile(workdir.LockFilePath(".")); err != nil {
		return changed, ds.Append(diags.Errorf("Failed to update dependency lock file",
			"Error while writing new dependency lock information to %s: %s.", depsfile.FileName, err))
	}
	return changed, ds
}

// lockPlatform installs every provider's package for one platform into a
// temporary directory and returns the lock each would get. As OpenTofu's
// installer, it gathers the failures of all providers into one error.
func (job *providerJob) lockPlatform(ctx context.Context, source discovery.Source, platform discovery.Platform, providers []addrs.Provider) (map[addrs.Provider]*depsfile.ProviderLock, error) {
	dir, err := os.MkdirTemp("", "terrane-providers-lock")
	if err != nil {
		return nil, fmt.Errorf("failed to create a temporary directory for staging the requested provider packages: %w", err)
	}
	defer os.RemoveAll(dir)
	installer := &discovery.ProviderInstaller{Source: source, Network: job.network, TargetDir: dir, Platform: platform}
	locks := map[addrs.Provider]*depsfile.ProviderLock{}
	failed := map[addrs.Provider]error{}
	for _, provider := range providers {
		lock, err := job.lockOne(ctx, installer, provider)
		if err != nil {
			failed[provider] = err
			continue
		}
		locks[provider] = lock
	}
	if len(failed) > 0 {
		return nil, installerError(failed)
	}
	return locks, nil
}

// lockOne selects a provider's version as init would (the locked one when
// it still meets the constraints) and installs it for the installer's
// platform.
func (job *providerJob) lockOne(ctx context.Context, installer *discovery.ProviderInstaller, provider addrs.Provider) (*depsfile.ProviderLock, error) {
	constraints := job.requirements[provider]
	old := job.locks.Provider(provider)
	acceptable := versions.MeetingConstraints(constraints)
	if old != nil {
		if !acceptable.Has(old.Version()) {
			return nil, fmt.Errorf("locked provider %s %s does not match configured version constraint %s; must use terrane init -upgrade to allow selection of new versions",
				provider, old.Version(), depsfile.ConstraintsString(constraints))
		}
		acceptable = versions.Only(old.Version())
	}
	pkg := job.packageOf(provider)
	available, _, err := installer.Source.AvailableVersions(ctx, pkg)
	if err != nil {
		return nil, err
	}
	version := available.Filter(acceptable).Newest()
	if version == versions.Unspecified {
		if old != nil {
			return nil, fmt.Errorf("the previously-selected version %s is no longer available", old.Version())
		}
		return nil, fmt.Errorf("no available releases match the given constraints %s", depsfile.ConstraintsString(constraints))
	}
	name, platform := addrs.ProviderForDisplay(provider), installer.Platform
	if _, err := installer.Source.PackageMeta(ctx, pkg, version, platform); err != nil {
		return nil, err
	}
	job.view.Info(fmt.Sprintf("- Fetching %s %s for %s...", name, version, platform), fmt.Sprintf("Fetching %s %s for %s...", name, version, platform))
	var prior []discovery.Hash
	if old != nil {
		prior = old.Hashes()
	}
	// The lock records what is found now; the prior hashes are kept, not
	// checked, as OpenTofu's lock does.
	installed, err := installer.Install(ctx, pkg, version, nil)
	if err != nil {
		return nil, err
	}
	auth := authentication(installed.Authentication)
	job.view.Info(fmt.Sprintf("- Retrieved %s %s for %s (%s)", name, version, platform, auth), fmt.Sprintf("Retrieved %s %s for %s (%s)", name, version, platform, auth))
	lock := depsfile.NewProviderLock(provider, version, constraints, append(installed.Hashes, prior...))
	if old != nil {
		// A sub-package's record of how it is made stays as init wrote it.
		lock = lock.WithParameterization(old.Parameterization())
	}
	return lock, nil
}

// installerError lists every provider's failure, sorted, in OpenTofu's
// words.
func installerError(failed map[addrs.Provider]error) error {
	providers := make([]addrs.Provider, 0, len(failed))
	for provider := range failed {
		providers = append(providers, provider)
	}
	sort.Slice(providers, func(i, j int) bool { return providers[i].LessThan(providers[j]) })
	var b strings.Builder
	b.WriteString("some providers could not be installed:\n")
	for _, provider := range providers {
		fmt.Fprintf(&b, "- %s: %s\n", provider, failed[provider])
	}
	return errors.New(strings.TrimSpace(b.String()))
}

// subpackageProblem refuses a Pulumi sub-package the lock file has no
// record of, or a record with other parameters: making a sub-package
// needs its base provider running, which is init's job, so the lock keeps
// init's record as it is.
func (job *providerJob) subpackageProblem(provider addrs.Provider) *diags.Diagnostic {
	want, isSub := job.subpackages[provider]
	if !isSub {
		return nil
	}
	var diag diags.Diagnostic
	lock := job.locks.Provider(provider)
	switch {
	case lock == nil:
		diag = providerJobError(provider, "Sub-package not recorded",
			fmt.Errorf("it is a sub-package of %s, which only terrane init can make and record; run terrane init, then terrane providers lock", addrs.ProviderForDisplay(want.Base)))
	case workdir.SubpackageLockProblem(want, lock) != "":
		diag = providerJobError(provider, "Sub-package parameters changed",
			fmt.Errorf("%s; run terrane init -upgrade, then terrane providers lock", workdir.SubpackageLockProblem(want, lock)))
	default:
		return nil
	}
	diag.Subject = want.DeclRange.Ptr()
	return &diag
}

func providerJobError(provider addrs.Provider, summary string, err error) diags.Diagnostic {
	diag := diags.Errorf(summary, "For %s: %s.", addrs.ProviderForDisplay(provider), err)
	diag.Address = provider.String()
	return diag
}
