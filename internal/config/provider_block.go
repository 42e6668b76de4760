package config

import (
	"github.com/hashicorp/hcl/v2"
)

var providerBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "alias"},
		{Name: "version"},
		{Name: "for_each"},
		{Name: "count"},
		{Name: "depends_on"},
		{Name: "source"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "_"},
	},
}

func decodeProviderBlock(block *hcl.Block) (*Provider, hcl.Diagnostics) {
	name := block.Labels[0]
	diags := checkIdentifier("provider", name, labelRange(block, 0))
	content, config, moreDiags := block.Body.PartialContent(providerBlockSchema)
	diags = append(diags, moreDiags...)
	provider := &Provider{Name: name, NameRange: labelRange(block, 0), Config: config, DeclRange: block.DefRange}
	if attr, ok := content.Attributes["alias"]; ok {
		diags = append(diags, decodeString(attr, &provider.Alias)...)
		diags = append(diags, checkIdentifier("provider configuration alias", provider.Alias, attr.Expr.Range())...)
		provider.AliasRange = attr.Expr.Range().Ptr()
	}
	if attr, ok := content.Attributes["version"]; ok {
		constraint, moreDiags := decodeVersionConstraint(attr)
		diags = append(diags, moreDiags...)
		provider.Version = constraint
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Version constraints inside provider configuration blocks are deprecated",
			Detail:   "Terrane 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terrane. To silence this warning, move the provider version constraint into the required_providers block.",
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		provider.ForEach = attr.Expr
		if provider.Alias == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid for_each argument",
				Detail:   "A provider configuration with for_each must have an alias, so that resources can refer to its instances as NAME.ALIAS[KEY].",
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	for _, reserved := range []string{"count", "depends_on", "source"} {
		if attr, ok := content.Attributes[reserved]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reserved argument name in provider block",
				Detail:   "The provider argument name \"" + reserved + "\" is reserved for use by Terrane in a future version.",
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	var escape *hcl.Block
	for _, inner := range content.Blocks {
		var moreDiags hcl.Diagnostics
		provider.Config, moreDiags = escapingBlock(provider.Config, inner, &escape)
		diags = append(diags, moreDiags...)
	}
	return provider, diags
}
