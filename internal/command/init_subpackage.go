package command

import (
	"context"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/plugin/pulumi"
	"github.com/terrane/terrane/internal/workdir"
)

// ensureSubpackage installs a sub-package's base package and returns the
// sub-package's lock: the base's version and hashes under the
// sub-package's address, with its parameterization. A parameterization
// recorded for the same base and parameters is kept, as versions are,
// unless -upgrade; otherwise the base is launched with the parameters and
// what it answers is recorded.
func (in *initializer) ensureSubpackage(ctx context.Context, installer *discovery.ProviderInstaller, provider addrs.Provider, sub workdir.Subpackage, constraints discovery.Constraints) (*depsfile.ProviderLock, diags.Diagnostics) {
	old := in.oldLocks.Provider(provider)
	var oldBase *depsfile.ProviderLock
	if old != nil && !in.opts.Upgrade {
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
		in.view.Progress("Reusing sub-package %s v%s from the dependency lock file", recorded.Name, recorded.Version)
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
	in.view.Progress("Making sub-package %s of %s with parameters %q...", provider.Type, addrs.ProviderForDisplay(sub.Base), sub.Args)
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
	in.view.Progress("Recorded sub-package %s v%s", value.Name, value.Version)
	return &depsfile.Parameterization{Base: sub.Base, Args: sub.Args, Name: value.Name, Version: value.Version, Value: value.Value}, ds
}
