package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// TypeConstraint is a variable's type with the defaults of its optional()
// object attributes.
type TypeConstraint struct {
	Type     cty.Type
	Defaults *typeexpr.Defaults
	// ParseAsLiteral is true when values given on the command line or in
	// environment variables are taken as literal strings rather than parsed
	// as HCL expressions, which is the case for primitive types (string,
	// number, bool) and for variables without a type.
	ParseAsLiteral bool
}

// reservedVariableNames are argument names of module blocks; a variable
// with one of them could not be set from a module call.
var reservedVariableNames = map[string]bool{
	"source": true, "version": true, "providers": true, "count": true,
	"for_each": true, "lifecycle": true, "depends_on": true, "locals": true,
}

var variableBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "default"},
		{Name: "type"},
		{Name: "sensitive"},
		{Name: "nullable"},
		{Name: "ephemeral"},
		{Name: "deprecated"},
		{Name: "const"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "validation"},
	},
}

func decodeVariableBlock(block *hcl.Block) (*Variable, hcl.Diagnostics) {
	name := block.Labels[0]
	variable := &Variable{
		Name:      name,
		Type:      TypeConstraint{Type: cty.DynamicPseudoType, ParseAsLiteral: true},
		Nullable:  true,
		DeclRange: block.DefRange,
	}
	diags := checkIdentifier("variable", name, labelRange(block, 0))
	if reservedVariableNames[name] {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid variable name",
			Detail:   fmt.Sprintf("The variable name %q is reserved due to its special meaning inside module blocks.", name),
			Subject:  labelRange(block, 0).Ptr(),
		})
	}
	content, moreDiags := block.Body.Content(variableBlockSchema)
	diags = append(diags, moreDiags...)
	diags = append(diags, decodeVariableAttributes(variable, content.Attributes)...)
	for _, inner := range content.Blocks {
		rule, moreDiags := decodeCheckRule(inner)
		diags = append(diags, moreDiags...)
		ruleContent, _ := inner.Body.Content(checkRuleSchema)
		if attr, ok := ruleContent.Attributes["condition"]; ok {
			diags = append(diags, checkValidationRefersToVariable(name, attr.Expr)...)
		}
		appendIfDecoded(&variable.Validations, rule)
	}
	return variable, diags
}

func decodeVariableAttributes(variable *Variable, attrs hcl.Attributes) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if attr, ok := attrs["description"]; ok {
		diags = append(diags, decodeString(attr, &variable.Description)...)
		variable.DescriptionSet = true
	}
	if attr, ok := attrs["type"]; ok {
		constraint, moreDiags := decodeTypeConstraint(attr.Expr)
		diags = append(diags, moreDiags...)
		if !moreDiags.HasErrors() {
			variable.Type, variable.TypeSet = constraint, true
		}
	}
	if attr, ok := attrs["sensitive"]; ok {
		diags = append(diags, decodeBool(attr, &variable.Sensitive)...)
		variable.SensitiveSet = true
	}
	if attr, ok := attrs["ephemeral"]; ok {
		diags = append(diags, decodeBool(attr, &variable.Ephemeral)...)
		variable.EphemeralSet = true
	}
	if attr, ok := attrs["const"]; ok {
		diags = append(diags, decodeBool(attr, &variable.Const)...)
		variable.ConstSet = true
	}
	if attr, ok := attrs["deprecated"]; ok {
		diags = append(diags, decodeDeprecated(attr, &variable.DeprecatedMessage)...)
	}
	if attr, ok := attrs["nullable"]; ok {
		diags = append(diags, decodeBool(attr, &variable.Nullable)...)
		variable.NullableSet = true
	}
	if attr, ok := attrs["default"]; ok {
		variable.Default = attr.Expr
		diags = append(diags, checkVariableDefault(variable)...)
	}
	return diags
}

// checkVariableDefault reports a default that cannot be converted to the
// variable's type, which no caller could ever fix, and warns about parts of
// it the conversion would drop.
func checkVariableDefault(variable *Variable) hcl.Diagnostics {
	val, diags := variable.Default.Value(nil)
	if diags.HasErrors() {
		return diags
	}
	if variable.Type.Defaults != nil && !val.IsNull() {
		val = variable.Type.Defaults.Apply(val)
	}
	if _, err := convert.Convert(val, variable.Type.Type); err != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid default value for variable",
			Detail:   fmt.Sprintf("This default value is not compatible with the variable's type constraint: %s.", formatConversionError(err)),
			Subject:  variable.Default.Range().Ptr(),
		})
	}
	diags = append(diags, lintVariableDefault(variable.Default, variable.Type.Type)...)
	if val.IsNull() && !variable.Nullable {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid default value for variable",
			Detail:   "A null default value is not valid when nullable=false.",
			Subject:  variable.Default.Range().Ptr(),
		})
	}
	return diags
}

