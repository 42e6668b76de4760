package providertest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The coordinates every test provider is published under in the mirror.
const (
	Hostname  = "registry.terraform.io"
	Namespace = "terrane"
	Version   = "0.1.0"
)

// EnvCacheDir overrides where built mirrors are cached (default:
// os.UserCacheDir()/terrane-testproviders).
const EnvCacheDir = "TERRANE_TESTPROVIDERS_CACHE"

const commandPrefix = "terraform-provider-"

// Mirror is a filesystem mirror holding one build of every test provider.
type Mirror struct {
	// Dir is the mirror's root, suitable for a filesystem_mirror path.
	Dir   string
	types []string
}

var (
	buildOnce   sync.Once
	builtMirror *Mirror
	buildErr    error
)

// Build returns the mirror of test providers, compiling them on the first
// call in the test binary (or reusing a cached build of the same sources).
// It fails the test when the providers cannot be built.
func Build(t testing.TB) *Mirror {
	t.Helper()
	buildOnce.Do(func() { builtMirror, buildErr = build() })
	if buildErr != nil {
		t.Fatalf("building the test providers: %v", buildErr)
	}
	return builtMirror
}

// Types lists the provider type names in the mirror, e.g. "tpf", "tpsdk".
func (m *Mirror) Types() []string { return append([]string(nil), m.types...) }

// Source returns the provider source address of a test provider, e.g.
// "registry.terraform.io/terrane/tpf".
func (m *Mirror) Source(typeName string) string {
	return Hostname + "/" + Namespace + "/" + typeName
}

// Executable returns the path of a test provider's executable in the mirror.
func (m *Mirror) Executable(typeName string) string {
	return filepath.Join(m.Dir, Hostname, Namespace, typeName, Version,
		runtime.GOOS+"_"+runtime.GOARCH, commandPrefix+typeName+"_v"+Version)
}

// ModuleDir returns the directory of the test providers' Go module.
func ModuleDir() (string, error) {
	_, thisFile, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("cannot locate the providertest source file")
	}
	dir := filepath.Join(filepath.Dir(thisFile), "..", "..", "testproviders")
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return "", fmt.Errorf("test provider module not found at %s: %w", dir, err)
	}
	return dir, nil
}

func build() (*Mirror, error) {
	moduleDir, err := ModuleDir()
	if err != nil {
		return nil, err
	}
	types, err := providerTypes(moduleDir)
	if err != nil {
		return nil, err
	}
	cacheRoot, err := cacheRoot()
	if err != nil {
		return nil, err
	}
	// Sources edited while go build runs would leave binaries filed under
	// the wrong hash; such a build is discarded and done again.
	for range 3 {
		mirror, stale, err := buildAttempt(moduleDir, cacheRoot, types)
		if err != nil || !stale {
			return mirror, err
		}
	}
	return nil, fmt.Errorf("the sources in %s kept changing during the build", moduleDir)
}

// buildAttempt returns the cached mirror for the current sources, building it
// if needed; stale reports that the sources changed during the build.
func buildAttempt(moduleDir, cacheRoot string, types []string) (mirror *Mirror, stale bool, err error) {
	hash, err := sourceHash(moduleDir)
	if err != nil {
		return nil, false, err
	}
	mirror = &Mirror{Dir: filepath.Join(cacheRoot, hash), types: types}
	if mirror.complete() {
		return mirror, false, nil
	}
	if err := os.MkdirAll(cacheRoot, 0o755); err != nil {
		return nil, false, err
	}
	// Build into a private directory and rename it into place, so test
	// binaries building concurrently never see a half-written mirror.
	staging, err := os.MkdirTemp(cacheRoot, ".build-*")
	if err != nil {
		return nil, false, err
	}
	defer os.RemoveAll(staging)
	if err := compile(moduleDir, staging, types); err != nil {
		return nil, false, err
	}
	if after, err := sourceHash(moduleDir); err != nil || after != hash {
		return nil, true, err
	}
	if err := os.Rename(staging, mirror.Dir); err != nil && !mirror.complete() {
		return nil, false, fmt.Errorf("installing the built mirror at %s: %w", mirror.Dir, err)
	}
	pruneOldMirrors(cacheRoot, keptMirrors)
	return mirror, false, nil
}

// keptMirrors is how many builds stay cached: a few, so switching between
// branches does not rebuild, but not one per edit (each is ~100 MB).
const keptMirrors = 4

// pruneOldMirrors removes all but the newest keep mirrors under cacheRoot.
// It is best effort: a mirror in use by another test binary is at worst
// rebuilt by it.
func pruneOldMirrors(cacheRoot string, keep int) {
	entries, err := os.ReadDir(cacheRoot)
	if err != nil {
		return
	}
	type mirrorDir struct {
		path    string
		modTime int64
	}
	var mirrors []mirrorDir
	for _, entry := range entries {
		info, err := entry.Info()
		if err != nil || !entry.IsDir() || strings.HasPrefix(entry.Name(), ".") {
			continue
		}
		mirrors = append(mirrors, mirrorDir{filepath.Join(cacheRoot, entry.Name()), info.ModTime().UnixNano()})
	}
	sort.Slice(mirrors, func(i, j int) bool { return mirrors[i].modTime > mirrors[j].modTime })
	for i := keep; i < len(mirrors); i++ {
		_ = os.RemoveAll(mirrors[i].path)
	}
}

