package ui

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/terrane/terrane/internal/plans"
)

// diffNode is one part of a change — an attribute, a block, a collection
// element — with the action it undergoes, ready to render. The node's view
// knows its shape; the node itself only what every shape shares.
type diffNode struct {
	action plans.Action // NoOp, Create, Update or Delete at this level
	// replace is true when a change here is what forces the whole object
	// to be replaced (the provider's RequiresReplace paths).
	replace bool
	view    diffView
}

// diffView renders one shape of change. indent is the nesting depth of the
// line the rendering starts on; nested lines are indented one step more.
type diffView interface {
	render(node diffNode, indent int, o renderOpts) string
}

// warningView is a view that prints warning lines above its own line.
type warningView interface {
	warnings(node diffNode, indent int, o renderOpts) []string
}

func (n diffNode) render(indent int, o renderOpts) string { return n.view.render(n, indent, o) }

func (n diffNode) warnings(indent int, o renderOpts) []string {
	if w, ok := n.view.(warningView); ok {
		return w.warnings(n, indent, o)
	}
	return nil
}

// renderOpts are the switches a parent passes down to its children.
type renderOpts struct {
	pal palette
	// showUnchanged shows unchanged children instead of counting them in a
	// "# (N unchanged ... hidden)" line.
	showUnchanged bool
	// noNullSuffix drops the " -> null" after deleted values whose parent
	// already says the whole thing goes away.
	noNullSuffix bool
	// forceReplace marks this value as forcing replacement even when its
	// own node does not say so (a parent collection pushes it down).
	forceReplace bool
	// hideSymbols drops the action symbol column, for renderings of what
	// exists (the state) rather than of what changes.
	hideSymbols bool
	// showSensitive shows sensitive values (-show-sensitive).
	showSensitive bool
}

// clone is o for a child's rendering. As OpenTofu's RenderHumanOpts.Clone
// does, it drops forceReplace: a parent marks only its direct children as
// forcing replacement, never a whole subtree.
func (o renderOpts) clone() renderOpts {
	o.forceReplace = false
	return o
}

// indentation is one nesting level: four columns, the width of an action
// symbol and its space.
func indentation(level int) string { return strings.Repeat("    ", level) }

// actionSymbol is the three-column symbol for an action, coloured.
func actionSymbol(action plans.Action, pal palette) string {
	switch action {
	case plans.Create:
		return "  " + pal.green("+")
	case plans.Delete:
		return "  " + pal.red("-")
	case plans.Update:
		return "  " + pal.yellow("~")
	case plans.DeleteThenCreate:
		return pal.red("-") + "/" + pal.green("+")
	case plans.CreateThenDelete:
		return pal.green("+") + "/" + pal.red("-")
	case plans.CreateThenForget:
		return pal.green("+") + "/" + pal.red(".")
	case plans.Read:
		return " " + pal.cyan("<=")
	case plans.Forget:
		return "  " + pal.red(".")
	default:
		return "   "
	}
}

// symbolColumn is the action symbol with the space after it.
func symbolColumn(action plans.Action, o renderOpts) string {
	if o.hideSymbols {
		return ""
	}
	return actionSymbol(action, o.pal) + " "
}

// linePrefix starts a line at the given depth with the action's symbol.
func linePrefix(indent int, action plans.Action, o renderOpts) string {
	return indentation(indent) + symbolColumn(action, o)
}

func nullSuffix(action plans.Action, o renderOpts) string {
	if action == plans.Delete && !o.noNullSuffix {
		return " " + o.pal.darkGray("-> null")
	}
	return ""
}

func forcesReplacement(replace bool, o renderOpts) string {
	if replace || o.forceReplace {
		return " " + o.pal.red("# forces replacement")
	}
	return ""
}

func unchangedNote(kind string, count int, o renderOpts) string {
	if count != 1 {
		kind += "s"
	}
	return o.pal.darkGray(fmt.Sprintf("# (%d unchanged %s hidden)", count, kind))
}

func arrow(o renderOpts) string { return o.pal.yellow("->") }

