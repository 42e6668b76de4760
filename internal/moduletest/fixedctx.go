package moduletest

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// fixedContextBody is a test file's provider block as the engine sees it
// in the module under test: its expressions refer to the test's variables
// and run outputs, so they are evaluated in the test's context whatever
// context the engine offers, and they refer to nothing in the module.
type fixedContextBody struct {
	body hcl.Body
	ctx  *hcl.EvalContext
}

func (b *fixedContextBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	content, hd := b.body.Content(schema)
	return b.wrapContent(content), hd
}

func (b *fixedContextBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	content, rest, hd := b.body.PartialContent(schema)
	return b.wrapContent(content), &fixedContextBody{body: rest, ctx: b.ctx}, hd
}

func (b *fixedContextBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, hd := b.body.JustAttributes()
	return b.wrapAttributes(attrs), hd
}

func (b *fixedContextBody) MissingItemRange() hcl.Range { return b.body.MissingItemRange() }

func (b *fixedContextBody) wrapContent(content *hcl.BodyContent) *hcl.BodyContent {
	if content == nil {
		return nil
	}
	out := *content
	out.Attributes = b.wrapAttributes(content.Attributes)
	out.Blocks = make(hcl.Blocks, len(content.Blocks))
	for i, block := range content.Blocks {
		wrapped := *block
		wrapped.Body = &fixedContextBody{body: block.Body, ctx: b.ctx}
		out.Blocks[i] = &wrapped
	}
	return &out
}

func (b *fixedContextBody) wrapAttributes(attrs hcl.Attributes) hcl.Attributes {
	if attrs == nil {
		return nil
	}
	out := make(hcl.Attributes, len(attrs))
	for name, attr := range attrs {
		wrapped := *attr
		wrapped.Expr = &fixedContextExpr{Expression: attr.Expr, ctx: b.ctx}
		out[name] = &wrapped
	}
	return out
}

// fixedContextExpr evaluates an expression in its own context.
type fixedContextExpr struct {
	hcl.Expression
	ctx *hcl.EvalContext
}

func (e *fixedContextExpr) Value(*hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	return e.Expression.Value(e.ctx)
}

// Variables is empty: the expression needs nothing from the module.
func (e *fixedContextExpr) Variables() []hcl.Traversal { return nil }
