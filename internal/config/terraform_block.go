package config

import (
	"errors"
	"fmt"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	tfaddr "github.com/hashicorp/terraform-registry-address"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
)

var terraformBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "required_version"},
		{Name: "experiments"},
		{Name: "language"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "required_providers"},
		{Type: "backend", LabelNames: []string{"type"}},
		{Type: "cloud"},
		{Type: "provider_meta", LabelNames: []string{"provider"}},
		{Type: "encryption"},
	},
}

func decodeTerraformBlock(file *File, block *hcl.Block) hcl.Diagnostics {
	// required_version, experiments and language are not read here:
	// checkVersionRequirements reads required_version (in .tofu files),
	// and OpenTofu ignores the other two, which are Terraform's.
	content, diags := block.Body.Content(terraformBlockSchema)
	for _, inner := range content.Blocks {
		switch inner.Type {
		case "required_providers":
			reqs, moreDiags := decodeRequiredProvidersBlock(inner)
			diags = append(diags, moreDiags...)
			file.RequiredProviders = append(file.RequiredProviders, reqs...)
		case "backend":
			file.Backends = append(file.Backends, &Backend{
				Type: inner.Labels[0], Config: inner.Body, TypeRange: labelRange(inner, 0), DeclRange: inner.DefRange,
			})
		case "cloud":
			file.CloudConfigs = append(file.CloudConfigs, &Backend{
				Type: "cloud", Config: inner.Body, TypeRange: inner.TypeRange, DeclRange: inner.DefRange,
			})
		case "encryption":
			file.Encryptions = append(file.Encryptions, &Encryption{Config: inner.Body, DeclRange: inner.DefRange})
		case "provider_meta":
			file.ProviderMetas = append(file.ProviderMetas, &ProviderMeta{
				Provider: inner.Labels[0], Config: inner.Body, NameRange: labelRange(inner, 0), DeclRange: inner.DefRange,
			})
		}
	}
	return diags
}

// decodeVersionConstraint reads a version constraint string such as
// ">= 1.2, < 2.0" or "~> 4.0".
func decodeVersionConstraint(attr *hcl.Attribute) (VersionConstraint, hcl.Diagnostics) {
	constraint := VersionConstraint{DeclRange: attr.Range}
	val, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return constraint, diags
	}
	if val.Type() != cty.String || val.IsNull() {
		return constraint, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid version constraint",
			Detail:   "A string value is required for " + attr.Name + ".",
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	constraint.Source = val.AsString()
	set, err := versions.MeetingConstraintsStringRuby(constraint.Source)
	if err != nil {
		return constraint, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid version constraint",
			// As OpenTofu, which finds the parser's message of no help.
			Detail:  "This string does not use correct version constraint syntax.",
			Subject: attr.Expr.Range().Ptr(),
		}}
	}
	constraint.Required = set
	return constraint, nil
}

// decodeRequiredProvidersBlock reads required_providers. Each entry is an
// object with source, version and configuration_aliases; the pre-0.13
// shorthand NAME = "VERSION" is still accepted.
func decodeRequiredProvidersBlock(block *hcl.Block) ([]*RequiredProvider, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	var reqs []*RequiredProvider
	for _, attr := range sortedAttributes(attrs) {
		req, moreDiags := decodeRequiredProvider(attr)
		diags = append(diags, moreDiags...)
		if req != nil {
			reqs = append(reqs, req)
		}
	}
	return reqs, diags
}

func decodeRequiredProvider(attr *hcl.Attribute) (*RequiredProvider, hcl.Diagnostics) {
	diags := checkIdentifier("provider local", attr.Name, attr.NameRange)
	if diags.HasErrors() {
		return nil, diags
	}
	req := &RequiredProvider{Name: attr.Name, DeclRange: attr.Range}
	if _, isObject := attr.Expr.(*hclsyntax.ObjectConsExpr); !isObject {
		if val, valDiags := attr.Expr.Value(nil); !valDiags.HasErrors() && val.Type() == cty.String {
			constraint, moreDiags := decodeVersionConstraint(attr)
			req.Requirement = constraint
			req.Type = addrs.ImpliedProviderForUnqualifiedType(attr.Name)
			return req, moreDiags
		}
	}
	pairs, moreDiags := hcl.ExprMap(attr.Expr)
	if moreDiags.HasErrors() {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid required_providers object",
			Detail:   "required_providers entries must be objects with source and version attributes.",
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	for _, pair := range pairs {
		diags = append(diags, decodeRequiredProviderField(req, pair)...)
	}
	if req.Type.IsZero() {
		req.Type = addrs.ImpliedProviderForUnqualifiedType(attr.Name)
	}
	if req.Parameters != nil {
		diags = append(diags, makeSubpackageRequirement(req)...)
	}
	return req, diags
}

// makeSubpackageRequirement turns a requirement with parameters into one
// for the sub-package they make. The sub-package needs an address of its
// own, because it has its own schema and the engine keys providers by
// address: it is the source's hostname and namespace with the local name
// as its type, since the local name is the sub-package's name (its type
// names start with it). The source stays recorded as Base: it is the
// package installed and launched.
func makeSubpackageRequirement(req *RequiredProvider) hcl.Diagnostics {
	if req.Source == "" {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Parameters need a provider source",
			Detail:   fmt.Sprintf("The requirement %q has parameters but no source. Name the Pulumi provider that makes the sub-package, e.g. source = \"pulumi/NAME\".", req.Name),
			Subject:  req.ParametersRange.Ptr(),
		}}
	}
	base := req.Type
	if req.Name == base.Type {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Sub-package named like its provider",
			Detail:   fmt.Sprintf("The requirement %q has parameters, so it declares a sub-package of %s, and a sub-package is named by its local name. Use the sub-package's name as the local name (its resource types start with it).", req.Name, addrs.ProviderForDisplay(base)),
			Subject:  req.DeclRange.Ptr(),
		}}
	}
	req.Base = base
	req.Type = addrs.Provider{Hostname: base.Hostname, Namespace: base.Namespace, Type: req.Name}
	return nil
}

