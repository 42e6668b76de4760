package ui

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/schema"
)

// change is one part of an object's change as the differ walks it: the
// value before and after (cty.NilVal where there is none; values keep their
// sensitive marks), where it is, and what the schema says of it.
type change struct {
	before, after cty.Value
	path          cty.Path
	// sensitive is true when the schema declares the value sensitive, so
	// both sides are hidden whatever their marks.
	sensitive bool
	// allRelevant is true when every part of the value is to be shown; a
	// drift report shows only the attributes the plan's changes depend on.
	allRelevant bool
	ctx         *diffContext
}

// diffContext is what holds for the whole object being diffed.
type diffContext struct {
	// replacePaths are the attributes whose change forces replacement.
	replacePaths []cty.Path
	// relevantPaths, when filtered is set, are the only attributes whose
	// changes are shown; every other attribute is shown as unchanged.
	relevantPaths []cty.Path
	filtered      bool
}

// absent reports whether v stands for no value at all.
func absent(v cty.Value) bool { return v == cty.NilVal || v.IsNull() }

// implicit turns a null into no value: a null attribute of an object is
// simply not set, and is not shown.
func implicit(v cty.Value) cty.Value {
	if v != cty.NilVal && v.IsNull() {
		return cty.NilVal
	}
	return v
}

func (c change) replaces() bool {
	for _, path := range c.ctx.replacePaths {
		if path.Equals(c.path) {
			return true
		}
	}
	return false
}

// relevant reports whether any part of the value may be shown changed: it
// lies under a relevant attribute, or a relevant attribute lies under it.
func (c change) relevant() bool {
	if c.allRelevant || !c.ctx.filtered {
		return true
	}
	for _, path := range c.ctx.relevantPaths {
		if hasPrefix(path, c.path) || hasPrefix(c.path, path) {
			return true
		}
	}
	return false
}

func hasPrefix(path, prefix cty.Path) bool {
	return len(prefix) <= len(path) && prefix.Equals(path[:len(prefix)])
}

// asNoOp is the change as if nothing changed: shown, but not as a change.
func (c change) asNoOp() change {
	c.after = c.before
	return c
}

// child is the change to one attribute or element: get extracts the part
// from each side's value (it is called only on known, non-null values).
func (c change) child(step cty.PathStep, get func(cty.Value) cty.Value) change {
	out := change{path: extendPath(c.path, step), allRelevant: c.allRelevant, ctx: c.ctx}
	if !absent(c.before) && c.before.IsKnown() {
		out.before = get(c.before)
	}
	if !absent(c.after) && c.after.IsKnown() {
		out.after = get(c.after)
	}
	return out
}

// attr is the change to the named attribute of an object value; nulls are
// not set.
func (c change) attr(name string) change {
	child := c.child(cty.GetAttrStep{Name: name}, func(v cty.Value) cty.Value {
		if !v.Type().IsObjectType() || !v.Type().HasAttribute(name) {
			return cty.NilVal
		}
		return v.GetAttr(name)
	})
	child.before, child.after = implicit(child.before), implicit(child.after)
	if !child.relevant() {
		child = child.asNoOp()
	}
	return child
}

func extendPath(path cty.Path, step cty.PathStep) cty.Path {
	out := make(cty.Path, len(path), len(path)+1)
	copy(out, path)
	return append(out, step)
}

// sensitivity reports whether each side is sensitive at this level.
func (c change) sensitivity() (before, after bool) {
	before = c.before != cty.NilVal && (c.sensitive || c.before.HasMark(marks.Sensitive))
	after = c.after != cty.NilVal && (c.sensitive || c.after.HasMark(marks.Sensitive))
	return before, after
}

// compareActions folds a child's action into its parent's: any change makes
// the parent updated, unless every child agrees (all created, say).
func compareActions(current, next plans.Action) plans.Action {
	if next == plans.NoOp {
		return current
	}
	if current != next {
		return plans.Update
	}
	return current
}

