package repl

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/lang/funcs"
)

// InputFilename names console input in diagnostics.
const InputFilename = "<console-input>"

// Session evaluates console inputs in one scope.
type Session struct {
	Scope *lang.Scope
}

// Handle evaluates one complete input (see NeedsMoreInput) and returns the
// text to print, whether the user asked to leave, and any diagnostics.
func (s *Session) Handle(input string) (string, bool, hcl.Diagnostics) {
	switch strings.TrimSpace(input) {
	case "":
		return "", false, nil
	case "exit":
		return "", true, nil
	case "help":
		return helpText, false, nil
	}
	expr, diags := hclsyntax.ParseExpression([]byte(input), InputFilename, hcl.InitialPos)
	if diags.HasErrors() {
		return "", false, diags
	}
	val, evalDiags := s.Scope.EvalExpr(expr, cty.DynamicPseudoType)
	diags = append(diags, evalDiags...)
	if diags.HasErrors() {
		return "", false, diags
	}
	if val.Type().Equals(funcs.TypeType) && val.IsKnown() && !val.IsNull() {
		return TypeString(*val.EncapsulatedValue().(*cty.Type)), false, diags
	}
	if containsTypeValue(val) {
		return "", false, diags.Append(&hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid use of type function",
			Detail:   `The console-only "type" function cannot be used as part of an expression.`,
			Subject:  expr.Range().Ptr(),
		})
	}
	return FormatValue(val, 0), false, diags
}

func containsTypeValue(val cty.Value) bool {
	found := false
	_ = cty.Walk(val, func(_ cty.Path, v cty.Value) (bool, error) {
		if v.Type().Equals(funcs.TypeType) {
			found = true
		}
		return !found, nil
	})
	return found
}

// NeedsMoreInput reports whether src has brackets, braces, parentheses,
// template sequences or a heredoc still open, so the console keeps reading
// lines before evaluating.
func NeedsMoreInput(src string) bool {
	tokens, _ := hclsyntax.LexExpression([]byte(src), InputFilename, hcl.InitialPos)
	depth := 0
	for _, token := range tokens {
		switch token.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen,
			hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl, hclsyntax.TokenOHeredoc:
			depth++
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
			hclsyntax.TokenTemplateSeqEnd, hclsyntax.TokenCHeredoc:
			depth--
		}
	}
	return depth > 0
}

func sortedAttributeNames(ty cty.Type) []string {
	names := make([]string, 0, len(ty.AttributeTypes()))
	for name := range ty.AttributeTypes() {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

const helpText = `The Terrane console allows you to experiment with Terraform-language
expressions. You may refer to the variables and local values of the
configuration in the current directory just as you would in it.

Type in an expression to evaluate and hit <enter> to see the result;
an expression may span several lines while brackets are open.

To exit the console, type "exit" and hit <enter>, or use Control-C or
Control-D.`
