package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
)

// Config is a node of the module tree: one module and the modules it calls.
type Config struct {
	Root     *Config
	Parent   *Config
	Path     addrs.Module
	Children map[string]*Config
	Module   *Module

	// CallRange and SourceAddr describe the module block that called this
	// module; both are empty for the root.
	CallRange  hcl.Range
	SourceAddr string
}

// Descendant returns the config of the module at path below c, or nil.
func (c *Config) Descendant(path addrs.Module) *Config {
	current := c
	for _, name := range path {
		current = current.Children[name]
		if current == nil {
			return nil
		}
	}
	return current
}

// IsRemoteModule reports whether c, or a module above it, comes from a
// source other than a local path, as OpenTofu tells them apart:
// -deprecation=module:local hides the deprecation warnings of such modules.
func (c *Config) IsRemoteModule() bool {
	for ; c != nil && c.Parent != nil; c = c.Parent {
		if !strings.HasPrefix(c.SourceAddr, "./") && !strings.HasPrefix(c.SourceAddr, "../") {
			return true
		}
	}
	return false
}

// DeepEach calls fn for c and every module below it, parents first and
// children in name order.
func (c *Config) DeepEach(fn func(*Config)) {
	fn(c)
	names := make([]string, 0, len(c.Children))
	for name := range c.Children {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c.Children[name].DeepEach(fn)
	}
}

// LoadModule reads the module in dir without its children.
func (p *Parser) LoadModule(dir string) (*Module, hcl.Diagnostics) {
	primaryPaths, overridePaths, diags := moduleFiles(dir)
	if diags.HasErrors() {
		return nil, diags
	}
	files, moreDiags := p.loadFiles(append(primaryPaths, overridePaths...))
	diags = append(diags, moreDiags...)
	primary, override := files[:len(primaryPaths)], files[len(primaryPaths):]
	mod, moreDiags := newModule(dir, primary, override)
	diags = append(diags, moreDiags...)
	return mod, onlyIncompatibility(diags)
}

// Selection names the blocks a selective load of a module keeps, as
// OpenTofu's selective loaders do for commands that need only part of the
// configuration.
type Selection int

const (
	// SelectEncryption keeps the variables, locals and encryption blocks:
	// what commands that read state need to decrypt it.
	SelectEncryption Selection = iota + 1
	// SelectBackend keeps the variables, locals and backend blocks: what
	// opening the state store needs.
	SelectBackend
)

// LoadModuleSelective reads the module in dir as OpenTofu reads it for
// commands that need only some of its blocks: every file is parsed and
// decoded, with its errors, but only the blocks sel names make up the
// module, so that mistakes between other blocks (two resources of one
// name, for one) do not stop such commands.
func (p *Parser) LoadModuleSelective(dir string, sel Selection) (*Module, hcl.Diagnostics) {
	primaryPaths, overridePaths, diags := moduleFiles(dir)
	if diags.HasErrors() {
		return nil, diags
	}
	files, moreDiags := p.loadFiles(append(primaryPaths, overridePaths...))
	diags = append(diags, moreDiags...)
	for i, file := range files {
		if file == nil {
			continue
		}
		kept := &File{Path: file.Path, Variables: file.Variables, Locals: file.Locals}
		switch sel {
		case SelectEncryption:
			kept.Encryptions = file.Encryptions
		case SelectBackend:
			kept.Backends, kept.CloudConfigs = file.Backends, file.CloudConfigs
		}
		files[i] = kept
	}
	primary, override := files[:len(primaryPaths)], files[len(primaryPaths):]
	mod, moreDiags := newModule(dir, primary, override)
	diags = append(diags, moreDiags...)
	return mod, onlyIncompatibility(diags)
}

// LoadConfig reads the root module in dir and every module it calls from
// a local path, then checks the tree's references.
func (p *Parser) LoadConfig(dir string) (*Config, hcl.Diagnostics) {
	return p.loadConfig(dir, nil)
}

func (p *Parser) loadConfig(dir string, installed InstalledModules) (*Config, hcl.Diagnostics) {
	mod, diags := p.LoadModule(dir)
	if mod == nil {
		return nil, diags
	}
	root := &Config{Path: addrs.RootModule, Module: mod, Children: map[string]*Config{}}
	root.Root = root
	if diags.HasErrors() {
		// As OpenTofu, a root module with errors is not looked into any
		// further: its module calls may be as wrong as the rest.
		return root, diags
	}
	static := p.StaticRoot(mod, dir)
	diags = append(diags, static.CheckConstVariables()...)
	if diags.HasErrors() {
		// Nor are the calls of a root module whose constant variables
		// are wrong: their modules may not be installed yet.
		return root, diags
	}
	diags = append(diags, p.loadChildren(root, static, []string{filepath.Clean(dir)}, installed)...)
	diags = append(diags, checkRootOutputs(mod)...)
	if !diags.HasErrors() {
		// As OpenTofu, only a tree that loaded without errors has its
		// provider configurations checked.
		diags = append(diags, validateProviderConfigs(nil, root, nil)...)
	}
	return root, diags
}