// iterationAction is a collection's or object's own action before its
// children are counted: created or deleted when a side is missing.
func (c change) iterationAction() plans.Action {
	switch {
	case absent(c.before) && absent(c.after):
		return plans.NoOp
	case absent(c.before):
		return plans.Create
	case absent(c.after):
		return plans.Delete
	default:
		return plans.NoOp
	}
}

// primitiveAction is the action on a single value.
func (c change) primitiveAction() plans.Action {
	switch {
	case c.before == cty.NilVal && c.after != cty.NilVal:
		return plans.Create
	case c.before != cty.NilVal && c.after == cty.NilVal:
		return plans.Delete
	case c.before == cty.NilVal && c.after == cty.NilVal:
		return plans.NoOp
	}
	before, _ := c.before.UnmarkDeep()
	after, _ := c.after.UnmarkDeep()
	if before.RawEquals(after) {
		return plans.NoOp
	}
	return plans.Update
}

// withSensitivity hides the value when either side is sensitive. compute
// works out the inner change, which decides the action (hidden values still
// say whether they change), from the values without their marks.
func (c change) withSensitivity(compute func(change) diffNode, blockStyle bool) (diffNode, bool) {
	beforeSensitive, afterSensitive := c.sensitivity()
	if !beforeSensitive && !afterSensitive {
		return diffNode{}, false
	}
	plain := c
	plain.sensitive = false
	if plain.before != cty.NilVal {
		plain.before, _ = plain.before.UnmarkDeep()
	}
	if plain.after != cty.NilVal {
		plain.after, _ = plain.after.UnmarkDeep()
	}
	inner := compute(plain)
	action := inner.action
	if action == plans.NoOp && beforeSensitive != afterSensitive {
		action = plans.Update
	}
	node := diffNode{action: action, replace: c.replaces()}
	if blockStyle {
		node.view = sensitiveBlockView{inner: inner, beforeSensitive: beforeSensitive, afterSensitive: afterSensitive}
	} else {
		node.view = sensitiveView{inner: inner, beforeSensitive: beforeSensitive, afterSensitive: afterSensitive}
	}
	return node, true
}

// withUnknown renders a value known only after apply. compute renders what
// the value was, shown as going away.
func (c change) withUnknown(compute func(change) diffNode) (diffNode, bool) {
	if c.after == cty.NilVal || c.after.IsKnown() {
		return diffNode{}, false
	}
	if absent(c.before) {
		return diffNode{action: plans.Create, replace: c.replaces(), view: unknownView{}}, true
	}
	gone := c
	gone.after = cty.NilVal
	before := compute(gone)
	return diffNode{action: plans.Update, replace: c.replaces(), view: unknownView{before: &before}}, true
}

// diffType works out the change to a value of a plain (non-nested) type.
func diffType(c change, ty cty.Type) diffNode {
	if node, ok := c.withSensitivity(func(c change) diffNode { return diffType(c, ty) }, false); ok {
		return node
	}
	if node, ok := c.withUnknown(func(c change) diffNode { return diffType(c, ty) }); ok {
		return node
	}
	switch {
	case ty == cty.DynamicPseudoType:
		return diffDynamic(c)
	case ty.IsPrimitiveType():
		return diffNode{action: c.primitiveAction(), replace: c.replaces(), view: primitiveView{before: c.before, after: c.after, ty: ty}}
	case ty.IsObjectType():
		return diffObjectType(c, ty.AttributeTypes())
	case ty.IsMapType():
		return diffMap(c, func(element change) diffNode { return diffType(element, ty.ElementType()) }, false)
	case ty.IsListType():
		return diffList(c, func(element change) diffNode { return diffType(element, ty.ElementType()) }, typedListPairing(ty.ElementType()))
	case ty.IsTupleType():
		return diffTuple(c, ty.TupleElementTypes())
	case ty.IsSetType():
		return diffSet(c, func(element change) diffNode { return diffType(element, ty.ElementType()) }, false)
	}
	return diffNode{action: c.primitiveAction(), view: primitiveView{before: c.before, after: c.after, ty: cty.String}}
}