// decodeTypeConstraint reads a type expression. Besides what typeexpr
// accepts, the bare keywords list and map still mean list(any) and
// map(any), and the quoted forms of very old configurations are rejected
// with a hint.
func decodeTypeConstraint(expr hcl.Expression) (TypeConstraint, hcl.Diagnostics) {
	_, quoted := expr.(*hclsyntax.TemplateExpr)
	if val, diags := expr.Value(nil); quoted && !diags.HasErrors() && val.Type() == cty.String && !val.IsNull() {
		return TypeConstraint{}, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid quoted type constraints",
			Detail:   fmt.Sprintf("Type constraints are no longer written in quotes. Remove the quotes around %q.", val.AsString()),
			Subject:  expr.Range().Ptr(),
		}}
	}
	switch hcl.ExprAsKeyword(expr) {
	case "list":
		return TypeConstraint{Type: cty.List(cty.DynamicPseudoType)}, nil
	case "map":
		return TypeConstraint{Type: cty.Map(cty.DynamicPseudoType)}, nil
	}
	ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr)
	if diags.HasErrors() {
		return TypeConstraint{}, diags
	}
	// As OpenTofu's decodeVariableType does, every primitive type takes
	// command-line text literally: -var n=5 gives the string "5", which
	// converts to the number; -var n=1+1 is not a number.
	return TypeConstraint{Type: ty, Defaults: defaults, ParseAsLiteral: ty.IsPrimitiveType()}, diags
}

// decodeDeprecated reads a variable's or output's deprecated message, which
// OpenTofu requires to say something: it is what users of the module see.
func decodeDeprecated(attr *hcl.Attribute, target *string) hcl.Diagnostics {
	diags := decodeString(attr, target)
	if !diags.HasErrors() && strings.TrimSpace(*target) == "" {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid `deprecated` value",
			Detail:   `The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.`,
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	return diags
}

// decodeLocalsBlock reads the named values of a locals block.
func decodeLocalsBlock(block *hcl.Block) ([]*Local, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	locals := make([]*Local, 0, len(attrs))
	for _, attr := range sortedAttributes(attrs) {
		diags = append(diags, checkIdentifier("local value", attr.Name, attr.NameRange)...)
		locals = append(locals, &Local{Name: attr.Name, Expr: attr.Expr, DeclRange: attr.Range})
	}
	return locals, diags
}

var outputBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "value", Required: true},
		{Name: "sensitive"},
		{Name: "ephemeral"},
		{Name: "depends_on"},
		{Name: "deprecated"},
		{Name: "const"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "precondition"},
		{Type: "postcondition"},
	},
}

func decodeOutputBlock(block *hcl.Block) (*Output, hcl.Diagnostics) {
	output := &Output{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkIdentifier("output", output.Name, labelRange(block, 0))
	content, moreDiags := block.Body.Content(outputBlockSchema)
	diags = append(diags, moreDiags...)
	if attr, ok := content.Attributes["description"]; ok {
		diags = append(diags, decodeString(attr, &output.Description)...)
	}
	if attr, ok := content.Attributes["value"]; ok {
		output.Expr = attr.Expr
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		diags = append(diags, decodeBool(attr, &output.Sensitive)...)
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		diags = append(diags, decodeBool(attr, &output.Ephemeral)...)
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, moreDiags := decodeDependsOn(attr)
		diags = append(diags, moreDiags...)
		output.DependsOn = deps
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		diags = append(diags, decodeDeprecated(attr, &output.DeprecatedMessage)...)
	}
	for _, inner := range content.Blocks {
		if inner.Type == "postcondition" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Postconditions are not allowed",
				Detail:   "Output values can only have preconditions, not postconditions.",
				Subject:  inner.TypeRange.Ptr(),
			})
			continue
		}
		rule, moreDiags := decodeCheckRule(inner)
		diags = append(diags, moreDiags...)
		appendIfDecoded(&output.Preconditions, rule)
	}
	return output, diags
}
