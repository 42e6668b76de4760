package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/addrs"
)

const badIdentifierDetail = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes."

// checkIdentifier reports a label that cannot be used as a name in
// references, such as a resource named "1st".
func checkIdentifier(kind, name string, rng hcl.Range) hcl.Diagnostics {
	if hclsyntax.ValidIdentifier(name) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %s name", kind),
		Detail:   badIdentifierDetail,
		Subject:  rng.Ptr(),
	}}
}

// labelRange returns the range of a block's i'th label, or the block's
// definition range when labels carry no ranges.
func labelRange(block *hcl.Block, i int) hcl.Range {
	if i < len(block.LabelRanges) {
		return block.LabelRanges[i]
	}
	return block.DefRange
}

// decodeString evaluates a string argument that may not refer to anything.
func decodeString(attr *hcl.Attribute, target *string) hcl.Diagnostics {
	return decodeConstant(attr.Expr, target)
}

// decodeBool evaluates a bool argument that may not refer to anything.
func decodeBool(attr *hcl.Attribute, target *bool) hcl.Diagnostics {
	return decodeConstant(attr.Expr, target)
}

// decodeConstant decodes an expression that may not refer to anything into
// target. As in OpenTofu's HCL, an expression that cannot be evaluated is
// reported alone, without a second error about its (unknown) value.
func decodeConstant(expr hcl.Expression, target any) hcl.Diagnostics {
	val, diags := expr.Value(nil)
	if diags.HasErrors() {
		return diags
	}
	return append(diags, gohcl.DecodeExpression(&hclsyntax.LiteralValueExpr{Val: val, SrcRange: expr.Range()}, nil, target)...)
}

// decodeDependsOn reads a depends_on list: static references to whole
// objects only, since depends_on orders operations and cannot wait for one
// attribute.
func decodeDependsOn(attr *hcl.Attribute) ([]hcl.Traversal, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(attr.Expr)
	var traversals []hcl.Traversal
	for _, expr := range exprs {
		traversal, travDiags := hcl.AbsTraversalForExpr(expr)
		diags = append(diags, travDiags...)
		if travDiags.HasErrors() {
			continue
		}
		ref, refDiags := addrs.ParseRef(traversal)
		diags = append(diags, refDiags...)
		if refDiags.HasErrors() {
			continue
		}
		if len(ref.Remaining) > 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid depends_on reference",
				Detail:   "References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.",
				Subject:  ref.Remaining.SourceRange().Ptr(),
			})
			continue
		}
		switch ref.Subject.(type) {
		case addrs.Resource, addrs.ResourceInstance, addrs.ModuleCall, addrs.ModuleCallInstance,
			addrs.InputVariable, addrs.LocalValue, addrs.ModuleCallInstanceOutput:
			traversals = append(traversals, traversal)
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid depends_on reference",
				Detail:   fmt.Sprintf("The depends_on argument must refer to resources, data sources, modules, variables or locals, not %s.", ref.Subject),
				Subject:  traversal.SourceRange().Ptr(),
			})
		}
	}
	return traversals, diags
}

var checkRuleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
	},
}

// decodeCheckRule reads a validation, precondition, postcondition or assert
// block.
func decodeCheckRule(block *hcl.Block) (*CheckRule, hcl.Diagnostics) {
	content, diags := block.Body.Content(checkRuleSchema)
	rule := &CheckRule{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["condition"]; ok {
		rule.Condition = attr.Expr
	}
	if attr, ok := content.Attributes["error_message"]; ok {
		rule.ErrorMessage = attr.Expr
	}
	diags = append(diags, checkConditionRefersToSomething(block.Type, rule.Condition)...)
	if diags.HasErrors() {
		return nil, diags
	}
	return rule, diags
}

// decodeProviderConfigRef reads a provider argument: NAME, NAME.ALIAS or
// NAME.ALIAS[KEY] for a configuration with for_each.
func decodeProviderConfigRef(expr hcl.Expression, argName string) (*ProviderConfigRef, hcl.Diagnostics) {
	var keyExpr hcl.Expression
	if index, ok := expr.(*hclsyntax.IndexExpr); ok {
		keyExpr = index.Key
		expr = index.Collection
	}
	traversal, diags := hcl.AbsTraversalForExpr(expr)
	if diags.HasErrors() {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider reference",
			Detail:   fmt.Sprintf("The %s argument requires a provider type name, optionally followed by a period and then a configuration alias.", argName),
			Subject:  expr.Range().Ptr(),
		}}
	}
	// A literal key, as in NAME.ALIAS["eu"], parses as part of the
	// traversal rather than as an index expression: split it off so both
	// spellings give the same reference.
	if last, ok := traversal[len(traversal)-1].(hcl.TraverseIndex); ok && keyExpr == nil && len(traversal) > 1 {
		keyExpr = &hclsyntax.LiteralValueExpr{Val: last.Key, SrcRange: last.SrcRange}
		traversal = traversal[:len(traversal)-1]
	}
	local, diags := addrs.ParseLocalProviderConfig(traversal)
	if diags.HasErrors() {
		return nil, diags
	}
	ref := &ProviderConfigRef{Name: local.LocalName, NameRange: traversal[0].SourceRange(), Alias: local.Alias, KeyExpr: keyExpr}
	if len(traversal) > 1 {
		ref.AliasRange = traversal[1].SourceRange().Ptr()
	}
	if keyExpr != nil && ref.Alias == "" {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider reference",
			Detail:   "Only provider configurations with an alias can have instances: write NAME.ALIAS[KEY].",
			Subject:  expr.Range().Ptr(),
		}}
	}
	return ref, nil
}

// escapingBlock handles the meta-argument escaping block "_" of a resource,
// data, module or provider block: its arguments belong to the body (the
// provider's or the module's), even those named like meta-arguments, so it
// is merged into body. seen is the escaping block found before, if any;
// only one is allowed.
func escapingBlock(body hcl.Body, block *hcl.Block, seen **hcl.Block) (hcl.Body, hcl.Diagnostics) {
	if *seen != nil {
		return body, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Duplicate escaping block",
			Detail:   fmt.Sprintf("The special block type \"_\" can be used to force particular arguments to be interpreted as arguments rather than as meta-arguments, but each block can have only one such block. The first escaping block was at %s.", (*seen).DefRange),
			Subject:  block.DefRange.Ptr(),
		}}
	}
	*seen = block
	return hcl.MergeBodies([]hcl.Body{body, block.Body}), nil
}

// reservedBlockDiag reports a block type that is reserved for future use.
func reservedBlockDiag(block *hcl.Block, within string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Reserved block type name in %s block", within),
		Detail:   fmt.Sprintf("The block type name %q is reserved for use by a future version of the language.", block.Type),
		Subject:  block.TypeRange.Ptr(),
	}
}

// sortedAttributes returns attributes in source order, so diagnostics and
// declarations come out in the order the user wrote them.
func sortedAttributes(attrs hcl.Attributes) []*hcl.Attribute {
	list := make([]*hcl.Attribute, 0, len(attrs))
	for _, attr := range attrs {
		list = append(list, attr)
	}
	slices.SortFunc(list, func(a, b *hcl.Attribute) int {
		if a.Range.Filename != b.Range.Filename {
			return strings.Compare(a.Range.Filename, b.Range.Filename)
		}
		return a.Range.Start.Byte - b.Range.Start.Byte
	})
	return list
}
