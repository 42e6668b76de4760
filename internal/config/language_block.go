package config

import (
	"fmt"
	"slices"
	"strings"

	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/version"
)

// A module says which versions of OpenTofu it works with in a
// `language { compatible_with { opentofu = "..." } }` block, or in the
// older `terraform { required_version = "..." }` of a .tofu file. A
// required_version in a .tf file is taken to be Terraform's and is not
// checked, as in OpenTofu 1.12. When a module excludes the version
// Terrane implements, that is the only error reported for it: its other
// errors may well come from features of the newer language it was written
// for.

// languageEdition is the only language edition there is.
const languageEdition = "tofu2024"

// incompatibleModule marks (as hcl.Diagnostic.Extra) the diagnostics that
// say a module excludes this version.
type incompatibleModule struct{}

var versionSniffSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{{Type: "terraform"}, {Type: "language"}},
}

var languageBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "edition"}, {Name: "experiments"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "compatible_with"}},
}

// compatibleWithSchema is read with PartialContent: other tools may keep
// their own arguments in compatible_with.
var compatibleWithSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "opentofu"}}}

// checkVersionRequirements reads the version constraints of a file with as
// little of its content as possible, so that they are found even in a file
// written for a later version, and reports those that exclude this one.
func checkVersionRequirements(path string, body hcl.Body) hcl.Diagnostics {
	content, _, diags := body.PartialContent(versionSniffSchema)
	for _, block := range content.Blocks {
		var constraints []*coreConstraint
		switch {
		case block.Type == "language":
			inner, _, moreDiags := block.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "compatible_with"}}})
			diags = append(diags, moreDiags...)
			for _, nested := range inner.Blocks {
				constraint, moreDiags := decodeCompatibleWith(nested)
				diags = append(diags, moreDiags...)
				if constraint != nil {
					constraints = append(constraints, constraint)
				}
			}
		case strings.HasSuffix(path, ".tofu") || strings.HasSuffix(path, ".tofu.json"):
			inner, _, moreDiags := block.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "required_version"}}})
			diags = append(diags, moreDiags...)
			if attr, ok := inner.Attributes["required_version"]; ok {
				constraint, moreDiags := decodeCoreConstraint(attr)
				diags = append(diags, moreDiags...)
				if !moreDiags.HasErrors() {
					constraints = append(constraints, constraint)
				}
			}
		}
		for _, constraint := range constraints {
			diags = append(diags, constraint.check()...)
		}
	}
	return diags
}

// coreConstraint is a constraint on OpenTofu's version.
type coreConstraint struct {
	required  goversion.Constraints
	declRange hcl.Range
}

// check refuses prerelease versions in the constraint, then reports the
// constraint if it excludes the version Terrane implements.
func (c *coreConstraint) check() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, required := range c.required {
		if required.Prerelease() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid required_version constraint",
				Detail: fmt.Sprintf("Prerelease version constraints are not supported: %s. Remove the prerelease information from the constraint. Prerelease versions of OpenTofu will match constraints using their version core only.",
					required.String()),
				Subject: c.declRange.Ptr(),
			})
		}
	}
	if diags.HasErrors() || c.required.Check(goversion.Must(goversion.NewVersion(version.OpenTofuVersion))) {
		return diags
	}
	return append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Incompatible module",
		Detail: fmt.Sprintf("This module is not compatible with OpenTofu v%s.\n\nTo proceed, either choose another supported OpenTofu version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.",
			version.OpenTofuVersion),
		Subject: c.declRange.Ptr(),
		Extra:   incompatibleModule{},
	})
}

// decodeCompatibleWith reads the opentofu argument of a compatible_with
// block; nil when it has none.
func decodeCompatibleWith(block *hcl.Block) (*coreConstraint, hcl.Diagnostics) {
	content, _, diags := block.Body.PartialContent(compatibleWithSchema)
	attr, ok := content.Attributes["opentofu"]
	if !ok {
		return nil, diags
	}
	constraint, moreDiags := decodeCoreConstraint(attr)
	diags = append(diags, moreDiags...)
	if moreDiags.HasErrors() {
		return nil, diags
	}
	return constraint, diags
}

// decodeCoreConstraint reads a version constraint on OpenTofu itself. A
// null constraint allows every version.
func decodeCoreConstraint(attr *hcl.Attribute) (*coreConstraint, hcl.Diagnostics) {
	constraint := &coreConstraint{declRange: attr.Range}
	val, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return constraint, diags
	}
	invalid := func(detail string) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid version constraint", Detail: detail, Subject: attr.Expr.Range().Ptr()}}
	}
	val, err := convert.Convert(val, cty.String)
	if err != nil {
		return constraint, invalid(fmt.Sprintf("A string value is required for %s.", attr.Name))
	}
	if val.IsNull() || !val.IsWhollyKnown() {
		return constraint, nil
	}
	required, err := goversion.NewConstraint(val.AsString())
	if err != nil {
		return constraint, invalid("This string does not use correct version constraint syntax.")
	}
	constraint.required = required
	return constraint, nil
}

