package ui

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/schema"
)

// nestedBlocks are the changed blocks of one nested block type.
type nestedBlocks struct {
	typeName string
	elements []diffNode
	// labels are the map keys of a NestingMap block type's elements, one
	// per element; nil for other nesting modes.
	labels                          []string
	replace                         bool
	beforeSensitive, afterSensitive bool
}

// blockView renders a block: its attributes, then each nested block type's
// blocks, separated by blank lines.
type blockView struct {
	attributes map[string]diffNode
	blocks     []nestedBlocks // sorted by type name
}

func (v blockView) render(node diffNode, indent int, o renderOpts) string {
	if len(v.attributes) == 0 && len(v.blocks) == 0 {
		return "{}" + forcesReplacement(node.replace, o)
	}
	var b strings.Builder
	b.WriteString("{" + forcesReplacement(node.replace, o) + "\n")
	unchangedAttributes := writeAttributeLines(&b, v.attributes, indent, o, o.clone())
	if unchangedAttributes > 0 {
		fmt.Fprintf(&b, "%s%s\n", linePrefix(indent+1, plans.NoOp, o), unchangedNote("attribute", unchangedAttributes, o))
	}
	unchangedBlocks := 0
	for _, group := range v.blocks {
		unchangedBlocks += v.writeBlocks(&b, group, indent, o)
	}
	if unchangedBlocks > 0 {
		fmt.Fprintf(&b, "\n%s%s\n", linePrefix(indent+1, plans.NoOp, o), unchangedNote("block", unchangedBlocks, o))
	}
	b.WriteString(linePrefix(indent, plans.NoOp, o) + "}")
	return b.String()
}

// writeBlocks writes one block type's changed blocks and returns how many
// unchanged ones it left out.
func (v blockView) writeBlocks(b *strings.Builder, group nestedBlocks, indent int, o renderOpts) int {
	unchanged := 0
	separated := false
	for i, element := range group.elements {
		element = group.hideIfSensitive(element)
		if element.action == plans.NoOp && !o.showUnchanged {
			unchanged++
			continue
		}
		if !separated && len(v.attributes) > 0 {
			b.WriteString("\n")
			separated = true
		}
		blockOpts := o.clone()
		blockOpts.forceReplace = group.replace
		label := ""
		if group.labels != nil {
			label = " " + quoted(group.labels[i])
		}
		writeWarnings(b, element, indent+1, blockOpts)
		fmt.Fprintf(b, "%s%s%s %s\n", linePrefix(indent+1, element.action, blockOpts), attributeName(group.typeName), label, element.render(indent+1, blockOpts))
	}
	return unchanged
}

// hideIfSensitive stands a sensitive block's placeholder in for it when the
// block type's value as a whole is, or was, sensitive.
func (g nestedBlocks) hideIfSensitive(element diffNode) diffNode {
	creating := element.action == plans.Create && g.afterSensitive
	deleting := element.action == plans.Delete && g.beforeSensitive
	modifying := (element.action == plans.Update || element.action == plans.NoOp) && (g.beforeSensitive || g.afterSensitive)
	if !creating && !deleting && !modifying {
		return element
	}
	action := element.action
	if action == plans.NoOp && g.beforeSensitive != g.afterSensitive {
		action = plans.Update
	}
	view := sensitiveBlockView{inner: element, beforeSensitive: g.beforeSensitive, afterSensitive: g.afterSensitive}
	return diffNode{action: action, replace: element.replace, view: view}
}

// diffBlock works out the change to a block's value: each attribute and
// each nested block.
func diffBlock(c change, block *schema.Block) diffNode {
	compute := func(c change) diffNode { return diffBlock(c, block) }
	if node, ok := c.withSensitivity(compute, true); ok {
		return node
	}
	if node, ok := c.withUnknown(compute); ok {
		return node
	}
	attributes, action := diffAttributes(c, block.Attributes, true, func(child *change, attr *schema.Attribute) diffNode {
		// Providers built on the legacy SDK cannot tell an empty string
		// from null, so OpenTofu shows an empty string in a block's own
		// attribute as no value at all, on either side of the change.
		child.before = emptyStringIsNull(child.before)
		child.after = emptyStringIsNull(child.after)
		return diffAttribute(*child, attr)
	})
	view := blockView{attributes: attributes}
	for _, name := range sortedKeys(block.BlockTypes) {
		nested := block.BlockTypes[name]
		if nested == nil || block.Attributes[name] != nil {
			continue
		}
		group, groupAction, shown := diffNestedBlocks(c.attr(name), name, nested)
		if !shown {
			continue
		}
		view.blocks = append(view.blocks, group)
		action = compareActions(action, groupAction)
	}
	return diffNode{action: action, replace: c.replaces(), view: view}
}

func emptyStringIsNull(v cty.Value) cty.Value {
	if v != cty.NilVal && v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
		if plain, _ := v.UnmarkDeep(); plain.AsString() == "" {
			return cty.NilVal
		}
	}
	return v
}

// diffNestedBlocks diffs the blocks of one nested block type. shown is
// false when the type has no blocks on either side.
func diffNestedBlocks(c change, typeName string, nested *schema.NestedBlock) (nestedBlocks, plans.Action, bool) {
	group := nestedBlocks{typeName: typeName, replace: c.replaces()}
	group.beforeSensitive, group.afterSensitive = c.sensitivity()
	// Whole-collection sensitivity is shown per block; inside, the values
	// are walked without it.
	if c.before != cty.NilVal {
		c.before, _ = c.before.Unmark()
	}
	if c.after != cty.NilVal {
		c.after, _ = c.after.Unmark()
	}
	bothAbsent := absent(c.before) && absent(c.after)
	if node, ok := c.withUnknown(func(c change) diffNode { return diffBlock(c, &nested.Block) }); ok {
		group.elements = []diffNode{node}
		return group, node.action, true
	}
	single := func(element change) diffNode { return diffBlock(element, &nested.Block) }
	var action plans.Action
	switch nested.Nesting {
	case schema.NestingSet:
		group.elements, action = diffSetElements(c, single)
	case schema.NestingList:
		group.elements, action = diffPositionalElements(c, single)
	case schema.NestingMap:
		var byKey map[string]diffNode
		byKey, action = diffMapElements(c, single, false)
		group.labels = sortedKeys(byKey)
		for _, key := range group.labels {
			group.elements = append(group.elements, byKey[key])
		}
	default:
		node := diffBlock(c, &nested.Block)
		group.elements, action = []diffNode{node}, node.action
	}
	if action == plans.NoOp && bothAbsent {
		return group, action, false
	}
	return group, action, true
}
