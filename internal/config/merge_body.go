package config

import (
	"github.com/hashicorp/hcl/v2"
)

// mergedBody is a body with an override file's body laid over it, by the
// override rules: an argument in the override replaces the base's argument
// of the same name, and nested blocks of a type the override has replace
// all the base's blocks of that type.
type mergedBody struct {
	base     hcl.Body
	override hcl.Body
}

// MergeBodies lays override over base by the override-file rules: an
// argument in override replaces base's argument of the same name, and
// blocks of a type override has replace all base's blocks of that type.
func MergeBodies(base, override hcl.Body) hcl.Body { return mergeBodies(base, override) }

func mergeBodies(base, override hcl.Body) hcl.Body {
	if override == nil {
		return base
	}
	if base == nil {
		return override
	}
	return mergedBody{base: base, override: override}
}

func (b mergedBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	content, _, diags := b.partialContent(schema, false)
	return content, diags
}

func (b mergedBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	return b.partialContent(schema, true)
}

func (b mergedBody) partialContent(schema *hcl.BodySchema, partial bool) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	// Required arguments may be given by either body, so each side is read
	// without requiring them and the requirement is checked on the merge.
	relaxed := relaxedSchema(schema)
	var baseContent, overrideContent *hcl.BodyContent
	var baseRest, overrideRest hcl.Body
	var diags hcl.Diagnostics
	if partial {
		var d1, d2 hcl.Diagnostics
		baseContent, baseRest, d1 = b.base.PartialContent(relaxed)
		overrideContent, overrideRest, d2 = b.override.PartialContent(relaxed)
		diags = append(d1, d2...)
	} else {
		var d1, d2 hcl.Diagnostics
		baseContent, d1 = b.base.Content(relaxed)
		overrideContent, d2 = b.override.Content(relaxed)
		diags = append(d1, d2...)
	}
	merged := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: baseContent.MissingItemRange}
	for name, attr := range baseContent.Attributes {
		merged.Attributes[name] = attr
	}
	for name, attr := range overrideContent.Attributes {
		merged.Attributes[name] = attr
	}
	overridden := map[string]bool{}
	for _, block := range overrideContent.Blocks {
		overridden[block.Type] = true
	}
	for _, block := range baseContent.Blocks {
		if !overridden[block.Type] {
			merged.Blocks = append(merged.Blocks, block)
		}
	}
	merged.Blocks = append(merged.Blocks, overrideContent.Blocks...)
	for _, attrSchema := range schema.Attributes {
		if _, ok := merged.Attributes[attrSchema.Name]; attrSchema.Required && !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   "The argument \"" + attrSchema.Name + "\" is required, but no definition was found.",
				Subject:  merged.MissingItemRange.Ptr(),
			})
		}
	}
	if !partial {
		return merged, nil, diags
	}
	return merged, mergedBody{base: baseRest, override: overrideRest}, diags
}

func relaxedSchema(schema *hcl.BodySchema) *hcl.BodySchema {
	relaxed := &hcl.BodySchema{Blocks: schema.Blocks}
	for _, attr := range schema.Attributes {
		relaxed.Attributes = append(relaxed.Attributes, hcl.AttributeSchema{Name: attr.Name})
	}
	return relaxed
}

func (b mergedBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	baseAttrs, diags := b.base.JustAttributes()
	overrideAttrs, moreDiags := b.override.JustAttributes()
	diags = append(diags, moreDiags...)
	merged := hcl.Attributes{}
	for name, attr := range baseAttrs {
		merged[name] = attr
	}
	for name, attr := range overrideAttrs {
		merged[name] = attr
	}
	return merged, diags
}

func (b mergedBody) MissingItemRange() hcl.Range {
	return b.base.MissingItemRange()
}