// decodeLanguageBlock checks a language block. Only compatible_with has a
// use today (checkVersionRequirements reads it); edition and experiments
// are reserved, and refused unless they name what exists.
func decodeLanguageBlock(block *hcl.Block, override bool) hcl.Diagnostics {
	if override {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Language selections in override file",
			Detail:   "Language-related settings in \"language\" blocks are not allowed in override files. Place these settings in a normal configuration file.",
			Subject:  block.DefRange.Ptr(),
		}}
	}
	content, diags := block.Body.Content(languageBlockSchema)
	if attr, ok := content.Attributes["edition"]; ok {
		diags = append(diags, checkLanguageEdition(attr)...)
	}
	if attr, ok := content.Attributes["experiments"]; ok {
		diags = append(diags, refuseExperiments(attr)...)
	}
	var seen *coreConstraint
	for _, nested := range content.Blocks {
		if seen != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate compatible_with block",
				Detail:   fmt.Sprintf("Each language block may have at most one compatible_with block referring to OpenTofu. The OpenTofu version constraint was already declared at %s.", seen.declRange),
				Subject:  block.DefRange.Ptr(),
			})
			continue
		}
		constraint, moreDiags := decodeCompatibleWith(nested)
		diags = append(diags, moreDiags...)
		if constraint != nil && constraint.required.Check(goversion.Must(goversion.NewVersion("1.11.0"))) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Ineffective version constraint",
				Detail:   "The compatible_with block was added in OpenTofu v1.12.0, so any constraint specified this way should exclude earlier versions of OpenTofu, such as by including \">= 0.12.0\".\n\nIf your module must be compatible with earlier versions of OpenTofu, use the required_version argument in a \"terraform\" block in a file named with the .tofu suffix, which is an older way to specify OpenTofu version constraints.",
				Subject:  constraint.declRange.Ptr(),
			})
		}
		seen = constraint
	}
	return diags
}

func checkLanguageEdition(attr *hcl.Attribute) hcl.Diagnostics {
	kw := hcl.ExprAsKeyword(attr.Expr)
	var summary, detail string
	switch {
	case kw == languageEdition:
		return nil
	case kw == "":
		summary = "Invalid language edition"
		detail = fmt.Sprintf("The \"edition\" argument expects a bare language edition keyword. OpenTofu %s supports only language edition %s, which is the default.", version.OpenTofuVersion, languageEdition)
	case strings.HasPrefix(kw, "TF"):
		summary = "Unsupported language edition"
		detail = fmt.Sprintf("OpenTofu v%s does not support language edition %q. This module may be intended for use with other software.", version.OpenTofuVersion, languageEdition)
	default:
		rel := "different"
		if kw > languageEdition {
			rel = "newer"
		}
		summary = "Unsupported language edition"
		detail = fmt.Sprintf("OpenTofu v%s only supports language edition %s. This module requires a %s version of OpenTofu CLI.", version.OpenTofuVersion, languageEdition, rel)
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: attr.Expr.Range().Ptr()}}
}

// refuseExperiments refuses every keyword of a language block's
// experiments: there are none.
func refuseExperiments(attr *hcl.Attribute) hcl.Diagnostics {
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return diags
	}
	for _, expr := range exprs {
		kw := hcl.ExprAsKeyword(expr)
		if kw == "" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid experiment keyword",
				Detail: "Elements of \"experiments\" must all be keywords representing active experiments.", Subject: expr.Range().Ptr()})
			continue
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown experiment keyword",
			Detail: fmt.Sprintf("There is no current experiment with the keyword %q.", kw), Subject: expr.Range().Ptr()})
	}
	return diags
}

// onlyIncompatibility keeps only the diagnostics saying a module excludes
// this version, when there are any.
func onlyIncompatibility(diags hcl.Diagnostics) hcl.Diagnostics {
	isIncompatible := func(d *hcl.Diagnostic) bool {
		_, ok := d.Extra.(incompatibleModule)
		return ok
	}
	if !slices.ContainsFunc(diags, isIncompatible) {
		return diags
	}
	return slices.DeleteFunc(diags, func(d *hcl.Diagnostic) bool { return !isIncompatible(d) })
}
