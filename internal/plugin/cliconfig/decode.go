package cliconfig

import (
	"fmt"

	hclv1 "github.com/hashicorp/hcl"
	"github.com/hashicorp/hcl/hcl/ast"
	"github.com/hashicorp/hcl/hcl/token"
	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/diags"
)

// The file format is HCL 1, not HCL 2: CLI configuration files in the wild
// write dev_overrides entries with quoted keys ("hashicorp/null" = "..."),
// which HCL 2's native syntax rejects. Terraform and OpenTofu read these
// files with HCL 1 too, so using it keeps every existing file valid.

// decoder walks an HCL 1 syntax tree, collecting diagnostics that name the
// file and line of each problem.
type decoder struct {
	filename string
	diags    diags.Diagnostics
}

// parseSyntax parses src as HCL 1 native syntax or, when it starts with
// "{", as JSON.
func (d *decoder) parseSyntax(src []byte) *ast.ObjectList {
	file, err := hclv1.ParseBytes(src)
	if err != nil {
		// OpenTofu reports the parser's error as it is ("At 3:1: ..."),
		// in the summary, with no source range.
		d.diags = append(d.diags, diags.Diagnostic{Severity: diags.Error,
			Summary: fmt.Sprintf("Error parsing %s: %s", d.filename, err)})
		return nil
	}
	list, ok := file.Node.(*ast.ObjectList)
	if !ok {
		d.errorAt(file.Node.Pos(), "Invalid CLI configuration file", "The file must contain settings and blocks at its top level.")
		return nil
	}
	return list
}

func (d *decoder) rangeAt(pos token.Pos) *hcl.Range {
	start := hcl.Pos{Line: pos.Line, Column: pos.Column, Byte: pos.Offset}
	return &hcl.Range{Filename: d.filename, Start: start, End: start}
}

func (d *decoder) errorAt(pos token.Pos, summary, detailFormat string, args ...any) {
	d.addAt(pos, diags.Errorf(summary, detailFormat, args...))
}

func (d *decoder) warnAt(pos token.Pos, summary, detailFormat string, args ...any) {
	d.addAt(pos, diags.Warnf(summary, detailFormat, args...))
}

// addAt records diag at pos. HCL 1's JSON parser keeps no positions, so
// for JSON files the diagnostic names the file in its detail instead.
func (d *decoder) addAt(pos token.Pos, diag diags.Diagnostic) {
	if pos.IsValid() {
		diag.Subject = d.rangeAt(pos)
	} else {
		diag.Detail = "In " + d.filename + ": " + diag.Detail
	}
	d.diags = append(d.diags, diag)
}

// keyName returns the unquoted text of an object key.
func keyName(key *ast.ObjectKey) string {
	if value, ok := key.Token.Value().(string); ok {
		return value
	}
	return key.Token.Text
}

// firstKey returns the name of an item: its first key, or "" when it has
// none.
func firstKey(item *ast.ObjectItem) string {
	if len(item.Keys) == 0 {
		return ""
	}
	return keyName(item.Keys[0])
}

// objectItems returns the items of an object, which may be empty.
func objectItems(object *ast.ObjectType) []*ast.ObjectItem {
	if object == nil || object.List == nil {
		return nil
	}
	return object.List.Items
}

// stringValue reads a string setting; what names it in messages.
func (d *decoder) stringValue(item *ast.ObjectItem, what string) (string, bool) {
	literal, ok := item.Val.(*ast.LiteralType)
	if ok && (literal.Token.Type == token.STRING || literal.Token.Type == token.HEREDOC) {
		if value, isString := literal.Token.Value().(string); isString {
			return value, true
		}
	}
	d.errorAt(item.Val.Pos(), "Invalid "+what, "The value of %s must be a string, such as \"...\".", what)
	return "", false
}

// boolValue reads a true/false setting.
func (d *decoder) boolValue(item *ast.ObjectItem, what string) (bool, bool) {
	literal, ok := item.Val.(*ast.LiteralType)
	if ok && literal.Token.Type == token.BOOL {
		return literal.Token.Text == "true", true
	}
	d.errorAt(item.Val.Pos(), "Invalid "+what, "The value of %s must be true or false.", what)
	return false, false
}

// stringList reads a list of strings, such as include = ["hashicorp/*"].
func (d *decoder) stringList(item *ast.ObjectItem, what string) ([]string, bool) {
	list, ok := item.Val.(*ast.ListType)
	if !ok {
		d.errorAt(item.Val.Pos(), "Invalid "+what, "The value of %s must be a list of strings, such as [\"hashicorp/*\"].", what)
		return nil, false
	}
	values := make([]string, 0, len(list.List))
	for _, elem := range list.List {
		literal, isLiteral := elem.(*ast.LiteralType)
		value, isString := "", false
		if isLiteral && literal.Token.Type == token.STRING {
			value, isString = literal.Token.Value().(string)
		}
		if !isString {
			d.errorAt(elem.Pos(), "Invalid "+what, "Every element of %s must be a string.", what)
			return nil, false
		}
		values = append(values, value)
	}
	return values, true
}

// blockBodies returns the bodies of the unlabelled blocks in items, which
// come from a Filter by the block's name. JSON files reach the same tree in
// a different shape: HCL 1 flattens {"a": {"b": {...}}} into one item keyed
// "a" "b", so items that still have keys are parts of one block and are
// gathered back into a single body.
func (d *decoder) blockBodies(items *ast.ObjectList, blockName string) []blockBody {
	var bodies []blockBody
	var flattened *ast.ObjectList
	var flattenedPos token.Pos
	for _, item := range items.Items {
		if len(item.Keys) > 0 {
			if flattened == nil {
				flattened = &ast.ObjectList{}
				flattenedPos = item.Keys[0].Pos()
			}
			flattened.Add(item)
			continue
		}
		object, ok := item.Val.(*ast.ObjectType)
		if !ok {
			d.errorAt(item.Val.Pos(), "Invalid "+blockName+" block", "%s must be a block: %s { ... }.", blockName, blockName)
			continue
		}
		// Filter stripped the block's name, so its position is the brace.
		bodies = append(bodies, blockBody{pos: object.Lbrace, items: &ast.ObjectList{Items: objectItems(object)}})
	}
	if flattened != nil {
		bodies = append(bodies, blockBody{pos: flattenedPos, items: flattened})
	}
	return bodies
}

// blockBody is the content of one block and where the block starts.
type blockBody struct {
	pos   token.Pos
	items *ast.ObjectList
}