// decodeProviderParameters reads the parameters of a sub-package
// requirement: a static list of strings, as the provider's Parameterize
// takes them.
func decodeProviderParameters(req *RequiredProvider, expr hcl.Expression) hcl.Diagnostics {
	req.ParametersRange = expr.Range()
	val, diags := expr.Value(nil)
	if diags.HasErrors() {
		return diags
	}
	list, err := convert.Convert(val, cty.List(cty.String))
	if err != nil || list.IsNull() || !list.IsWhollyKnown() || list.LengthInt() == 0 {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider parameters",
			Detail:   "parameters must be a non-empty list of literal strings, the arguments the Pulumi provider's Parameterize takes, such as [\"widgets\"].",
			Subject:  expr.Range().Ptr(),
		}}
	}
	req.Parameters = []string{}
	for _, element := range list.AsValueSlice() {
		if element.IsNull() {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider parameters",
				Detail:   "parameters must not contain null.",
				Subject:  expr.Range().Ptr(),
			}}
		}
		req.Parameters = append(req.Parameters, element.AsString())
	}
	return nil
}

func decodeRequiredProviderField(req *RequiredProvider, pair hcl.KeyValuePair) hcl.Diagnostics {
	key := hcl.ExprAsKeyword(pair.Key)
	if key == "" {
		if val, diags := pair.Key.Value(nil); !diags.HasErrors() && val.Type() == cty.String {
			key = val.AsString()
		}
	}
	switch key {
	case "source":
		attr := &hcl.Attribute{Name: "source", Expr: pair.Value, Range: pair.Value.Range()}
		if diags := decodeString(attr, &req.Source); diags.HasErrors() {
			return diags
		}
		provider, err := addrs.ParseProviderSource(req.Source)
		if err != nil {
			summary, detail := "Invalid provider source string", err.Error()
			var parserErr *tfaddr.ParserError
			if errors.As(err, &parserErr) {
				summary, detail = parserErr.Summary, parserErr.Detail
			}
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  summary,
				Detail:   detail,
				Subject:  pair.Value.Range().Ptr(),
			}}
		}
		req.Type = provider
	case "version":
		constraint, diags := decodeVersionConstraint(&hcl.Attribute{Name: "version", Expr: pair.Value, Range: pair.Value.Range()})
		req.Requirement = constraint
		return diags
	case "configuration_aliases":
		return decodeConfigurationAliases(req, pair.Value)
	case "parameters":
		return decodeProviderParameters(req, pair.Value)
	default:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid required_providers object",
			Detail:   `required_providers objects can only contain "version", "source", "configuration_aliases" and "parameters" attributes. To configure a provider, use a "provider" block.`,
			Subject:  pair.Key.Range().Ptr(),
		}}
	}
	return nil
}

func decodeConfigurationAliases(req *RequiredProvider, expr hcl.Expression) hcl.Diagnostics {
	exprs, diags := hcl.ExprList(expr)
	for _, aliasExpr := range exprs {
		traversal, travDiags := hcl.AbsTraversalForExpr(aliasExpr)
		if travDiags.HasErrors() {
			diags = append(diags, travDiags...)
			continue
		}
		local, localDiags := addrs.ParseLocalProviderConfig(traversal)
		diags = append(diags, localDiags...)
		if localDiags.HasErrors() {
			continue
		}
		if local.LocalName != req.Name || local.Alias == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid configuration_aliases value",
				Detail:   fmt.Sprintf("Configuration aliases can only contain references to local provider configuration names within the same provider, like %s.ALIAS.", req.Name),
				Subject:  aliasExpr.Range().Ptr(),
			})
			continue
		}
		req.ConfigurationAliases = append(req.ConfigurationAliases, local)
	}
	return diags
}
