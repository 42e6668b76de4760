package modules

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

// Installer installs a configuration's module calls.
type Installer struct {
	// Parser reads module directories; nil means a new config.Parser. Pass
	// the one init renders diagnostics with, so sources show in them.
	Parser *config.Parser
	// Network reaches module registries and HTTP archives; nil means the
	// default one.
	Network *discovery.Network
	// Upgrade fetches every non-local module again, registry modules at
	// the newest version the constraints allow.
	Upgrade bool
	// Events, when set, is told what is installed, for init's output.
	Events func(Event)
	// TestCalls are the modules of test files' run blocks, installed after
	// the configuration's own, each under the key its Path gives
	// ("test.main.setup"), as OpenTofu installs them.
	TestCalls []TestCall
}

// TestCall is the module block of a test file's run block.
type TestCall struct {
	Path []string
	Call *config.ModuleCall
}

// Event is one module installed, as OpenTofu's installer reports it: a
// module kept as it was installed before is not reported.
type Event struct {
	// Key is the module call ("app.db").
	Key string
	// Source is the address of the package downloaded, or "" for a local
	// module, which needs no download.
	Source string
	// Version is the registry version selected, or "".
	Version string
	// Dir is where the module is, relative to the root module.
	Dir string
}

func (i *Installer) network() *discovery.Network {
	if i.Network == nil {
		i.Network = &discovery.Network{}
	}
	return i.Network
}

// Install installs every module the configuration in rootDir calls,
// directly or through other modules, writes the manifest and returns it.
// Modules whose source (and, for registry modules, a version still meeting
// the constraints) is unchanged are reused unless Upgrade is set.
func (i *Installer) Install(ctx context.Context, rootDir string) (*Manifest, diags.Diagnostics) {
	if i.Parser == nil {
		i.Parser = config.NewParser()
	}
	previous, err := LoadManifest(rootDir)
	if err != nil {
		previous = &Manifest{Records: map[string]Record{}}
	}
	walk := &installWalk{installer: i, rootDir: rootDir, previous: previous, fresh: map[string]bool{}, packages: map[string]packageStep{},
		manifest: &Manifest{Records: map[string]Record{"": {Key: "", Source: "", Dir: "."}}}}
	root, hclDiags := i.Parser.LoadModule(rootDir)
	walk.diags = walk.diags.Append(hclDiags)
	if root != nil {
		static := i.Parser.StaticRoot(root, rootDir)
		stack := []string{filepath.Clean(rootDir)}
		walk.installCalls(ctx, root, static, nil, rootDir, stack)
		for _, tc := range i.TestCalls {
			walk.installTree(ctx, tc.Call, static, tc.Path, rootDir, stack)
		}
	}
	// As OpenTofu, what was installed is recorded even when something
	// failed: later commands then say which call is not installed.
	if err := walk.manifest.Save(rootDir); err != nil {
		walk.diags = walk.diags.Append(diags.Errorf("Cannot save the module manifest", "%s.", err))
	}
	return walk.manifest, walk.diags
}

type installWalk struct {
	installer *Installer
	rootDir   string
	previous  *Manifest
	manifest  *Manifest
	diags     diags.Diagnostics
	// fresh holds the keys installed anew in this run: their calls'
	// previous records no longer count.
	fresh map[string]bool
	// packages say, for each module inside a remote or registry package,
	// which package and where in it.
	packages map[string]packageStep
}

// installCalls installs the calls of one module, then the modules they
// call in turn. static works out sources and versions built from
// variables and locals; moduleDir is the module's directory on disk; stack
// guards against a module calling itself through local paths.
func (w *installWalk) installCalls(ctx context.Context, mod *config.Module, static *config.StaticModule, path []string, moduleDir string, stack []string) {
	names := make([]string, 0, len(mod.ModuleCalls))
	for name := range mod.ModuleCalls {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		call := mod.ModuleCalls[name]
		if resolveDiags := static.ResolveCall(call); resolveDiags.HasErrors() {
			w.diags = w.diags.Append(resolveDiags)
			continue
		}
		callPath := append(append([]string(nil), path...), name)
		if !w.installTree(ctx, call, static, callPath, moduleDir, stack) {
			return
		}
	}
}