// attributeName writes a name as HCL would accept it: bare when it is an
// identifier, quoted otherwise.
func attributeName(name string) string {
	if isIdentifier(name) {
		return name
	}
	return quoted(name)
}

// isIdentifier reports whether name is an HCL identifier: a letter or
// underscore, then letters, digits, underscores and dashes. (Checked by
// hand: the HCL scanner's own check costs a tokenizer run per name.)
func isIdentifier(name string) bool {
	for i, r := range name {
		switch {
		case unicode.IsLetter(r) || r == '_':
		case i > 0 && (unicode.IsDigit(r) || r == '-'):
		default:
			return false
		}
	}
	return name != ""
}

// quoted quotes a string the way every rendered string is quoted.
func quoted(s string) string { return fmt.Sprintf("%q", s) }

// alwaysShown are the attributes shown even when unchanged: they are what
// people recognise an object by.
func alwaysShown(name string) bool { return name == "id" || name == "name" || name == "tags" }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

func widestName(names []string, escape func(string) string) int {
	widest := 0
	for _, name := range names {
		widest = max(widest, len(escape(name)))
	}
	return widest
}

// writeWarnings writes a node's warning lines at the given depth.
func writeWarnings(b *strings.Builder, node diffNode, indent int, o renderOpts) {
	for _, warning := range node.warnings(indent, o) {
		fmt.Fprintf(b, "%s%s\n", indentation(indent), warning)
	}
}

// attributesView renders name = value pairs between braces: the attributes
// of an object-typed value or of a nested attribute type. Objects of plain
// object type leave the "-> null" off their deleted attributes; nested
// attribute objects keep it.
type attributesView struct {
	attributes     map[string]diffNode
	keepNullSuffix bool
}

func (v attributesView) render(node diffNode, indent int, o renderOpts) string {
	if len(v.attributes) == 0 {
		return "{}" + nullSuffix(node.action, o) + forcesReplacement(node.replace, o)
	}
	childOpts := o.clone()
	childOpts.noNullSuffix = !v.keepNullSuffix
	var b strings.Builder
	b.WriteString("{" + forcesReplacement(node.replace, o) + "\n")
	unchanged := writeAttributeLines(&b, v.attributes, indent, o, childOpts)
	closeBraces(&b, "}", "attribute", unchanged, node, indent, o)
	return b.String()
}

// closeBraces writes the "# (N unchanged … hidden)" line, when anything was
// left out, and the closing brace or bracket with the null suffix.
func closeBraces(b *strings.Builder, closer, kind string, unchanged int, node diffNode, indent int, o renderOpts) {
	if unchanged > 0 {
		fmt.Fprintf(b, "%s%s\n", linePrefix(indent+1, plans.NoOp, o), unchangedNote(kind, unchanged, o))
	}
	b.WriteString(linePrefix(indent, plans.NoOp, o) + closer + nullSuffix(node.action, o))
}

// writeAttributeLines writes "name = value" lines, names aligned, leaving
// out unchanged attributes (counted in the result) unless o says to show
// them; the attributes people recognise an object by are always shown.
func writeAttributeLines(b *strings.Builder, attributes map[string]diffNode, indent int, o, childOpts renderOpts) int {
	names := sortedKeys(attributes)
	width := widestName(names, attributeName)
	unchanged := 0
	for _, name := range names {
		attr := attributes[name]
		attrOpts := childOpts
		if alwaysShown(name) {
			attrOpts.showUnchanged = true
		} else if attr.action == plans.NoOp && !o.showUnchanged {
			unchanged++
			continue
		}
		writeWarnings(b, attr, indent+1, attrOpts)
		fmt.Fprintf(b, "%s%-*s = %s\n", linePrefix(indent+1, attr.action, attrOpts), width, attributeName(name), attr.render(indent+1, attrOpts))
	}
	return unchanged
}

// mapView renders a map's elements with quoted keys. Maps of nested
// attribute objects push "forces replacement" down to their elements and
// do not align their keys (each element spans several lines).
type mapView struct {
	elements map[string]diffNode
	nested   bool
}

