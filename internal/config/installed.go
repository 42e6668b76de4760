package config

import (
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
)

// InstalledModules tells where init installed the module call at path:
// its directory, or false when the call is not installed. The modules
// package's manifest provides one.
type InstalledModules func(path addrs.Module) (dir string, ok bool)

// LoadConfigWithModules is LoadConfig for a working directory where init
// has installed modules: a call whose source is not a local path is read
// from the directory installed gives for it.
func (p *Parser) LoadConfigWithModules(dir string, installed InstalledModules) (*Config, hcl.Diagnostics) {
	return p.loadConfig(dir, installed)
}

// childModuleDir returns the directory of a module call: the installed
// copy when there is one, else the local path.
func childModuleDir(parent *Config, call *ModuleCall, installed InstalledModules) (string, hcl.Diagnostics) {
	if installed != nil {
		if dir, ok := installed(parent.Path.Child(call.Name)); ok {
			return filepath.Clean(dir), nil
		}
	}
	return localModuleDir(parent.Module.SourceDir, call)
}
