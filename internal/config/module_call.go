package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
)

var moduleBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "source", Required: true},
		{Name: "version"},
		{Name: "count"},
		{Name: "for_each"},
		{Name: "depends_on"},
		{Name: "providers"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "locals"},
		{Type: "provider", LabelNames: []string{"type"}},
		{Type: "_"},
	},
}

var moduleLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "enabled"}},
}

func decodeModuleBlock(block *hcl.Block) (*ModuleCall, hcl.Diagnostics) {
	call := &ModuleCall{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkIdentifier("module", call.Name, labelRange(block, 0))
	content, config, moreDiags := block.Body.PartialContent(moduleBlockSchema)
	diags = append(diags, moreDiags...)
	call.Config = config
	if attr, ok := content.Attributes["source"]; ok {
		call.SourceRange = attr.Expr.Range()
		if needsStaticEvaluation(attr.Expr) {
			call.SourceExpr = attr.Expr
		} else {
			diags = append(diags, decodeString(attr, &call.SourceAddr)...)
		}
	}
	if attr, ok := content.Attributes["version"]; ok {
		if needsStaticEvaluation(attr.Expr) {
			call.VersionExpr = attr
			call.Version.DeclRange = attr.Range
		} else {
			constraint, moreDiags := decodeVersionConstraint(attr)
			diags = append(diags, moreDiags...)
			call.Version = constraint
		}
	}
	if call.SourceExpr == nil {
		diags = append(diags, checkRegistrySource(call)...)
	}
	if attr, ok := content.Attributes["count"]; ok {
		call.Count = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		call.ForEach = attr.Expr
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, moreDiags := decodeDependsOn(attr)
		diags = append(diags, moreDiags...)
		call.DependsOn = deps
	}
	if attr, ok := content.Attributes["providers"]; ok {
		passed, moreDiags := decodePassedProviders(attr)
		diags = append(diags, moreDiags...)
		call.Providers = passed
	}
	var escape *hcl.Block
	for _, inner := range content.Blocks {
		if inner.Type == "_" {
			var moreDiags hcl.Diagnostics
			call.Config, moreDiags = escapingBlock(call.Config, inner, &escape)
			diags = append(diags, moreDiags...)
			continue
		}
		if inner.Type != "lifecycle" {
			diags = append(diags, reservedBlockDiag(inner, "module"))
			continue
		}
		lifecycle, moreDiags := inner.Body.Content(moduleLifecycleSchema)
		diags = append(diags, moreDiags...)
		if attr, ok := lifecycle.Attributes["enabled"]; ok {
			call.Enabled = attr.Expr
		}
	}
	if d := findRepetitionArgs(content.Attributes, content.Blocks).conflict("should be used to be explicit about the number of module instances"); d != nil {
		diags = append(diags, d)
	}
	return call, diags
}

// decodePassedProviders reads a module call's providers map, whose keys
// are the child's provider configurations and values the parent's.
func decodePassedProviders(attr *hcl.Attribute) ([]PassedProviderConfig, hcl.Diagnostics) {
	pairs, diags := hcl.ExprMap(attr.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	var passed []PassedProviderConfig
	seen := map[addrs.LocalProviderConfig]hcl.Range{}
	for _, pair := range pairs {
		child, childDiags := decodeProviderConfigRef(pair.Key, "providers")
		parent, parentDiags := decodeProviderConfigRef(pair.Value, "providers")
		diags = append(diags, childDiags...)
		diags = append(diags, parentDiags...)
		if childDiags.HasErrors() || parentDiags.HasErrors() {
			continue
		}
		if child.KeyExpr != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid module provider configuration",
				Detail:   "Instance keys are not allowed on the left side of a provider configuration assignment.",
				Subject:  child.KeyExpr.Range().Ptr(),
			})
			continue
		}
		entry := PassedProviderConfig{Range: hcl.RangeBetween(pair.Key.Range(), pair.Value.Range()), InParentKey: parent.KeyExpr,
			InChildRange: pair.Key.Range(), InParentRange: pair.Value.Range(), InChildNameRange: child.NameRange, InParentNameRange: parent.NameRange}
		entry.InChild.LocalName, entry.InChild.Alias = child.Name, child.Alias
		if prev, dup := seen[entry.InChild]; dup {
			// OpenTofu refuses this; taking one of the two would pass the
			// module a configuration its author may not have meant.
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate provider address",
				Detail:   fmt.Sprintf("A provider configuration was already passed to %s at %s. Each child provider configuration can be assigned only once.", entry.InChild, prev),
				Subject:  pair.Value.Range().Ptr(),
			})
			continue
		}
		seen[entry.InChild] = entry.Range
		entry.InParent.LocalName, entry.InParent.Alias = parent.Name, parent.Alias
		passed = append(passed, entry)
	}
	return passed, diags
}

// checkRegistrySource reports, as OpenTofu does when it reads a module
// call, a version argument beside a source that is no module registry
// address: the version makes OpenTofu read the source as one.
func checkRegistrySource(call *ModuleCall) hcl.Diagnostics {
	if call.Version.DeclRange.Filename == "" || call.SourceAddr == "" {
		return nil
	}
	var err error
	if isLocalModuleSource(call.SourceAddr) {
		err = fmt.Errorf("can't use local directory %q as a module registry address", call.SourceAddr)
	} else {
		_, err = tfaddr.ParseModuleSource(call.SourceAddr)
	}
	if err == nil {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid registry module source address",
		Detail: fmt.Sprintf("Failed to parse module registry address: %s.\n\n"+
			"Terrane assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", err),
		Subject: call.SourceRange.Ptr(),
	}}
}

// isLocalModuleSource reports whether a module source is a path relative
// to the calling module.
func isLocalModuleSource(source string) bool {
	for _, prefix := range []string{"./", "../", ".\\", "..\\"} {
		if strings.HasPrefix(source, prefix) {
			return true
		}
	}
	return false
}
