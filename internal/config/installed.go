package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
)

// InstalledModules tells how init installed the module call at path, or
// false when the call is not installed. The modules package's manifest
// provides one.
type InstalledModules func(path addrs.Module) (InstalledModule, bool)

// InstalledModule is one installed module call: where it is, and the source
// and version it was installed from.
type InstalledModule struct {
	Dir     string
	Source  string
	Version string
}

// LoadConfigWithModules is LoadConfig for a working directory where init
// has installed modules: a call whose source is not a local path is read
// from the directory installed gives for it.
func (p *Parser) LoadConfigWithModules(dir string, installed InstalledModules) (*Config, hcl.Diagnostics) {
	return p.loadConfig(dir, installed)
}

// childModuleDir returns the directory of a module call: the one init
// recorded for it, or, when the configuration is read without init's
// record, the local path. As OpenTofu, it refuses a call init did not
// install, an installed copy of another source or of a version the call
// no longer allows, and a recorded directory that cannot be read: init
// must install the module the configuration asks for.
func childModuleDir(parent *Config, call *ModuleCall, installed InstalledModules) (string, hcl.Diagnostics) {
	if installed == nil {
		return localModuleDir(parent.Module.SourceDir, call)
	}
	return InstalledCallDir(call, parent.Path.Child(call.Name), installed)
}

// InstalledCallDir is the directory init recorded for call at path, with
// OpenTofu's errors for a call init did not install or whose directory
// cannot be read. It serves calls outside a configuration's tree too, such
// as a test file's run block modules.
func InstalledCallDir(call *ModuleCall, path addrs.Module, installed InstalledModules) (string, hcl.Diagnostics) {
	record, ok := installed(path)
	if !ok {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Module not installed",
			Detail:   `This module is not yet installed. Run "terrane init" to install all modules required by this configuration.`,
			Subject:  call.DeclRange.Ptr(),
		}}
	}
	diags := checkInstalledModule(call, record)
	if info, err := os.Stat(record.Dir); record.Dir == "" || err != nil || !info.IsDir() {
		return "", append(diags, unreadableInstalledModule(call, record.Dir))
	}
	return filepath.Clean(record.Dir), diags
}

// unreadableInstalledModule is OpenTofu's error for an installed module
// whose directory cannot be read.
func unreadableInstalledModule(call *ModuleCall, dir string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Module not installed",
		Detail:   fmt.Sprintf(`This module's local cache directory %s could not be read. Run "terrane init" to install all modules required by this configuration.`, dir),
		Subject:  call.DeclRange.Ptr(),
	}
}

func checkInstalledModule(call *ModuleCall, record InstalledModule) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if call.SourceAddr != "" && call.SourceAddr != record.Source {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Module source has changed",
			Detail:   fmt.Sprintf(`The source address was changed from %q to %q since this module was installed. Run "terrane init" to install all modules required by this configuration.`, record.Source, call.SourceAddr),
			Subject:  call.SourceRange.Ptr(),
		})
	}
	if call.Version.Source == "" {
		return diags
	}
	if record.Version == "" {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Module version requirements have changed",
			Detail:   `The version requirements have changed since this module was installed and the installed version is no longer acceptable. Run "terrane init" to install all modules required by this configuration.`,
			Subject:  call.SourceRange.Ptr(),
		})
	}
	version, err := versions.ParseVersion(record.Version)
	if err == nil && call.Version.Required.Has(version) {
		return diags
	}
	return append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Module version requirements have changed",
		Detail:   fmt.Sprintf(`The version requirements have changed since this module was installed and the installed version (%s) is no longer acceptable. Run "terrane init" to install all modules required by this configuration.`, record.Version),
		Subject:  call.SourceRange.Ptr(),
	})
}