// installTree installs one call, recorded under callPath, and the modules
// it calls in turn; false when the call closes a cycle, after which its
// caller's other calls are left alone.
func (w *installWalk) installTree(ctx context.Context, call *config.ModuleCall, static *config.StaticModule, callPath []string, moduleDir string, stack []string) bool {
	dir, ok := w.installCall(ctx, call, callPath, moduleDir)
	if !ok {
		return true
	}
	absolute := filepath.Clean(filepath.Join(w.rootDir, dir))
	for _, seen := range stack {
		if seen == absolute {
			w.diags = w.diags.Append(callError(call, "Module call cycle",
				fmt.Sprintf("Module %q calls %s, which is already being installed higher up the tree. A module cannot call itself.", call.Name, call.SourceAddr)))
			return false
		}
	}
	child, hclDiags := w.installer.Parser.LoadModule(absolute)
	w.diags = w.diags.Append(hclDiags)
	if child != nil {
		childStatic := static.Child(call, child)
		w.diags = w.diags.Append(childStatic.CheckConstVariables())
		w.installCalls(ctx, child, childStatic, callPath, absolute, append(stack, absolute))
	}
	return true
}

// installCall installs one call and records it, returning its directory
// relative to the root module.
func (w *installWalk) installCall(ctx context.Context, call *config.ModuleCall, path []string, moduleDir string) (string, bool) {
	key := strings.Join(path, ".")
	source, err := ParseSource(call.SourceAddr)
	if err != nil {
		w.diags = w.diags.Append(callError(call, "Invalid module source address",
			fmt.Sprintf("Module %q has source %q: %s.", call.Name, call.SourceAddr, err)))
		return "", false
	}
	if call.Version.Source != "" && source.Kind != SourceRegistry {
		w.diags = w.diags.Append(callError(call, "Invalid module version constraint",
			fmt.Sprintf("Module %q has a version constraint, but versions apply only to module registry sources; remove the version argument or pin the version in the source address (such as ?ref= for git).", call.Name)))
		return "", false
	}
	record := Record{Key: key, Source: call.SourceAddr}
	switch source.Kind {
	case SourceLocal:
		dir, ok := w.installLocal(call, key, moduleDir)
		if !ok {
			// As OpenTofu, the call is recorded without a directory, so
			// later commands say its directory could not be read.
			w.manifest.Records[key] = record
			return "", false
		}
		record.Dir = dir
	default:
		installed, ok := w.installRemote(ctx, call, source, key, moduleDir)
		if !ok {
			return "", false
		}
		record = installed
		w.packages[key] = source.packageStep()
	}
	w.manifest.Records[key] = record
	return filepath.FromSlash(record.Dir), true
}

// installRemote installs a registry or remote module under Dir/KEY, or
// keeps the copy installed before when it still fits.
func (w *installWalk) installRemote(ctx context.Context, call *config.ModuleCall, source Source, key, moduleDir string) (Record, bool) {
	packageDir := filepath.Join(Dir(), key)
	record := Record{Key: key, Source: call.SourceAddr, Dir: filepath.ToSlash(filepath.Join(packageDir, source.Subdir))}
	if previous, reusable := w.reusable(call, key); reusable {
		return previous, true
	}
	w.fresh[key] = true
	address := source.Remote
	if source.Kind == SourceRegistry {
		version, location, ok := w.resolveRegistry(ctx, call, source)
		if !ok {
			return Record{}, false
		}
		record.Version = version.String()
		address = location
		// A registry location may itself carry a subdirectory.
		if packagePart, subdir := splitSubdir(location); subdir != "" {
			address = packagePart
			record.Dir = filepath.ToSlash(filepath.Join(packageDir, subdir, source.Subdir))
		}
	}
	w.event(Event{Key: key, Source: source.packageAddress(), Version: record.Version, Dir: record.Dir})
	if err := w.installer.fetchPackage(ctx, address, filepath.Join(w.rootDir, packageDir), moduleDir); err != nil {
		w.diags = w.diags.Append(callError(call, "Failed to download module",
			fmt.Sprintf("Module %q could not be installed from %s: %s.", call.Name, call.SourceAddr, err)))
		return Record{}, false
	}
	if info, err := os.Stat(filepath.Join(w.rootDir, filepath.FromSlash(record.Dir))); err != nil || !info.IsDir() {
		w.diags = w.diags.Append(callError(call, "Module directory not found",
			fmt.Sprintf("The package of module %q from %s has no directory %q; check the //subdirectory part of the source address.", call.Name, call.SourceAddr, source.Subdir)))
		return Record{}, false
	}
	return record, true
}

