package jsonconfig

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/schema"
)

// Expression is one argument's expression: its value when it is a constant,
// otherwise the addresses it refers to, each reference listed from its
// longest form (var.x.a[0]) down to the object it names (var.x).
type Expression struct {
	ConstantValue json.RawMessage `json:"constant_value,omitempty"`
	References    []string        `json:"references,omitempty"`
}

// Empty reports whether the expression is neither a constant nor refers to
// anything (a function call on literals, say): the format leaves such a
// count or for_each out.
func (e Expression) Empty() bool {
	return e.ConstantValue == nil && len(e.References) == 0
}

// NewExpression renders expr; nil renders as an empty Expression.
func NewExpression(expr hcl.Expression) Expression {
	var out Expression
	if expr == nil {
		return out
	}
	// Evaluating without a context succeeds only for expressions made of
	// literals; anything that refers to something or calls a function
	// comes back unknown, which has no JSON form.
	if val, diags := expr.Value(nil); !diags.HasErrors() && val.IsWhollyKnown() {
		val, _ = val.UnmarkDeep()
		if raw, err := ctyjson.Marshal(val, val.Type()); err == nil {
			out.ConstantValue = raw
		}
	}
	refs, _ := addrs.ReferencesInExpr(expr)
	for _, ref := range refs {
		out.References = append(out.References, referenceForms(ref)...)
	}
	return out
}

// referenceForms lists a reference from its full form down to the object it
// names, then, for an instance of a resource or module call, the whole
// resource or call, so consumers can match references at any granularity.
func referenceForms(ref *addrs.Reference) []string {
	subject := ref.Subject.String()
	var forms []string
	for remaining := ref.Remaining; len(remaining) > 0; remaining = remaining[:len(remaining)-1] {
		forms = append(forms, subject+traversalString(remaining))
	}
	forms = append(forms, subject)
	switch subject := ref.Subject.(type) {
	case addrs.ResourceInstance:
		if subject.Key != addrs.NoKey {
			forms = append(forms, subject.Resource.String())
		}
	case addrs.ModuleCallInstance:
		if subject.Key != addrs.NoKey {
			forms = append(forms, subject.Call.String())
		}
	case addrs.ModuleCallInstanceOutput:
		forms = append(forms, subject.Call.String())
	}
	return forms
}

// traversalString prints relative traversal steps as written: .name, [0],
// ["key"].
func traversalString(traversal hcl.Traversal) string {
	var b strings.Builder
	for _, step := range traversal {
		switch step := step.(type) {
		case hcl.TraverseAttr:
			b.WriteString("." + step.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + indexKeyString(step.Key) + "]")
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
	}
	return b.String()
}

func indexKeyString(key cty.Value) string {
	if !key.IsKnown() || key.IsNull() {
		return "?"
	}
	switch key.Type() {
	case cty.String:
		quoted, _ := json.Marshal(key.AsString())
		return string(quoted)
	case cty.Number:
		return key.AsBigFloat().Text('f', -1)
	default:
		return fmt.Sprintf("%#v", key)
	}
}

// Expressions renders the arguments of body that block declares: each
// attribute as an Expression, each single or group nested block as the
// expressions of its content, and each repeated nested block type as a list
// of them. A nil block renders every attribute the body has.
func Expressions(body hcl.Body, block *schema.Block) map[string]any {
	if body == nil {
		return nil
	}
	out := map[string]any{}
	if block == nil {
		attrs, _ := body.JustAttributes()
		for name, attr := range attrs {
			out[name] = NewExpression(attr.Expr)
		}
		return emptyAsNil(out)
	}
	content, _, _ := body.PartialContent(bodySchema(block))
	for name, attr := range content.Attributes {
		out[name] = NewExpression(attr.Expr)
	}
	for _, nested := range content.Blocks {
		blockType := block.BlockTypes[nested.Type]
		if blockType == nil {
			continue
		}
		rendered := Expressions(nested.Body, &blockType.Block)
		if rendered == nil {
			rendered = map[string]any{}
		}
		switch blockType.Nesting {
		case schema.NestingSingle, schema.NestingGroup:
			out[nested.Type] = rendered
		default:
			list, _ := out[nested.Type].([]map[string]any)
			out[nested.Type] = append(list, rendered)
		}
	}
	return emptyAsNil(out)
}

func emptyAsNil(m map[string]any) map[string]any {
	if len(m) == 0 {
		return nil
	}
	return m
}

// bodySchema is the HCL body schema of a block: its attributes and nested
// block types, map blocks taking their key as a label.
func bodySchema(block *schema.Block) *hcl.BodySchema {
	out := &hcl.BodySchema{}
	for name := range block.Attributes {
		out.Attributes = append(out.Attributes, hcl.AttributeSchema{Name: name})
	}
	for name, nested := range block.BlockTypes {
		blockSchema := hcl.BlockHeaderSchema{Type: name}
		if nested.Nesting == schema.NestingMap {
			blockSchema.LabelNames = []string{"key"}
		}
		out.Blocks = append(out.Blocks, blockSchema)
	}
	return out
}
