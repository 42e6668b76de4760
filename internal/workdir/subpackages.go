package workdir

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/plugin/pulumi"
)

// Subpackage is a requirement for a Pulumi sub-package: the base package
// that makes it and the parameters it is made with. Its address (the key
// it is found under) is the source's hostname and namespace with the
// local name as type; see config.RequiredProvider.
type Subpackage struct {
	Base      addrs.Provider
	Args      []string
	DeclRange hcl.Range
}

// Subpackages returns every sub-package the configuration tree requires,
// by address. Two modules may declare the same sub-package only with the
// same base and parameters, since the address names one schema.
func Subpackages(cfg *config.Config) (map[addrs.Provider]Subpackage, diags.Diagnostics) {
	var ds diags.Diagnostics
	found := map[addrs.Provider]Subpackage{}
	cfg.DeepEach(func(c *config.Config) {
		for _, name := range sortedKeys(c.Module.RequiredProviders) {
			req := c.Module.RequiredProviders[name]
			if req.Parameters == nil {
				continue
			}
			want := Subpackage{Base: req.Base, Args: req.Parameters, DeclRange: req.DeclRange}
			prev, seen := found[req.Type]
			if !seen {
				found[req.Type] = want
				continue
			}
			if prev.Base != want.Base || !slices.Equal(prev.Args, want.Args) {
				diag := diags.Errorf("Conflicting sub-package requirements",
					"The sub-package %s is declared at %s as %s with parameters %q, and here as %s with parameters %q. "+
						"A sub-package's name selects one schema, so give the other one a different local name.",
					addrs.ProviderForDisplay(req.Type), prev.DeclRange, addrs.ProviderForDisplay(prev.Base), prev.Args, addrs.ProviderForDisplay(want.Base), want.Args)
				diag.Subject = req.DeclRange.Ptr()
				ds = append(ds, diag)
			}
		}
	})
	return found, ds
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return keys
}

// CheckSubpackageLocks reports, as errors that say to run terrane init
// -upgrade, every sub-package whose lock does not record the base package
// and parameters the configuration now gives (or records none at all):
// the recorded sub-package would no longer be the one asked for.
// Sub-packages with no lock at all are CheckLocks' to report.
func CheckSubpackageLocks(subpackages map[addrs.Provider]Subpackage, locks *depsfile.Locks) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, provider := range SortedProviders(subpackages) {
		lock := locks.Provider(provider)
		if lock == nil {
			continue
		}
		if problem := SubpackageLockProblem(subpackages[provider], lock); problem != "" {
			diag := diags.Errorf("Sub-package parameters changed",
				"%s. Run terrane init -upgrade to make the sub-package again and record it.", problem)
			diag.Address = provider.String()
			diag.Subject = subpackages[provider].DeclRange.Ptr()
			ds = append(ds, diag)
		}
	}
	return ds
}

// SubpackageLockProblem says how a lock fails to record the sub-package
// want, or returns "" when it records it.
func SubpackageLockProblem(want Subpackage, lock *depsfile.ProviderLock) string {
	recorded := lock.Parameterization()
	switch {
	case recorded == nil:
		return fmt.Sprintf("%s locks %s as an ordinary provider, but the configuration declares it a sub-package of %s with parameters %q",
			depsfile.FileName, addrs.ProviderForDisplay(lock.Provider()), addrs.ProviderForDisplay(want.Base), want.Args)
	case recorded.Base != want.Base || !slices.Equal(recorded.Args, want.Args):
		return fmt.Sprintf("%s records %s as made by %s with parameters %q, but the configuration now asks for %s with parameters %q",
			depsfile.FileName, addrs.ProviderForDisplay(lock.Provider()), addrs.ProviderForDisplay(recorded.Base), recorded.Args, addrs.ProviderForDisplay(want.Base), want.Args)
	}
	return ""
}

// LaunchSubpackage starts the base package's executable (or attaches to
// the base when PULUMI_DEBUG_PROVIDERS names it) as a Pulumi provider made
// into the sub-package provider with params (the args at init, the
// recorded value afterwards). Parameters exist only in Pulumi's protocol,
// so any other executable is refused with a diagnostic naming provider.
func LaunchSubpackage(ctx context.Context, provider, base addrs.Provider, executable string, params *pulumi.Parameters) (*pulumi.Provider, error) {
	if executable != "" && !discovery.IsPulumiExecutable(executable) {
		diag := diags.Errorf("Parameters given for a provider that is not a Pulumi provider",
			"%s is declared with parameters, which make a sub-package of a Pulumi provider, but its package's executable %s is not a Pulumi provider (pulumi-resource-NAME). "+
				"Remove parameters from its requirement, or set source to a Pulumi provider such as \"pulumi/NAME\".",
			addrs.ProviderForDisplay(provider), executable)
		diag.Address = provider.String()
		return nil, diags.Diagnostics{diag}.Err()
	}
	return pulumi.Launch(ctx, pulumi.Config{Name: base.Type, Path: executable, Parameters: params})
}
