package command

import (
	"context"
	"fmt"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

// runProvidersMirror copies every required provider's package for each
// platform asked for into a directory, as `terraform providers mirror`
// does: zips in the packed layout plus the network mirror's index.json and
// VERSION.json files, so the directory serves as a filesystem_mirror or,
// behind any static HTTPS server, as a network_mirror.
func runProvidersMirror(streams Streams, args []string) int {
	fs := newFlagSet("providers mirror", streams)
	var platforms stringList
	fs.Var(&platforms, "platform", "A target platform (OS_ARCH) to mirror; repeat for several (default: this machine's)")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	err := fs.Parse(args)
	var argDiags diags.Diagnostics
	if err != nil {
		argDiags = argDiags.Append(diags.Errorf("Failed to parse command-line flags", "%s", err))
	}
	if fs.NArg() != 1 {
		argDiags = argDiags.Append(diags.Errorf("Wrong number of arguments",
			"The providers mirror command requires an output directory as a command-line argument."))
	}
	if len(argDiags) > 0 {
		writeLegacyDiagnostics(streams.Stderr, argDiags, ui.ColorEnabled(*noColor))
		return runResultHelp
	}
	targetDir := fs.Arg(0)
	job, ds := prepareProviderJob(platforms, nil)
	if !ds.HasErrors() {
		ds = ds.Append(job.mirror(context.Background(), streams, targetDir))
	}
	ui.WriteDiagnostics(streams.Stderr, ds, job.sources, false)
	if ds.HasErrors() {
		return 1
	}
	return 0
}

func (job *providerJob) mirror(ctx context.Context, streams Streams, targetDir string) diags.Diagnostics {
	var ds diags.Diagnostics
	overrides := discovery.DevOverrides(job.cli.ProviderInstallation.DevOverrides)
	for _, provider := range workdir.SortedProviders(job.requirements) {
		name := addrs.ProviderForDisplay(provider)
		if _, overridden := overrides[provider]; overridden {
			ds = ds.Append(diags.Warnf("Provider development override in effect", "%s is overridden in the CLI configuration, so it is not mirrored.", name))
			continue
		}
		version, err := job.selectVersion(ctx, provider)
		if err != nil {
			ds = ds.Append(providerJobError(provider, "Cannot select a provider version", err))
			continue
		}
		pkg := job.packageOf(provider) // a sub-package is served by its base package
		fmt.Fprintf(streams.Stdout, "- Mirroring %s %s for %s...\n", addrs.ProviderForDisplay(pkg), version, platformNames(job.platforms))
		if err := discovery.MirrorPackages(ctx, job.source, job.network, pkg, version, job.platforms, targetDir); err != nil {
			ds = ds.Append(providerJobError(provider, "Cannot mirror provider", err))
		}
	}
	return ds
}