// reusable reports whether the previous installation of key can be kept:
// same source, directory still present, a registry version still meeting
// the constraints, and no upgrade asked for.
func (w *installWalk) reusable(call *config.ModuleCall, key string) (Record, bool) {
	previous, found := w.previous.Records[key]
	if w.installer.Upgrade || !found || previous.Source != call.SourceAddr || w.fresh[parentKey(key)] {
		return Record{}, false
	}
	if previous.Dir == "" { // a failed installation
		return Record{}, false
	}
	if info, err := os.Stat(filepath.Join(w.rootDir, filepath.FromSlash(previous.Dir))); err != nil || !info.IsDir() {
		return Record{}, false
	}
	if previous.Version != "" {
		version, err := versions.ParseVersion(previous.Version)
		if err != nil || (call.Version.Source != "" && !call.Version.Required.Has(version)) {
			return Record{}, false
		}
	}
	return previous, true
}

// resolveRegistry picks the newest version meeting the call's constraint
// and asks the registry where its package is.
func (w *installWalk) resolveRegistry(ctx context.Context, call *config.ModuleCall, source Source) (versions.Version, string, bool) {
	client := registryClient{network: w.installer.network()}
	pkg := source.Registry.Package
	available, err := client.versions(ctx, pkg)
	if err != nil {
		w.diags = w.diags.Append(callError(call, "Module registry lookup failed",
			fmt.Sprintf("Module %q: %s. Check the source address, the network and the credentials for %s.", call.Name, err, pkg.Host.ForDisplay())))
		return versions.Unspecified, "", false
	}
	allowed := versions.All
	if call.Version.Source != "" {
		allowed = call.Version.Required
	}
	version := available.NewestInSet(allowed)
	if version == versions.Unspecified {
		w.diags = w.diags.Append(callError(call, "No module version matches the constraint",
			fmt.Sprintf("Module %q: %s has no version meeting %q; available versions: %s. Change the version argument.",
				call.Name, pkg.ForDisplay(), call.Version.Source, versionList(available))))
		return versions.Unspecified, "", false
	}
	location, err := client.location(ctx, pkg, version)
	if err != nil {
		w.diags = w.diags.Append(callError(call, "Module registry lookup failed",
			fmt.Sprintf("Module %q: cannot find the package of %s v%s: %s.", call.Name, pkg.ForDisplay(), version, err)))
		return versions.Unspecified, "", false
	}
	return version, location, true
}

// parentKey is the key of the module that makes the call key.
func parentKey(key string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[:i]
	}
	return ""
}

func (w *installWalk) event(event Event) {
	if w.installer.Events != nil {
		w.installer.Events(event)
	}
}

func versionList(list versions.List) string {
	if len(list) == 0 {
		return "none"
	}
	names := make([]string, len(list))
	for i, version := range list {
		names[i] = version.String()
	}
	return strings.Join(names, ", ")
}

func callError(call *config.ModuleCall, summary, detail string) diags.Diagnostic {
	diag := diags.Errorf(summary, "%s", detail)
	subject := call.SourceRange
	if subject.Filename == "" {
		subject = call.DeclRange
	}
	diag.Subject = subject.Ptr()
	return diag
}
