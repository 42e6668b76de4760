package command

import (
	"context"
	"errors"
	"fmt"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/workdir"
)

// runProvidersMirror copies every required provider's package for each
// platform asked for into a directory, as `tofu providers mirror` does:
// always from the providers' origin registries, as zips in the packed
// layout plus the network mirror's index.json and VERSION.json files, so
// the directory serves as a filesystem_mirror or, behind any static HTTPS
// server, as a network_mirror.
func runProvidersMirror(streams views.Streams, args []string) int {
	output, args := arguments.ExtractOutputView(args)
	opts, ds := arguments.ParseProvidersMirror(args)
	job, closeView, vds := newProviderJob(streams, output, opts.ProviderJob)
	defer closeView()
	if opts.Help {
		printCommandHelp(streams.Stdout, "providers mirror")
		return 0
	}
	if ds = ds.Append(vds); ds.HasErrors() {
		return job.usageError("providers mirror", ds)
	}
	ds = ds.Append(job.parsePlatforms(opts.Platforms))
	ds = ds.Append(job.load(opts.Vars))
	if ds.HasErrors() {
		job.view.Diagnostics(ds, job.sources)
		return 1
	}
	ds = ds.Append(job.checkMirrorLocks())
	ds = ds.Append(job.mirror(context.Background(), discovery.WithPulumiPlugins(discovery.NewRegistrySource(job.network)), opts.Directory))
	job.view.Diagnostics(ds, job.sources)
	if ds.HasErrors() {
		return 1
	}
	return 0
}

// checkMirrorLocks refuses a lock file that does not fit the
// configuration, as OpenTofu does, since the mirror takes the locked
// versions.
func (job *providerJob) checkMirrorLocks() diags.Diagnostics {
	if job.locks.Empty() {
		return nil
	}
	lockable := map[addrs.Provider]discovery.Constraints{}
	for provider, constraints := range job.requirements {
		if !provider.IsBuiltIn() {
			lockable[provider] = constraints
		}
	}
	problems := workdir.LockProblems(lockable, job.locks, discovery.DevOverrides(job.cli.ProviderInstallation.DevOverrides))
	if len(problems) == 0 {
		return nil
	}
	return diags.Diagnostics{diags.Errorf("Inconsistent dependency lock file",
		"To update the locked dependency selections to match a changed configuration, run:\n  terrane init -upgrade\n got:%v", problems)}
}

// mirror places every required provider's packages from source in dir,
// then writes the index files for all the packages dir holds.
func (job *providerJob) mirror(ctx context.Context, source discovery.Source, dir string) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, provider := range workdir.SortedProviders(job.requirements) {
		name := addrs.ProviderForDisplay(provider)
		if provider.IsBuiltIn() {
			job.view.Info(fmt.Sprintf("- Skipping %s because it is built in to Terrane CLI", name), fmt.Sprintf("Skipping %s because it is built in to Terrane CLI", name))
			continue
		}
		if d := job.devOverridden(provider, "mirrored"); d != nil {
			ds = append(ds, *d)
			continue
		}
		job.view.Info(fmt.Sprintf("- Mirroring %s...", name), fmt.Sprintf("Mirroring %s...", name))
		version, d := job.mirrorVersion(ctx, source, provider)
		if d != nil {
			ds = append(ds, *d)
			continue
		}
		for _, platform := range job.platforms {
			ds = ds.Append(job.mirrorPackage(ctx, source, provider, version, platform, dir))
		}
	}
	if err := discovery.UpdateMirrorIndexes(dir); err != nil {
		ds = ds.Append(diags.Errorf("Failed to update indexes",
			"Could not scan the output directory to get package metadata for the JSON indexes: %s.", err))
	}
	return ds
}

// mirrorVersion chooses the version to mirror: the locked one when there
// is a lock file, else the newest that meets the constraints.
func (job *providerJob) mirrorVersion(ctx context.Context, source discovery.Source, provider addrs.Provider) (versions.Version, *diags.Diagnostic) {
	name := addrs.ProviderForDisplay(provider)
	constraints := job.requirements[provider]
	text := depsfile.ConstraintsString(constraints)
	available, _, err := source.AvailableVersions(ctx, job.packageOf(provider))
	candidates := available.Filter(versions.MeetingConstraints(constraints))
	if err == nil && len(candidates) == 0 {
		err = fmt.Errorf("no releases match the given constraints %s", text)
	}
	if err != nil {
		d := diags.Errorf("Provider not available", "Failed to download %s from its origin registry: %s.", provider, err)
		return versions.Unspecified, &d
	}
	selected := candidates.Newest()
	switch {
	case !job.locks.Empty():
		lock := job.locks.Provider(provider)
		if lock == nil {
			d := diags.Errorf("Provider not found in lockfile", "Failed to find %s in the lock file", provider)
			return versions.Unspecified, &d
		}
		selected = lock.Version()
		job.view.Info(fmt.Sprintf("  - Selected v%s to match dependency lock file", selected), fmt.Sprintf("Selected %s v%s to match dependency lock file", name, selected))
	case text != "":
		job.view.Info(fmt.Sprintf("  - Selected v%s to meet constraints %s", selected, text), fmt.Sprintf("Selected %s v%s to meet constraints %s", name, selected, text))
	default:
		job.view.Info(fmt.Sprintf("  - Selected v%s with no constraints", selected), fmt.Sprintf("Selected %s v%s with no constraints", name, selected))
	}
	return selected, nil
}

// mirrorPackage fetches, verifies and places one platform's package.
func (job *providerJob) mirrorPackage(ctx context.Context, source discovery.Source, provider addrs.Provider, version versions.Version, platform discovery.Platform, dir string) diags.Diagnostics {
	name := addrs.ProviderForDisplay(provider)
	job.view.Info(fmt.Sprintf("  - Downloading package for %s...", platform), fmt.Sprintf("Downloading %s v%s package for %s...", name, version, platform))
	meta, err := source.PackageMeta(ctx, job.packageOf(provider), version, platform)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Provider release not available", "Failed to download %s v%s for %s: %s.", provider, version, platform, err)}
	}
	auth, fetchErr, placeErr := discovery.MirrorPackage(ctx, job.network, meta, dir)
	var mismatch *discovery.ErrChecksumMismatch
	switch {
	case errors.As(fetchErr, &mismatch):
		return diags.Diagnostics{diags.Errorf("Invalid provider package", "Failed to authenticate %s v%s for %s: %s.", provider, version, platform, fetchErr)}
	case fetchErr != nil:
		return diags.Diagnostics{diags.Errorf("Cannot download provider release", "Failed to download %s v%s for %s: %s.", provider, version, platform, fetchErr)}
	}
	if _, remote := meta.Location.(discovery.PackageRemoteArchive); remote {
		auth = authentication(auth)
		job.view.Info(fmt.Sprintf("  - Package authenticated: %s", auth), fmt.Sprintf("Package %s v%s for %s authenticated: %s", name, version, platform, auth))
	}
	if placeErr != nil {
		return diags.Diagnostics{diags.Errorf("Cannot download provider release", "Failed to place %s package into mirror directory: %s.", provider, placeErr)}
	}
	return nil
}
