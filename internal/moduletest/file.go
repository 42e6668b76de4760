package moduletest

import (
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// Command is what a run block does: an apply (the default) or a plan.
type Command int

const (
	ApplyCommand Command = iota
	PlanCommand
)

// File is one test file: runs to execute in order, with the variables,
// providers, mocks and overrides they share.
type File struct {
	// Name is the file's path as the command shows it: relative to the
	// working directory, such as tests/main.tftest.hcl.
	Name string

	Variables     map[string]hcl.Expression
	Providers     map[addrs.LocalProviderConfig]*config.Provider
	MockProviders map[addrs.LocalProviderConfig]*MockProvider
	Overrides     []*OverrideResource
	ModuleMocks   []*OverrideModule
	Runs          []*Run

	// Diagnostics are the problems reading the file; with errors among
	// them none of its runs are executed.
	Diagnostics diags.Diagnostics
	// Status is the file's outcome once it ran: the worst of its runs'.
	Status Status
}

// Run is one run block.
type Run struct {
	Name      string
	Index     int
	DeclRange hcl.Range

	Command   Command
	Options   RunOptions
	Variables map[string]hcl.Expression
	// Providers, when not empty, lists the test file's provider
	// configurations this run uses, under the names the module knows them
	// by; otherwise every one of the file's is used. HasProviders tells
	// whether the run had a providers argument at all.
	Providers    []config.PassedProviderConfig
	HasProviders bool
	Asserts      []*config.CheckRule
	// Module, when set, is the module the run plans and applies instead
	// of the configuration under test.
	Module         *RunModule
	ExpectFailures []hcl.Traversal
	Overrides      []*OverrideResource
	ModuleMocks    []*OverrideModule

	// The outcome, once the run is done.
	Status      Status
	Diagnostics diags.Diagnostics
	// Verbose is set when the suite is verbose and the run got as far as
	// a plan or state to show.
	Verbose *Verbose
}

// RunOptions are a run's plan_options.
type RunOptions struct {
	RefreshOnly bool
	Refresh     bool
	Replace     []hcl.Traversal
	Target      []hcl.Traversal
}

// ModulePath is where init installs the module of run, a run of the test
// file named name, and records it: "test", the file's directory, its name
// without ".tftest.hcl", and the run's name, as OpenTofu keys it
// (tests/main.tftest.hcl's run "setup" is test.tests.main.setup).
func ModulePath(name string, run *Run) []string {
	path := []string{"test"}
	if dir := filepath.ToSlash(filepath.Dir(name)); dir != "." {
		path = append(path, strings.Split(dir, "/")...)
	}
	return append(path, strings.TrimSuffix(filepath.Base(name), ".tftest.hcl"), run.Name)
}

// RunModule is a run's module block.
type RunModule struct {
	Source      string
	SourceRange hcl.Range
	DeclRange   hcl.Range
}

// MockProvider is a mock_provider block: a provider configuration whose
// resources and data sources are answered with generated values, without
// calling the provider.
type MockProvider struct {
	Name  string
	Alias string
	// ForEach expands the mocked configuration as the provider block's
	// for_each does; evaluated in the test file's context.
	ForEach   hcl.Expression
	DeclRange hcl.Range
	Mocks     []*MockResource
	Overrides []*OverrideResource
}

// Addr is the provider configuration the mock stands for.
func (m *MockProvider) Addr() addrs.LocalProviderConfig {
	return addrs.LocalProviderConfig{LocalName: m.Name, Alias: m.Alias}
}

// MockResource is a mock_resource or mock_data block: the values every
// object of one type gets for its computed attributes.
type MockResource struct {
	Mode      addrs.ResourceMode
	Type      string
	Defaults  map[string]cty.Value
	DeclRange hcl.Range
}

// OverrideResource is an override_resource or override_data block: one
// resource whose objects are not planned, read or created by its provider
// but given these values.
type OverrideResource struct {
	Target hcl.Traversal
	Addr   addrs.ConfigResource
	// Mode is the block's: data for override_data. A target of the other
	// mode is an error when a run uses the block.
	Mode      addrs.ResourceMode
	Values    map[string]cty.Value
	DeclRange hcl.Range
}

// blockName is the block type that declared the override.
func (o *OverrideResource) blockName() string {
	if o.Mode == addrs.DataResourceMode {
		return "override_data"
	}
	return "override_resource"
}

// OverrideModule is an override_module block: a module call whose contents
// are left out and whose outputs have these values (null when not given).
type OverrideModule struct {
	Target    hcl.Traversal
	Addr      addrs.Module
	Outputs   map[string]cty.Value
	DeclRange hcl.Range
}
