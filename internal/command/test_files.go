package command

import (
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/moduletest"
)

// defaultTestDirectory is where test files are looked for besides the
// working directory, unless -test-directory names another.
const defaultTestDirectory = "tests"

// loadTestFiles reads every test file of the configuration in the working
// directory, as init and test read them with the configuration: a file
// that cannot be decoded is an error of the configuration. A test
// directory other than the default that does not exist is warned of.
func loadTestFiles(testDir string) ([]*moduletest.File, map[string]*hcl.File, diags.Diagnostics) {
	var ds diags.Diagnostics
	if testDir != "" && testDir != defaultTestDirectory {
		if _, err := os.Stat(testDir); os.IsNotExist(err) {
			ds = ds.Append(diags.Warnf("Test directory does not exist", "Requested test directory %s does not exist.", filepath.ToSlash(filepath.Clean(testDir))))
		}
	}
	names, fds := moduletest.FindFiles(testDir)
	ds = ds.Append(fds)
	loader := moduletest.NewLoader()
	files := make([]*moduletest.File, 0, len(names))
	for _, name := range names {
		f := loader.Load(name)
		ds = ds.Append(f.Diagnostics)
		f.Diagnostics = nil
		files = append(files, f)
	}
	return files, loader.Sources(), ds
}

// testModuleCalls are the module blocks of the files' run blocks, as module
// calls for init to install.
func testModuleCalls(files []*moduletest.File) []modules.TestCall {
	var calls []modules.TestCall
	for _, f := range files {
		for _, run := range f.Runs {
			if run.Module == nil {
				continue
			}
			calls = append(calls, modules.TestCall{Path: moduletest.ModulePath(f.Name, run), Call: testModuleCall(run)})
		}
	}
	return calls
}

func testModuleCall(run *moduletest.Run) *config.ModuleCall {
	return &config.ModuleCall{Name: run.Name, SourceAddr: run.Module.Source, SourceRange: run.Module.SourceRange,
		DeclRange: run.Module.DeclRange, Config: hcl.EmptyBody()}
}

// loadTestModules loads the module of every run block that has one from
// where init installed it, by its source as the suite keys them. As in
// OpenTofu, a module init has not installed is an error of the
// configuration, found before any test runs.
func loadTestModules(parser *config.Parser, files []*moduletest.File) (map[string]*config.Config, diags.Diagnostics) {
	manifest, err := modules.LoadManifest(".")
	if err != nil {
		manifest = &modules.Manifest{Records: map[string]modules.Record{}}
	}
	var ds diags.Diagnostics
	out := map[string]*config.Config{}
	for _, f := range files {
		for _, run := range f.Runs {
			if run.Module == nil {
				continue
			}
			path := addrs.Module(moduletest.ModulePath(f.Name, run))
			dir, hd := config.InstalledCallDir(testModuleCall(run), path, manifest.Installed("."))
			ds = ds.Append(hd)
			if hd.HasErrors() {
				continue
			}
			cfg, hd := parser.LoadConfigWithModules(dir, manifest.InstalledUnder(".", path))
			ds = ds.Append(hd)
			if cfg != nil && !hd.HasErrors() {
				out[filepath.Clean(run.Module.Source)] = cfg
			}
		}
	}
	return out, ds
}

// testProviderBlocks stands for the provider blocks of the test files, as
// a module beside the root one whose providers init installs too: each is
// the provider its local name means in the root module, as OpenTofu
// counts them (mock_provider blocks need no provider).
func testProviderBlocks(root *config.Module, files []*moduletest.File) *config.Config {
	mod := &config.Module{RequiredProviders: root.RequiredProviders, ProviderConfigs: map[addrs.LocalProviderConfig]*config.Provider{}}
	for _, f := range files {
		for key, block := range f.Providers {
			mod.ProviderConfigs[key] = block
		}
	}
	return &config.Config{Module: mod}
}
