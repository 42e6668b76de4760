package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/plans"
)

// primitiveView renders a bool, number or string, or a null of any type.
// Strings holding several lines render as heredocs diffed line by line;
// strings holding JSON render as jsonencode() of the diffed document.
type primitiveView struct {
	before, after cty.Value // cty.NilVal where there is no value
	ty            cty.Type
}

func (v primitiveView) render(node diffNode, indent int, o renderOpts) string {
	if v.ty == cty.String {
		return v.renderString(node, indent, o)
	}
	before, after := primitiveText(v.before, o), primitiveText(v.after, o)
	replace := forcesReplacement(node.replace, o)
	switch node.action {
	case plans.Create:
		return after + replace
	case plans.Delete:
		return before + nullSuffix(node.action, o) + replace
	case plans.NoOp:
		return before + replace
	default:
		return before + " " + arrow(o) + " " + after + replace
	}
}

func primitiveText(v cty.Value, o renderOpts) string {
	if absent(v) {
		return o.pal.darkGray("null")
	}
	v, _ = v.UnmarkDeep()
	switch v.Type() {
	case cty.Bool:
		return strconv.FormatBool(v.True())
	case cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case cty.String:
		return quoted(v.AsString())
	}
	return o.pal.darkGray("null")
}

// stringValue is a string as the renderer sees it.
type stringValue struct {
	text      string    // the string, trimmed when multi-line
	json      cty.Value // the parsed document when the string is JSON
	multiline bool
	null      bool
}

func readString(v cty.Value) stringValue {
	if absent(v) {
		return stringValue{null: true}
	}
	v, _ = v.UnmarkDeep()
	text := v.AsString()
	if strings.HasPrefix(text, "{") || strings.HasPrefix(text, "[") {
		if doc, ok := parseJSON(text); ok {
			return stringValue{text: text, json: doc}
		}
	}
	if strings.Contains(text, "\n") {
		return stringValue{text: strings.TrimSpace(text), multiline: true}
	}
	return stringValue{text: text}
}

// parseJSON reads a JSON document into a value of the type it implies.
func parseJSON(text string) (cty.Value, bool) {
	ty, err := ctyjson.ImpliedType([]byte(text))
	if err != nil {
		return cty.NilVal, false
	}
	doc, err := ctyjson.Unmarshal([]byte(text), ty)
	if err != nil {
		return cty.NilVal, false
	}
	return doc, true
}

func (s stringValue) isJSON() bool { return s.json != cty.NilVal }

func (s stringValue) simple(o renderOpts) string {
	if s.null {
		return o.pal.darkGray("null")
	}
	return quoted(s.text)
}

func (v primitiveView) renderString(node diffNode, indent int, o renderOpts) string {
	replace := forcesReplacement(node.replace, o)
	var lines []string
	switch node.action {
	case plans.Create, plans.NoOp:
		str := readString(v.after)
		if node.action == plans.NoOp {
			str = readString(v.before)
		}
		if str.isJSON() {
			if node.action == plans.NoOp {
				return renderJSONString(node, indent, o, str, str)
			}
			return renderJSONString(node, indent, o, stringValue{}, str)
		}
		if !str.multiline {
			return str.simple(o) + replace
		}
		lines = heredocLines(str.text, indent, plans.NoOp, o)
	case plans.Delete:
		str := readString(v.before)
		if str.null {
			return str.simple(o) + replace
		}
		if str.isJSON() {
			return renderJSONString(node, indent, o, str, stringValue{})
		}
		if !str.multiline {
			return str.simple(o) + nullSuffix(node.action, o) + replace
		}
		lines = heredocLines(str.text, indent, plans.NoOp, o)
	default:
		before, after := readString(v.before), readString(v.after)
		if before.isJSON() && after.isJSON() {
			return renderJSONString(node, indent, o, before, after)
		}
		if before.isJSON() || after.isJSON() {
			gone := diffNode{action: plans.Delete, view: primitiveView{before: v.before, ty: cty.String}}
			came := diffNode{action: plans.Create, view: primitiveView{after: v.after, ty: cty.String}}
			return diffNode{action: node.action, replace: node.replace, view: typeChangeView{before: gone, after: came}}.render(indent, o)
		}
		if !before.multiline && !after.multiline {
			return before.simple(o) + " " + arrow(o) + " " + after.simple(o) + replace
		}
		lines = diffLines(before.text, after.text, indent, o)
	}
	return fmt.Sprintf("<<-EOT%s\n%s\n%sEOT%s", replace, strings.Join(lines, "\n"), linePrefix(indent, plans.NoOp, o), nullSuffix(node.action, o))
}

// heredocLines prefixes each line of text for the body of a heredoc.
func heredocLines(text string, indent int, action plans.Action, o renderOpts) []string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = linePrefix(indent+1, action, o) + line
	}
	return lines
}

// diffLines diffs two multi-line strings line by line, as a sequence.
func diffLines(before, after string, indent int, o renderOpts) []string {
	beforeLines, afterLines := strings.Split(before, "\n"), strings.Split(after, "\n")
	var out []string
	for _, pair := range pairSequences(stringValues(beforeLines), stringValues(afterLines), neverPair) {
		switch {
		case pair[0] < 0:
			out = append(out, linePrefix(indent+1, plans.Create, o)+afterLines[pair[1]])
		case pair[1] < 0:
			out = append(out, linePrefix(indent+1, plans.Delete, o)+beforeLines[pair[0]])
		default:
			out = append(out, linePrefix(indent+1, plans.NoOp, o)+beforeLines[pair[0]])
		}
	}
	return out
}

func stringValues(texts []string) []cty.Value {
	out := make([]cty.Value, len(texts))
	for i, text := range texts {
		out[i] = cty.StringVal(text)
	}
	return out
}

// renderJSONString renders a JSON string's change as jsonencode() of the
// diffed documents. A change in whitespace alone is said to be one, since
// the diff of the documents would show nothing.
func renderJSONString(node diffNode, indent int, o renderOpts, before, after stringValue) string {
	docChange := change{allRelevant: true, ctx: &diffContext{}}
	if node.action != plans.Create {
		docChange.before = before.json
	}
	if node.action != plans.Delete {
		docChange.after = after.json
	}
	doc := diffDynamic(docChange)

	symbolAction := node.action
	docOpts := o
	docOpts.noNullSuffix = true
	var whitespace, replace string
	if doc.action == plans.NoOp && node.action == plans.Update {
		whitespace = " # whitespace changes"
		if node.replace {
			whitespace = " # whitespace changes force replacement"
		}
		docOpts.showUnchanged = true
		symbolAction = plans.NoOp
	} else {
		replace = forcesReplacement(node.replace, o)
	}
	rendered := doc.render(indent+1, docOpts)
	if node.action == plans.Create || node.action == plans.Delete {
		// The document's own lines carry + or -; the jsonencode line does not.
		symbolAction = plans.NoOp
	}
	if strings.Contains(rendered, "\n") {
		return fmt.Sprintf("jsonencode(%s\n%s%s%s\n%s)%s", whitespace, linePrefix(indent+1, symbolAction, o), rendered, replace, linePrefix(indent, plans.NoOp, o), nullSuffix(node.action, o))
	}
	return fmt.Sprintf("jsonencode(%s)%s%s", rendered, whitespace, replace)
}