func diffObjectType(c change, attrTypes map[string]cty.Type) diffNode {
	attributes, action := diffAttributes(c, attrTypes, false, func(child *change, ty cty.Type) diffNode { return diffType(*child, ty) })
	return diffNode{action: action, replace: c.replaces(), view: attributesView{attributes: attributes}}
}

// diffAttributes diffs each attribute of an object value with diffOne,
// which may adjust the child change first; attributes null on both sides
// are left out altogether. Write-only attributes, null in every plan and
// state, come last and take the action of the others: as OpenTofu shows
// them, changed when anything else in the object changes (or when they
// force its replacement). A block's own write-only attributes are shown
// even unchanged (inBlock); a nested object's are then left out.
func diffAttributes[T any](c change, attrs map[string]T, inBlock bool, diffOne func(child *change, attr T) diffNode) (map[string]diffNode, plans.Action) {
	action := c.iterationAction()
	out := make(map[string]diffNode, len(attrs))
	var writeOnly []string
	for _, name := range sortedKeys(attrs) {
		child := c.attr(name)
		node := diffOne(&child, attrs[name])
		if _, ok := node.view.(writeOnlyView); ok {
			writeOnly = append(writeOnly, name)
			continue
		}
		if node.action == plans.NoOp && absent(child.before) && absent(child.after) {
			continue
		}
		out[name] = node
		action = compareActions(action, node.action)
	}
	for _, name := range writeOnly {
		child := c.attr(name)
		node := diffNode{action: action, replace: child.replaces(), view: writeOnlyView{}}
		if node.action == plans.NoOp && node.replace {
			node.action = plans.Update
		}
		if node.action == plans.NoOp && !inBlock && absent(child.before) && absent(child.after) {
			continue
		}
		out[name] = node
		action = compareActions(action, node.action)
	}
	return out, action
}

// diffTuple pairs a tuple's elements by position: each position has its
// own type.
func diffTuple(c change, types []cty.Type) diffNode {
	action := c.iterationAction()
	var elements []diffNode
	for i, ty := range types {
		element := c.index(i, i)
		if !element.relevant() {
			element = element.asNoOp()
		}
		node := diffType(element, ty)
		elements = append(elements, node)
		action = compareActions(action, node.action)
	}
	return diffNode{action: action, replace: c.replaces(), view: listView{elements: elements, showContext: true}}
}

// diffNestedType works out the change to a nested attribute type's value.
func diffNestedType(c change, nested *schema.Object) diffNode {
	compute := func(c change) diffNode { return diffNestedType(c, nested) }
	if node, ok := c.withSensitivity(compute, false); ok {
		return node
	}
	if node, ok := c.withUnknown(compute); ok {
		return node
	}
	single := func(element change) diffNode {
		return diffNestedType(element, &schema.Object{Attributes: nested.Attributes, Nesting: schema.NestingSingle})
	}
	switch nested.Nesting {
	case schema.NestingList:
		return diffPositional(c, single, listView{})
	case schema.NestingSet:
		return diffSet(c, single, true)
	case schema.NestingMap:
		return diffMap(c, single, true)
	default:
		return diffNestedObject(c, nested.Attributes)
	}
}

func diffNestedObject(c change, attrs map[string]*schema.Attribute) diffNode {
	attributes, action := diffAttributes(c, attrs, false, func(child *change, attr *schema.Attribute) diffNode { return diffAttribute(*child, attr) })
	return diffNode{action: action, replace: c.replaces(), view: attributesView{attributes: attributes, keepNullSuffix: true}}
}

// diffAttribute works out the change to one attribute of a block or of a
// nested attribute type.
func diffAttribute(c change, attr *schema.Attribute) diffNode {
	if attr == nil {
		// A malformed schema; show the value by its own shape.
		return diffDynamic(c)
	}
	if attr.WriteOnly {
		return diffNode{action: plans.NoOp, view: writeOnlyView{}}
	}
	c.sensitive = c.sensitive || attr.Sensitive
	if attr.NestedType != nil {
		return diffNestedType(c, attr.NestedType)
	}
	return diffType(c, attr.Type)
}
