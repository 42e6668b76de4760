package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// lintVariableDefault warns about attributes of object constructors in a
// variable's default that the type constraint has no place for: converting
// the default drops them, which is almost certainly a mistake (a misspelt
// attribute name, most often). It never returns errors.
func lintVariableDefault(expr hcl.Expression, ty cty.Type) hcl.Diagnostics {
	if ty.IsPrimitiveType() || ty == cty.DynamicPseudoType {
		return nil
	}
	var diags hcl.Diagnostics
	for _, unused := range discardedObjectAttrs(expr, ty, nil) {
		prePath, step := unused.path[:len(unused.path)-1], unused.path[len(unused.path)-1]
		name := step.(cty.GetAttrStep).Name
		suggestion := ""
		attrs := make([]string, 0, len(unused.objectType.AttributeTypes()))
		for attr := range unused.objectType.AttributeTypes() {
			attrs = append(attrs, attr)
		}
		slices.Sort(attrs)
		if similar := nameSuggestion(name, attrs); similar != "" {
			suggestion = fmt.Sprintf(" Did you mean to set attribute %q instead?", similar)
		}
		noun := "The object type for this variable"
		if len(prePath) > 0 {
			noun = "The object type for " + formatCtyPath(prePath)
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Object attribute is ignored",
			Detail:   fmt.Sprintf("%s does not include an attribute named %q, so this definition is unused.%s", noun, name, suggestion),
			Subject:  unused.nameRange.Ptr(),
			Context:  unused.contextRange.Ptr(),
		})
	}
	return diags
}

// discardedObjectAttr is an attribute of an object constructor that
// conversion to a type constraint would drop.
type discardedObjectAttr struct {
	path         cty.Path // to the attribute, from the whole value
	nameRange    hcl.Range
	contextRange hcl.Range // the object constructor holding it
	objectType   cty.Type  // the object type it was converted to
}

// discardedObjectAttrs walks the constructors of expr alongside ty. Only
// literal constructors are followed: what other expressions produce is not
// known without evaluating them.
func discardedObjectAttrs(expr hcl.Expression, ty cty.Type, path cty.Path) []discardedObjectAttr {
	switch expr := expr.(type) {
	case *hclsyntax.ObjectConsExpr:
		return discardedInObjectCons(expr, ty, path)
	case *hclsyntax.TupleConsExpr:
		switch {
		case ty.IsListType() || ty.IsSetType():
			var out []discardedObjectAttr
			for i, elem := range expr.Exprs {
				out = append(out, discardedObjectAttrs(elem, ty.ElementType(), extendPath(path, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}))...)
			}
			return out
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == len(expr.Exprs):
			var out []discardedObjectAttr
			for i, elem := range expr.Exprs {
				out = append(out, discardedObjectAttrs(elem, ty.TupleElementType(i), extendPath(path, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}))...)
			}
			return out
		}
	case *hclsyntax.ForExpr:
		switch {
		case ty.IsMapType() && expr.KeyExpr != nil:
			return discardedObjectAttrs(expr.ValExpr, ty.ElementType(), extendPath(path, cty.IndexStep{Key: cty.UnknownVal(cty.String)}))
		case (ty.IsListType() || ty.IsSetType()) && expr.KeyExpr == nil:
			return discardedObjectAttrs(expr.ValExpr, ty.ElementType(), extendPath(path, cty.IndexStep{Key: cty.UnknownVal(cty.Number)}))
		}
	}
	return nil
}

func discardedInObjectCons(expr *hclsyntax.ObjectConsExpr, ty cty.Type, path cty.Path) []discardedObjectAttr {
	if !ty.IsObjectType() && !ty.IsMapType() {
		return nil
	}
	var out []discardedObjectAttr
	for _, item := range expr.Items {
		key, ok := objectConsKeyName(item.KeyExpr)
		if !ok {
			continue
		}
		switch {
		case ty.IsMapType():
			out = append(out, discardedObjectAttrs(item.ValueExpr, ty.ElementType(), extendPath(path, cty.IndexStep{Key: cty.StringVal(key)}))...)
		case ty.HasAttribute(key):
			out = append(out, discardedObjectAttrs(item.ValueExpr, ty.AttributeType(key), extendPath(path, cty.GetAttrStep{Name: key}))...)
		default:
			out = append(out, discardedObjectAttr{path: extendPath(path, cty.GetAttrStep{Name: key}),
				nameRange: item.KeyExpr.Range(), contextRange: expr.SrcRange, objectType: ty})
		}
	}
	return out
}

// objectConsKeyName is the name an object constructor key gives, when it
// is a constant.
func objectConsKeyName(expr hcl.Expression) (string, bool) {
	key, diags := expr.Value(nil)
	if diags.HasErrors() || !key.IsKnown() || key.IsNull() {
		return "", false
	}
	key, _ = key.Unmark()
	key, err := convert.Convert(key, cty.String)
	if err != nil {
		return "", false
	}
	return key.AsString(), true
}

func extendPath(path cty.Path, step cty.PathStep) cty.Path {
	out := make(cty.Path, len(path), len(path)+1)
	copy(out, path)
	return append(out, step)
}

// formatCtyPath writes a path as OpenTofu's messages write it:
// .attr[0]["key"].
func formatCtyPath(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch step := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + step.Name)
		case cty.IndexStep:
			key := step.Key
			switch {
			case key.IsNull():
				b.WriteString("[null]")
			case !key.IsKnown():
				b.WriteString("[(not yet known)]")
			case key.Type() == cty.Number:
				b.WriteString("[" + key.AsBigFloat().Text('g', -1) + "]")
			case key.Type() == cty.String:
				b.WriteString("[" + strconv.Quote(key.AsString()) + "]")
			default:
				b.WriteString("[...]")
			}
		}
	}
	return b.String()
}

// formatConversionError is a conversion error with the path it happened
// at, as OpenTofu words it: `.name: a string is required`.
func formatConversionError(err error) string {
	var pathErr cty.PathError
	if pe, ok := err.(cty.PathError); ok {
		pathErr = pe
	}
	if len(pathErr.Path) == 0 {
		return err.Error()
	}
	return fmt.Sprintf("%s: %s", formatCtyPath(pathErr.Path), pathErr.Error())
}
