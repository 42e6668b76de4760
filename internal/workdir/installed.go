package workdir

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

// MissingProviders lists each provider the dependency lock file of dir
// selects that is not installed, as "ADDRESS: there is no package for
// ADDRESS VERSION cached in DIR", sorted. Development overrides and
// reattached providers need no package.
func MissingProviders(dir string) []string { return missingProviders(dir, os.Getenv) }

func missingProviders(dir string, getenv func(string) string) []string {
	locks, ds := depsfile.LoadFile(LockFilePath(dir))
	if ds.HasErrors() || locks == nil {
		return nil
	}
	cli, _ := cliconfig.Load(cliconfig.Environment{WorkingDir: dir, Getenv: getenv})
	overrides := devOverrides(cli)
	reattached, _ := plugin.ParseReattachProviders(getenv(plugin.EnvReattachProviders))
	var problems []string
	for _, provider := range locks.SortedProviders() {
		_, overridden := overrides[provider]
		if _, attached := reattached[provider]; overridden || attached {
			continue
		}
		lock := locks.Provider(provider)
		pkg := lock.Package()
		packageDir := discovery.UnpackedDir(ProvidersDir(dir), pkg, lock.Version(), discovery.CurrentPlatform())
		if _, err := os.Stat(packageDir); err == nil {
			continue
		}
		problems = append(problems, fmt.Sprintf("%s: there is no package for %s %s cached in %s",
			provider, pkg, lock.Version(), ProvidersDir(dir)))
	}
	sort.Strings(problems)
	return problems
}

// CheckInstalledProviders reports, as OpenTofu does before a command
// uses its backend, the providers the dependency lock file selects that
// have no package installed in the data directory of dir. Providers a dev
// override or a reattachment supplies need none.
func CheckInstalledProviders(dir string) diags.Diagnostics {
	return CheckInstalledProvidersIn(dir, os.Getenv)
}

// CheckInstalledProvidersIn is CheckInstalledProviders for a run whose
// environment is not the process's (a reconciled workspace's): its CLI
// configuration's development overrides and reattached providers count.
func CheckInstalledProvidersIn(dir string, getenv func(string) string) diags.Diagnostics {
	problems := missingProviders(dir, getenv)
	if len(problems) == 0 {
		return nil
	}
	suggestion := "To download the plugins required for this configuration, run:\n  terrane init"
	if getenv("TF_IN_AUTOMATION") != "" {
		suggestion = "You must install the required plugins before running Terrane operations."
	}
	return diags.Diagnostics{diags.Errorf("Required plugins are not installed",
		"The installed provider plugins are not consistent with the packages selected in the dependency lock file:\n  - %s\n\n"+
			"Terrane uses external plugins to integrate with a variety of different infrastructure services. %s",
		strings.Join(problems, "\n  - "), suggestion)}
}
