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

// CheckInstalledProviders reports, as OpenTofu does before a command
// uses its backend, the providers the dependency lock file selects that
// have no package installed in the data directory of dir. Providers a dev
// override or a reattachment supplies need none.
func CheckInstalledProviders(dir string) diags.Diagnostics {
	locks, ds := depsfile.LoadFile(LockFilePath(dir))
	if ds.HasErrors() || locks == nil {
		return nil
	}
	cli, _ := cliconfig.Load(cliconfig.Environment{WorkingDir: dir})
	overrides := devOverrides(cli)
	reattached, _ := plugin.ParseReattachProviders(os.Getenv(plugin.EnvReattachProviders))
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
		problems = append(problems, fmt.Sprintf("\n  - %s: there is no package for %s %s cached in %s",
			provider, pkg, lock.Version(), ProvidersDir(dir)))
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	suggestion := "To download the plugins required for this configuration, run:\n  terrane init"
	if os.Getenv("TF_IN_AUTOMATION") != "" {
		suggestion = "You must install the required plugins before running Terrane operations."
	}
	return diags.Diagnostics{diags.Errorf("Required plugins are not installed",
		"The installed provider plugins are not consistent with the packages selected in the dependency lock file:%s\n\n"+
			"Terrane uses external plugins to integrate with a variety of different infrastructure services. %s",
		strings.Join(problems, ""), suggestion)}
}