func (v mapView) render(node diffNode, indent int, o renderOpts) string {
	replaceSelf := node.replace && !v.nested
	if len(v.elements) == 0 {
		return "{}" + nullSuffix(node.action, o) + forcesReplacement(replaceSelf, o)
	}
	childOpts := o.clone()
	childOpts.noNullSuffix = node.action == plans.Delete || v.nested
	childOpts.forceReplace = node.replace && v.nested
	keys := sortedKeys(v.elements)
	width := widestName(keys, quoted)

	var b strings.Builder
	b.WriteString("{" + forcesReplacement(replaceSelf, o) + "\n")
	unchanged := 0
	for _, key := range keys {
		element := v.elements[key]
		if element.action == plans.NoOp && !o.showUnchanged {
			unchanged++
			continue
		}
		writeWarnings(&b, element, indent+1, o)
		comma := ""
		if _, isObject := element.view.(attributesView); isObject {
			comma = ","
		}
		name := quoted(key)
		if !v.nested {
			name = fmt.Sprintf("%-*s", width, name)
		}
		fmt.Fprintf(&b, "%s%s = %s%s\n", linePrefix(indent+1, element.action, childOpts), name, element.render(indent+1, childOpts), comma)
	}
	closeBraces(&b, "}", "element", unchanged, node, indent, o)
	return b.String()
}

// setView renders a set's elements, changed ones first in the order the
// differ paired them. Sets of nested objects push "forces replacement"
// down to their elements.
type setView struct {
	elements []diffNode
	nested   bool
}

func (v setView) render(node diffNode, indent int, o renderOpts) string {
	replaceSelf := node.replace && !v.nested
	if len(v.elements) == 0 {
		return "[]" + nullSuffix(node.action, o) + forcesReplacement(replaceSelf, o)
	}
	childOpts := o.clone()
	childOpts.noNullSuffix = true
	childOpts.forceReplace = node.replace && v.nested

	var b strings.Builder
	b.WriteString("[" + forcesReplacement(replaceSelf, o) + "\n")
	unchanged := 0
	for _, element := range v.elements {
		if element.action == plans.NoOp && !o.showUnchanged {
			unchanged++
			continue
		}
		writeWarnings(&b, element, indent+1, o)
		fmt.Fprintf(&b, "%s%s,\n", linePrefix(indent+1, element.action, childOpts), element.render(indent+1, childOpts))
	}
	closeBraces(&b, "]", "element", unchanged, node, indent, o)
	return b.String()
}

// listView renders a list's elements in order. Lists of plain values show
// the unchanged element on either side of each change, because position
// matters in a list; lists of nested objects show only what changed.
type listView struct {
	elements    []diffNode
	showContext bool
}

func (v listView) render(node diffNode, indent int, o renderOpts) string {
	if len(v.elements) == 0 {
		return "[]" + nullSuffix(node.action, o) + forcesReplacement(node.replace, o)
	}
	elementOpts := o.clone()
	elementOpts.noNullSuffix = true
	contextOpts := elementOpts
	contextOpts.showUnchanged = true

	var b strings.Builder
	b.WriteString("[" + forcesReplacement(node.replace, o) + "\n")
	var skipped []diffNode // unchanged elements not yet written
	showNext := false      // the element after a change is shown as context
	writeElement := func(element diffNode, opts renderOpts) {
		writeWarnings(&b, element, indent+1, opts)
		fmt.Fprintf(&b, "%s%s,\n", linePrefix(indent+1, element.action, opts), element.render(indent+1, opts))
	}
	for _, element := range v.elements {
		if element.action == plans.NoOp && !showNext && !o.showUnchanged {
			skipped = append(skipped, element)
			continue
		}
		showNext = false
		opts := elementOpts
		if v.showContext {
			if len(skipped) > 1 {
				fmt.Fprintf(&b, "%s%s\n", linePrefix(indent+1, plans.NoOp, o), unchangedNote("element", len(skipped)-1, o))
			}
			if len(skipped) > 0 {
				writeElement(skipped[len(skipped)-1], contextOpts)
			}
			skipped = nil
			if element.action == plans.NoOp {
				opts = contextOpts
			} else {
				showNext = true
			}
		}
		writeElement(element, opts)
	}
	if len(skipped) > 0 {
		fmt.Fprintf(&b, "%s%s\n", linePrefix(indent+1, plans.NoOp, o), unchangedNote("element", len(skipped), o))
	}
	b.WriteString(linePrefix(indent, plans.NoOp, o) + "]" + nullSuffix(node.action, o))
	return b.String()
}

