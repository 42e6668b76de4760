package modules

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// packageRoot stands for the root of a module package in packageStep
// paths, so that a local path leaving the package is seen as it loses
// the prefix.
const packageRoot = "*/"

// packageStep is where a module inside a remote or registry package is:
// the package's address and the module's path in it; escapedBy names the
// first module whose local source led out of the package, if one did.
type packageStep struct {
	address   string
	path      string
	escapedBy string
}

// installLocal records a module in a directory of its caller's: nothing
// is copied. As OpenTofu, it resolves symbolic links in the path, reports
// the module when it is new, and, when the directory cannot be read,
// says so twice — the link and the directory — or, inside a package,
// that the path left the package.
func (w *installWalk) installLocal(call *config.ModuleCall, key, moduleDir string) (string, bool) {
	dir, err := filepath.Rel(w.rootDir, filepath.Join(moduleDir, filepath.FromSlash(call.SourceAddr)))
	if err != nil {
		dir = filepath.Join(moduleDir, call.SourceAddr)
	}
	step, inPackage := w.packages[parentKey(key)]
	if inPackage {
		step.path = path.Join(step.path, filepath.ToSlash(call.SourceAddr))
		if step.escapedBy == "" && !strings.HasPrefix(step.path, packageRoot) {
			step.escapedBy = moduleAddress(key)
		}
		w.packages[key] = step
	}
	resolved, err := filepath.EvalSymlinks(filepath.Join(w.rootDir, dir))
	if err == nil {
		if rel, relErr := filepath.Rel(w.rootDir, resolved); relErr == nil && !filepath.IsAbs(dir) {
			resolved = rel
		}
	}
	if _, kept := w.reusable(call, key); !kept || err != nil {
		w.fresh[key] = true
		w.event(Event{Key: key, Dir: filepath.ToSlash(resolved)})
	}
	if err == nil {
		return filepath.ToSlash(resolved), true
	}
	var ds diags.Diagnostics
	ds = ds.Append(diags.Errorf("Unreadable module directory", "Unable to evaluate directory symlink: %s", err))
	ds = ds.Append(diags.Errorf("Unreadable module directory", "The directory  could not be read for module %q at %s:%d.",
		call.Name, call.DeclRange.Filename, call.DeclRange.Start.Line))
	if inPackage && step.escapedBy != "" {
		ds = diags.Diagnostics{diags.Errorf("Local module path escapes module package",
			"The given source directory for %s would be outside of its containing package %q. Local source addresses starting with \"../\" must stay within the same package that the calling module belongs to.",
			step.escapedBy, step.address)}
	}
	w.diags = w.diags.Append(ds)
	return "", false
}

// moduleAddress writes a module key ("a.b") as a module address
// ("module.a.module.b").
func moduleAddress(key string) string {
	return "module." + strings.ReplaceAll(key, ".", ".module.")
}

// packageStep is where a module at the root of s's package, or in its
// subdirectory, is.
func (s Source) packageStep() packageStep {
	return packageStep{address: s.packageAddress(), path: path.Join(packageRoot, s.Subdir)}
}
