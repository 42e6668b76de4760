package config

import (
	"github.com/apparentlymart/go-versions/versions"
	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
)

// Module is one module directory's configuration: the merged content of all
// its files, override files applied.
type Module struct {
	SourceDir string

	RequiredProviders map[string]*RequiredProvider
	Backend           *Backend
	CloudConfig       *Backend
	// Encryption is the module's encryption block (terraform { encryption
	// { ... } }); only the root module's is used.
	Encryption *Encryption

	ProviderConfigs map[addrs.LocalProviderConfig]*Provider
	// ProviderMetas are the terraform block's provider_meta blocks, by
	// provider local name.
	ProviderMetas map[string]*ProviderMeta
	Variables     map[string]*Variable
	Locals        map[string]*Local
	Outputs       map[string]*Output
	ModuleCalls   map[string]*ModuleCall
	Resources     map[addrs.Resource]*Resource
	Checks        map[string]*Check

	Moved   []*Moved
	Import  []*Import
	Removed []*Removed
}

// ProviderMeta is a provider_meta block: module metadata a provider
// receives with every resource and data source call of the module,
// decoded with the provider's provider_meta schema.
type ProviderMeta struct {
	Provider  string
	Config    hcl.Body
	NameRange hcl.Range
	DeclRange hcl.Range
}

// File is the content of one configuration file, before files are merged
// into a Module.
type File struct {
	Path string

	RequiredProviders []*RequiredProvider
	Backends          []*Backend
	CloudConfigs      []*Backend
	Encryptions       []*Encryption

	ProviderConfigs []*Provider
	ProviderMetas   []*ProviderMeta
	Variables       []*Variable
	Locals          []*Local
	Outputs         []*Output
	ModuleCalls     []*ModuleCall
	Resources       []*Resource
	Checks          []*Check

	Moved   []*Moved
	Import  []*Import
	Removed []*Removed
}

// VersionConstraint is a version constraint string as written, with the
// set of versions it allows.
type VersionConstraint struct {
	Required  versions.Set
	Source    string
	DeclRange hcl.Range
}

// RequiredProvider is one entry of required_providers: the provider a local
// name refers to and which versions the module works with.
type RequiredProvider struct {
	Name                 string
	Source               string
	Type                 addrs.Provider
	Requirement          VersionConstraint
	ConfigurationAliases []addrs.LocalProviderConfig
	// Parameters, when set, make the requirement a sub-package of the
	// Pulumi provider Source names (Pulumi's Parameterize): Base is that
	// provider, and Type is the sub-package's own address, the source's
	// hostname and namespace with the local name as its type (see
	// subpackageAddress).
	Parameters      []string
	ParametersRange hcl.Range
	Base            addrs.Provider
	DeclRange       hcl.Range
}

// Backend is a backend or cloud block. Terrane keeps state in its own store,
// so these are read only to tell users how to move their state in.
type Backend struct {
	Type      string
	Config    hcl.Body
	TypeRange hcl.Range
	DeclRange hcl.Range
}

// Encryption is an encryption block: OpenTofu's state and plan encryption
// configuration, decoded by package encryption.
type Encryption struct {
	Config    hcl.Body
	DeclRange hcl.Range
}

// Provider is a provider configuration block.
type Provider struct {
	Name       string
	NameRange  hcl.Range
	Alias      string
	AliasRange *hcl.Range

	// ForEach is OpenTofu's provider iteration: one configuration instance
	// per element, addressed as NAME.ALIAS[KEY]. Nil when absent.
	ForEach hcl.Expression

	// Version is the legacy version argument inside a provider block.
	Version VersionConstraint

	Config    hcl.Body
	DeclRange hcl.Range
}

// Addr returns the local address of the configuration, NAME or NAME.ALIAS.
func (p *Provider) Addr() addrs.LocalProviderConfig {
	return addrs.LocalProviderConfig{LocalName: p.Name, Alias: p.Alias}
}

// Variable is an input variable declaration.
type Variable struct {
	Name        string
	Description string
	Default     hcl.Expression
	// Type is the type constraint; cty.DynamicPseudoType when none is given.
	Type           TypeConstraint
	Validations    []*CheckRule
	Sensitive      bool
	Ephemeral      bool
	Nullable       bool
	DescriptionSet bool
	TypeSet        bool
	SensitiveSet   bool
	NullableSet    bool
	EphemeralSet   bool
	// Const is OpenTofu's const argument: a const variable's value must be
	// known when the configuration is loaded (from the command line,
	// variable files, its default, or a module call's static arguments);
	// a variable declared const = false cannot be used where such values
	// are needed (module sources and versions).
	Const             bool
	ConstSet          bool
	DeprecatedMessage string
	DeclRange         hcl.Range
}

// Local is one named value from a locals block.
type Local struct {
	Name      string
	Expr      hcl.Expression
	DeclRange hcl.Range
}

// Output is an output value declaration.
type Output struct {
	Name          string
	Description   string
	Expr          hcl.Expression
	DependsOn     []hcl.Traversal
	Sensitive     bool
	Ephemeral     bool
	Preconditions []*CheckRule
	// DeprecatedMessage is OpenTofu's deprecated argument: callers that
	// refer to the output are warned with it.
	DeprecatedMessage string
	DeclRange         hcl.Range
}

// CheckRule is a condition with an error message: a variable validation,
// a precondition, a postcondition or a check block's assert.
type CheckRule struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	DeclRange    hcl.Range
}

// ModuleCall is a module block.
type ModuleCall struct {
	Name        string
	SourceAddr  string
	SourceRange hcl.Range
	Version     VersionConstraint
	// SourceExpr and VersionExpr are source and version when they refer
	// to variables or locals or call functions: OpenTofu's early
	// evaluation works them out (StaticModule.ResolveCall) before the
	// module is installed or loaded, filling SourceAddr and Version. Nil
	// when the value is a literal.
	SourceExpr  hcl.Expression
	VersionExpr *hcl.Attribute
	Count       hcl.Expression
	ForEach     hcl.Expression
	// Enabled is OpenTofu's lifecycle { enabled = ... }; nil when absent.
	Enabled   hcl.Expression
	Providers []PassedProviderConfig
	DependsOn []hcl.Traversal
	Config    hcl.Body
	DeclRange hcl.Range
}

// PassedProviderConfig is one entry of a module call's providers map: the
// child's name for a provider configuration and the parent's configuration
// it receives.
type PassedProviderConfig struct {
	InChild  addrs.LocalProviderConfig
	InParent addrs.LocalProviderConfig
	// InParentKey is the instance key expression when the parent
	// configuration uses for_each, as in aws.by_region["eu"]; nil otherwise.
	InParentKey hcl.Expression
	Range       hcl.Range
	// InChildRange and InParentRange are where the key and the value are
	// written, and the NameRanges where their local names are.
	InChildRange      hcl.Range
	InParentRange     hcl.Range
	InChildNameRange  hcl.Range
	InParentNameRange hcl.Range
}