// unknownView renders a value that will be known only after apply, after
// what it was, if anything.
type unknownView struct {
	before *diffNode // nil when there was no value before
}

func (v unknownView) render(node diffNode, indent int, o renderOpts) string {
	if v.before == nil {
		return "(known after apply)" + forcesReplacement(node.replace, o)
	}
	beforeOpts := o.clone()
	beforeOpts.noNullSuffix = true
	// Unlike every other change, OpenTofu leaves this arrow uncoloured.
	return v.before.render(indent, beforeOpts) + " -> (known after apply)" + forcesReplacement(node.replace, o)
}

// writeOnlyView stands in for a write-only attribute, whose value the
// provider receives but no plan or state ever holds.
type writeOnlyView struct{}

func (writeOnlyView) render(node diffNode, indent int, o renderOpts) string {
	return "(write-only attribute)" + forcesReplacement(node.replace, o) + nullSuffix(node.action, o)
}

// sensitiveView hides a value that is, or was, sensitive, and warns when
// the change makes a value sensitive or stops it being so.
type sensitiveView struct {
	inner                           diffNode
	beforeSensitive, afterSensitive bool
}

func (v sensitiveView) render(node diffNode, indent int, o renderOpts) string {
	if o.showSensitive {
		return v.inner.render(indent, o)
	}
	return "(sensitive value)" + nullSuffix(node.action, o) + forcesReplacement(node.replace, o)
}

func (v sensitiveView) warnings(node diffNode, indent int, o renderOpts) []string {
	return sensitivityWarnings("attribute value", v.inner.action, v.beforeSensitive, v.afterSensitive, indent, o)
}

// sensitiveBlockView stands in for a nested block whose contents are, or
// were, sensitive as a whole.
type sensitiveBlockView struct {
	inner                           diffNode
	beforeSensitive, afterSensitive bool
}

func (v sensitiveBlockView) render(node diffNode, indent int, o renderOpts) string {
	prefix := linePrefix(indent, plans.NoOp, o)
	return fmt.Sprintf("{%s\n%s  # At least one attribute in this block is (or was) sensitive,\n%s  # so its contents will not be displayed.\n%s}",
		forcesReplacement(node.replace, o), prefix, prefix, prefix)
}

func (v sensitiveBlockView) warnings(node diffNode, indent int, o renderOpts) []string {
	return sensitivityWarnings("block", v.inner.action, v.beforeSensitive, v.afterSensitive, indent, o)
}

// sensitivityWarnings tells the user when a change alters whether a value
// is shown in later output; creates and deletes need no warning.
func sensitivityWarnings(what string, innerAction plans.Action, before, after bool, indent int, o renderOpts) []string {
	if before == after || innerAction == plans.Create || innerAction == plans.Delete {
		return nil
	}
	warning := o.pal.yellow("Warning")
	var text string
	if before {
		text = fmt.Sprintf("  # %s: this %s will no longer be marked as sensitive\n%s  # after applying this change.", warning, what, indentation(indent))
	} else {
		text = fmt.Sprintf("  # %s: this %s will be marked as sensitive and will not\n%s  # display in UI output after applying this change.", warning, what, indentation(indent))
	}
	if innerAction == plans.NoOp && what != "block" {
		text += " The value is unchanged."
	}
	return []string{text}
}

// typeChangeView renders a value whose type changes as the old value
// replaced by the new one.
type typeChangeView struct {
	before, after diffNode
}

func (v typeChangeView) render(node diffNode, indent int, o renderOpts) string {
	o.noNullSuffix = true
	return v.before.render(indent, o) + " " + arrow(o) + " " + v.after.render(indent, o)
}