func (m *Mirror) complete() bool {
	for _, typeName := range m.types {
		if _, err := os.Stat(m.Executable(typeName)); err != nil {
			return false
		}
	}
	return true
}

// providerTypes lists the module's cmd/terraform-provider-<type> commands.
func providerTypes(moduleDir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(moduleDir, "cmd"))
	if err != nil {
		return nil, fmt.Errorf("listing test provider commands: %w", err)
	}
	var types []string
	for _, entry := range entries {
		if entry.IsDir() && strings.HasPrefix(entry.Name(), commandPrefix) {
			types = append(types, strings.TrimPrefix(entry.Name(), commandPrefix))
		}
	}
	if len(types) == 0 {
		return nil, fmt.Errorf("no %s* commands under %s/cmd", commandPrefix, moduleDir)
	}
	sort.Strings(types)
	return types, nil
}

// sourceHash digests everything that decides the binaries: the module's Go
// files and go.mod/go.sum, the Go toolchain and the target platform.
func sourceHash(moduleDir string) (string, error) {
	digest := sha256.New()
	fmt.Fprintf(digest, "%s %s %s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	err := filepath.WalkDir(moduleDir, func(path string, entry fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := entry.Name()
		if entry.IsDir() || !(strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") || name == "go.mod" || name == "go.sum") {
			return nil
		}
		rel, _ := filepath.Rel(moduleDir, path)
		file, err := os.Open(path)
		if err != nil {
			return err
		}
		defer file.Close()
		fmt.Fprintf(digest, "%s\n", filepath.ToSlash(rel))
		_, err = io.Copy(digest, file)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("hashing test provider sources: %w", err)
	}
	return hex.EncodeToString(digest.Sum(nil))[:24], nil
}

func cacheRoot() (string, error) {
	if dir := os.Getenv(EnvCacheDir); dir != "" {
		return dir, nil
	}
	userCache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory (set %s): %w", EnvCacheDir, err)
	}
	return filepath.Join(userCache, "terrane-testproviders"), nil
}

// compile builds all commands with one go build invocation (so shared
// packages compile once) and lays the binaries out as a mirror in dir.
func compile(moduleDir, dir string, types []string) error {
	binDir := filepath.Join(dir, ".bin")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return err
	}
	modules, err := nestedModules(moduleDir)
	if err != nil {
		return err
	}
	for _, module := range append([]string{moduleDir}, modules...) {
		if err := goBuild(module, binDir); err != nil {
			return err
		}
	}
	mirror := &Mirror{Dir: dir, types: types}
	for _, typeName := range types {
		target := mirror.Executable(typeName)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		built := filepath.Join(binDir, commandPrefix+typeName)
		if runtime.GOOS == "windows" {
			built += ".exe"
		}
		if err := os.Rename(built, target); err != nil {
			return fmt.Errorf("placing %s in the mirror: %w", typeName, err)
		}
	}
	if err := placePulumiProviders(binDir, dir); err != nil {
		return err
	}
	return os.RemoveAll(binDir)
}

// goBuild builds a module's commands (./cmd/...) into binDir with one go
// build invocation, so shared packages compile once.
func goBuild(moduleDir, binDir string) error {
	cmd := exec.Command("go", "build", "-buildvcs=false", "-o", binDir+string(filepath.Separator), "./cmd/...")
	cmd.Dir = moduleDir
	cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0")
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build in %s: %v\n%s", moduleDir, err, output.String())
	}
	return nil
}

// nestedModules lists the modules inside the test provider module (its
// directories with a go.mod of their own): providers built with SDKs whose
// dependencies cannot share one build list with the others, such as
// Pulumi's Terraform bridge and pulumi-go-provider, each pinning its own
// release of Pulumi's sdk.
func nestedModules(moduleDir string) ([]string, error) {
	entries, err := os.ReadDir(moduleDir)
	if err != nil {
		return nil, err
	}
	var modules []string
	for _, entry := range entries {
		dir := filepath.Join(moduleDir, entry.Name())
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); entry.IsDir() && err == nil {
			modules = append(modules, dir)
		}
	}
	return modules, nil
}

// pulumiPrefix starts the names of Pulumi provider commands.
const pulumiPrefix = "pulumi-resource-"

// PulumiDir is the directory, inside the mirror, laid out as a Pulumi
// plugin directory: pulumi/resource-NAME-vVERSION/pulumi-resource-NAME.
func (m *Mirror) PulumiDir() string { return filepath.Join(m.Dir, "pulumi") }

// PulumiExecutable returns the path of a Pulumi test provider (such as
// "tpulumi") in the mirror's Pulumi plugin directory.
func (m *Mirror) PulumiExecutable(name string) string {
	exe := pulumiPrefix + name
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	return filepath.Join(m.PulumiDir(), "resource-"+name+"-v"+Version, exe)
}

// placePulumiProviders moves the built pulumi-resource-* commands into the
// mirror's Pulumi plugin directory.
func placePulumiProviders(binDir, dir string) error {
	entries, err := os.ReadDir(binDir)
	if err != nil {
		return err
	}
	mirror := &Mirror{Dir: dir}
	for _, entry := range entries {
		name, ok := strings.CutPrefix(strings.TrimSuffix(entry.Name(), ".exe"), pulumiPrefix)
		if !ok {
			continue
		}
		target := mirror.PulumiExecutable(name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(binDir, entry.Name()), target); err != nil {
			return fmt.Errorf("placing %s in the mirror: %w", entry.Name(), err)
		}
	}
	return nil
}
