package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// Resource is a resource or data block.
type Resource struct {
	Mode addrs.ResourceMode
	Type string
	Name string

	Count   hcl.Expression
	ForEach hcl.Expression
	// Enabled is OpenTofu's lifecycle { enabled = ... }; nil when absent.
	Enabled hcl.Expression

	// ProviderConfigRef is the provider argument; nil means the default
	// configuration of the provider the type name implies.
	ProviderConfigRef *ProviderConfigRef
	// Provider is the provider this resource belongs to, resolved through
	// required_providers when the module is loaded.
	Provider addrs.Provider

	DependsOn      []hcl.Traversal
	Preconditions  []*CheckRule
	Postconditions []*CheckRule

	// Managed holds what only resource blocks have; nil for data blocks.
	Managed *ManagedResource

	// ScopedToCheck is the name of the check block a data block is nested
	// in; empty for a data block at the top of its module. Its failures
	// are the check's, reported as warnings.
	ScopedToCheck string

	// Config is the body left after meta-arguments, to be decoded with the
	// provider's schema. dynamic blocks in it are expanded then.
	Config hcl.Body

	TypeRange hcl.Range
	DeclRange hcl.Range
}

// Addr returns the resource's address within its module.
func (r *Resource) Addr() addrs.Resource {
	return addrs.Resource{Mode: r.Mode, Type: r.Type, Name: r.Name}
}

// ProviderConfigAddr returns the local provider configuration the resource
// uses: the provider argument, or the default configuration of the implied
// provider.
func (r *Resource) ProviderConfigAddr() addrs.LocalProviderConfig {
	if r.ProviderConfigRef == nil {
		return addrs.LocalProviderConfig{LocalName: r.Addr().ImpliedProvider()}
	}
	return addrs.LocalProviderConfig{LocalName: r.ProviderConfigRef.Name, Alias: r.ProviderConfigRef.Alias}
}

// ManagedResource is the part of a resource block that data blocks lack.
type ManagedResource struct {
	CreateBeforeDestroy    bool
	CreateBeforeDestroySet bool
	// PreventDestroy is the prevent_destroy expression, nil when not set.
	// As in OpenTofu 1.12 it may refer to variables, locals and other
	// objects; it is evaluated when a plan would destroy an object.
	PreventDestroy hcl.Expression
	// Destroy is OpenTofu's lifecycle destroy, nil when not set: false
	// makes a plan forget the resource's objects instead of destroying
	// them. It must be a constant bool (see SkipDestroy).
	Destroy hcl.Expression
	// IgnoreChanges lists the attribute paths in ignore_changes;
	// IgnoreAllChanges is ignore_changes = all.
	IgnoreChanges       []hcl.Traversal
	IgnoreAllChanges    bool
	ReplaceTriggeredBy  []hcl.Expression
	HasConnectionBlock  bool
	ProvisionerBlockCnt int
}

// ProviderConfigRef is a resource's provider argument: aws, aws.west or,
// for a configuration with for_each, aws.by_region[each.key].
type ProviderConfigRef struct {
	Name       string
	NameRange  hcl.Range
	Alias      string
	AliasRange *hcl.Range
	// KeyExpr selects an instance of a provider configuration with
	// for_each; nil otherwise.
	KeyExpr hcl.Expression
}

// Moved is a moved block.
type Moved struct {
	From      hcl.Traversal
	To        hcl.Traversal
	DeclRange hcl.Range
}

// Import is an import block.
type Import struct {
	// To is the target address expression; with for_each it may use each.key.
	To                hcl.Expression
	ID                hcl.Expression
	ForEach           hcl.Expression
	ProviderConfigRef *ProviderConfigRef
	DeclRange         hcl.Range
}

// Removed is a removed block.
type Removed struct {
	From hcl.Traversal
	// Destroy is lifecycle { destroy = true }: delete the objects instead
	// of forgetting them, which is the default.
	Destroy   bool
	DeclRange hcl.Range
}

// Check is a check block: assertions about the infrastructure, optionally
// with a scoped data source to read.
type Check struct {
	Name         string
	DataResource *Resource
	Asserts      []*CheckRule
	DeclRange    hcl.Range
}

// SkipDestroy evaluates lifecycle destroy as OpenTofu does: absent, the
// objects are destroyed; otherwise it must be a bool constant, and false
// means they are forgotten instead.
func (m *ManagedResource) SkipDestroy() (bool, hcl.Diagnostics) {
	if m == nil || m.Destroy == nil {
		return false, nil
	}
	val, _ := m.Destroy.Value(nil)
	if val.Type() != cty.Bool || !val.IsKnown() || val.IsNull() {
		return false, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid lifecycle destroy expression",
			Detail:   "The lifecycle destroy expression must be a boolean constant.",
			Subject:  m.Destroy.Range().Ptr(),
		}}
	}
	return val.False(), nil
}
