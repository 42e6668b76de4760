package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
)

// EvalExpr evaluates expr and converts the result to wantType (use
// cty.DynamicPseudoType for "any"). On error the value is unknown of
// wantType, so callers can keep going and collect more diagnostics.
func (s *Scope) EvalExpr(expr hcl.Expression, wantType cty.Type) (cty.Value, hcl.Diagnostics) {
	val, _, diags := s.EvalExprIn(expr, wantType)
	return val, diags
}

// EvalExprIn is EvalExpr that also returns the context expr was evaluated
// in, for diagnostics about the value that show its references' values;
// the context is nil when it could not be made.
func (s *Scope) EvalExprIn(expr hcl.Expression, wantType cty.Type) (cty.Value, *hcl.EvalContext, hcl.Diagnostics) {
	ctx, diags := s.EvalContext(expr.Variables(), ProviderFunctionsInExpr(expr))
	if diags.HasErrors() {
		return cty.UnknownVal(wantType), nil, diags
	}
	val, evalDiags := expr.Value(ctx)
	diags = append(diags, evalDiags...)
	if evalDiags.HasErrors() {
		return cty.UnknownVal(wantType), ctx, diags
	}
	val, deprecated := takeDeprecationsFromExpr(val, expr)
	diags = append(diags, deprecated...)
	if wantType == cty.DynamicPseudoType {
		return val, ctx, diags
	}
	converted, err := convert.Convert(val, wantType)
	if err != nil {
		return cty.UnknownVal(wantType), ctx, diags.Append(&hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     "Incorrect value type",
			Detail:      fmt.Sprintf("Invalid expression value: %s.", convertErrorMessage(err)),
			Subject:     expr.Range().Ptr(),
			Expression:  expr,
			EvalContext: ctx,
		})
	}
	return converted, ctx, diags
}

// convertErrorMessage words a conversion failure, naming the attribute
// path inside the value when there is one.
func convertErrorMessage(err error) string {
	if pathErr, ok := err.(cty.PathError); ok && len(pathErr.Path) > 0 {
		return fmt.Sprintf("%s: %s", formatPath(pathErr.Path), pathErr.Error())
	}
	return err.Error()
}

func formatPath(path cty.Path) string {
	out := ""
	for _, step := range path {
		switch step := step.(type) {
		case cty.GetAttrStep:
			out += "." + step.Name
		case cty.IndexStep:
			if step.Key.Type() == cty.String {
				out += fmt.Sprintf("[%q]", step.Key.AsString())
			} else {
				out += "[" + step.Key.AsBigFloat().Text('f', -1) + "]"
			}
		}
	}
	if len(out) > 0 && out[0] == '.' {
		out = out[1:]
	}
	return "attribute " + fmt.Sprintf("%q", out)
}

// EvalBlock expands the `dynamic` blocks of body and decodes it with spec,
// usually a provider schema's decoder spec, into one object value.
func (s *Scope) EvalBlock(body hcl.Body, spec hcldec.Spec) (cty.Value, hcl.Diagnostics) {
	return s.EvalPreparedBlock(PrepareBlock(body, spec))
}

// PreparedBlock is a body and its decoder spec with the body's references
// and provider function calls found once, so that evaluating it for each
// of thousands of count/for_each instances skips walking the syntax again.
type PreparedBlock struct {
	Body       hcl.Body
	Spec       hcldec.Spec
	traversals []hcl.Traversal
	calls      []ProviderFunctionRef
}

// PrepareBlock finds the references and function calls of body once.
func PrepareBlock(body hcl.Body, spec hcldec.Spec) *PreparedBlock {
	return &PreparedBlock{
		Body:       body,
		Spec:       spec,
		traversals: dynblock.VariablesHCLDec(body, spec),
		calls:      ProviderFunctionsInBody(body),
	}
}

// EvalPreparedBlock is EvalBlock for a block prepared ahead of time.
func (s *Scope) EvalPreparedBlock(block *PreparedBlock) (cty.Value, hcl.Diagnostics) {
	ctx, diags := s.EvalContext(block.traversals, block.calls)
	if diags.HasErrors() {
		return cty.UnknownVal(hcldec.ImpliedType(block.Spec)), diags
	}
	expanded := dynblock.Expand(block.Body, ctx)
	val, decodeDiags := hcldec.Decode(expanded, block.Spec, ctx)
	diags = append(diags, decodeDiags...)
	if decodeDiags.HasErrors() {
		return cty.UnknownVal(hcldec.ImpliedType(block.Spec)), diags
	}
	val, deprecated := takeDeprecationsFromBlock(val, block.Body)
	return val, append(diags, deprecated...)
}

// ExpandBlock returns body with its `dynamic` blocks expanded, for callers
// that decode it themselves. Evaluating the for_each of a dynamic block
// needs the references listed by dynblock.ExpandVariablesHCLDec.
func (s *Scope) ExpandBlock(body hcl.Body, spec hcldec.Spec) (hcl.Body, hcl.Diagnostics) {
	ctx, diags := s.EvalContext(dynblock.ExpandVariablesHCLDec(body, spec), ProviderFunctionsInBody(body))
	if diags.HasErrors() {
		return body, diags
	}
	return dynblock.Expand(body, ctx), diags
}

// EvalReference returns the value a reference's subject resolves to, with
// its remaining attribute and index steps applied.
func (s *Scope) EvalReference(ref *addrs.Reference, wantType cty.Type) (cty.Value, hcl.Diagnostics) {
	traversal := append(referenceTraversal(ref), ref.Remaining...)
	return s.EvalExpr(&hclsyntax.ScopeTraversalExpr{Traversal: traversal, SrcRange: ref.SourceRange}, wantType)
}

// referenceTraversal re-creates the traversal that names ref.Subject.
func referenceTraversal(ref *addrs.Reference) hcl.Traversal {
	parsed, diags := hclTraversalFromString(ref.Subject.String(), ref.SourceRange)
	if diags.HasErrors() {
		return hcl.Traversal{hcl.TraverseRoot{Name: ref.Subject.String(), SrcRange: ref.SourceRange}}
	}
	return parsed
}