// ValidateReferences reports, in every module of the tree, references to
// things the module does not declare and uses of count, each and self
// where they are not available. As in OpenTofu, loading a configuration
// does not check them: validation does (package validate), which every
// plan runs first.
func ValidateReferences(root *Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	root.DeepEach(func(c *Config) {
		diags = append(diags, validateReferences(c)...)
	})
	return diags
}

// checkRootOutputs refuses ephemeral outputs in the root module, as
// OpenTofu does: a root output is recorded once the run ends, and an
// ephemeral value must not outlive it. A child module's ephemeral output
// hands its value to the caller within the run.
func checkRootOutputs(root *Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(root.Outputs) {
		if output := root.Outputs[name]; output.Ephemeral {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid output configuration",
				Detail:   "Root modules are not allowed to have outputs defined as ephemeral. Remove ephemeral = true from this output; to export a value built from ephemeral values, wrap it in ephemeralasnull().",
				Subject:  output.DeclRange.Ptr(),
			})
		}
	}
	return diags
}

// LoadConfigDir is a shortcut for NewParser().LoadConfig(dir).
func LoadConfigDir(dir string) (*Config, hcl.Diagnostics) {
	return NewParser().LoadConfig(dir)
}

func (p *Parser) loadChildren(parent *Config, static *StaticModule, stack []string, installed InstalledModules) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, call := range parent.Module.ModuleCalls {
		if moreDiags := static.ResolveCall(call); moreDiags.HasErrors() {
			diags = append(diags, moreDiags...)
			continue
		}
		childDir, moreDiags := childModuleDir(parent, call, installed)
		diags = append(diags, moreDiags...)
		if childDir == "" {
			continue
		}
		if containsString(stack, childDir) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Module call cycle",
				Detail:   fmt.Sprintf("Module %q calls %s, which is already being loaded higher up the tree: %s. A module cannot call itself.", call.Name, call.SourceAddr, strings.Join(stack, " → ")),
				Subject:  call.SourceRange.Ptr(),
			})
			continue
		}
		mod, moreDiags := p.LoadModule(childDir)
		if mod == nil && installed != nil {
			// As OpenTofu, which says the installed copy is unreadable
			// rather than why.
			moreDiags = hcl.Diagnostics{unreadableInstalledModule(call, childDir)}
		}
		diags = append(diags, moreDiags...)
		if mod == nil {
			continue
		}
		child := &Config{
			Root: parent.Root, Parent: parent, Path: parent.Path.Child(call.Name),
			Module: mod, Children: map[string]*Config{}, CallRange: call.DeclRange, SourceAddr: call.SourceAddr,
		}
		parent.Children[call.Name] = child
		childStatic := static.Child(call, mod)
		diags = append(diags, childStatic.CheckConstVariables()...)
		diags = append(diags, p.loadChildren(child, childStatic, append(stack, childDir), installed)...)
	}
	return diags
}

func containsString(list []string, s string) bool {
	for _, item := range list {
		if item == s {
			return true
		}
	}
	return false
}

// localModuleDir returns the directory of a module call's source when it is
// a local path. Other sources need installing first.
func localModuleDir(parentDir string, call *ModuleCall) (string, hcl.Diagnostics) {
	source := call.SourceAddr
	if strings.HasPrefix(source, "./") || strings.HasPrefix(source, "../") || source == "." || source == ".." {
		if call.Version.Source != "" {
			return "", hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid registry module source address",
				Detail:   "A local module source cannot have a version constraint: versions apply only to registry modules. Remove the version argument.",
				Subject:  call.Version.DeclRange.Ptr(),
			}}
		}
		return filepath.Clean(filepath.Join(parentDir, filepath.FromSlash(source))), nil
	}
	if source == "" {
		return "", nil // already reported as a missing argument
	}
	return "", hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Module not installed",
		Detail:   fmt.Sprintf("Module %q comes from %q, which is not a local path and has not been installed. Run \"terrane init\" to install it.", call.Name, source),
		Subject:  call.SourceRange.Ptr(),
	}}
}

// HasOwnProviderConfig reports whether the blocks of c's module that use
// the provider configuration local use the module's own provider block
// for it. As in OpenTofu, an empty block (nothing but an alias) in a
// child module whose call passes a configuration under that name stands
// in for the passed one, a proxy kept from before configuration_aliases.
func (c *Config) HasOwnProviderConfig(local addrs.LocalProviderConfig) bool {
	p, ok := c.Module.ProviderConfigs[local]
	if !ok {
		return false
	}
	if c.Parent == nil || len(c.Path) == 0 {
		return true
	}
	if _, diags := p.Config.Content(&hcl.BodySchema{}); diags.HasErrors() {
		return true // not empty: a configuration of its own
	}
	call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
	if call == nil {
		return true
	}
	for _, pp := range call.Providers {
		if pp.InChild == local {
			return false
		}
	}
	return true
}

// CallArgument is the expression the call of module c gives the child's
// variable name; nil for the root module or an argument the call leaves
// unset.
func (c *Config) CallArgument(name string) hcl.Expression {
	if c.Parent == nil {
		return nil
	}
	call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
	if call == nil || call.Config == nil {
		return nil
	}
	attrs, _ := call.Config.JustAttributes()
	if attr, ok := attrs[name]; ok {
		return attr.Expr
	}
	return nil
}
