package ui

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/plans"
)

// valueKind is the shape of a value of no declared type (a dynamic
// attribute, an output, a JSON document): what JSON would call it. Maps and
// objects look alike, as do lists, sets and tuples.
type valueKind int

const (
	kindNull valueKind = iota
	kindBool
	kindNumber
	kindString
	kindObject
	kindArray
)

func kindOf(v cty.Value) valueKind {
	if absent(v) {
		return kindNull
	}
	ty := v.Type()
	switch {
	case ty == cty.Bool:
		return kindBool
	case ty == cty.Number:
		return kindNumber
	case ty == cty.String:
		return kindString
	case ty.IsObjectType() || ty.IsMapType():
		return kindObject
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		return kindArray
	}
	return kindNull
}

func (k valueKind) primitiveType() cty.Type {
	switch k {
	case kindBool:
		return cty.Bool
	case kindNumber:
		return cty.Number
	case kindString:
		return cty.String
	}
	return cty.NilType
}

// diffDynamic works out the change to a value whose type the schema leaves
// open, by its shape alone. Such values never say they force replacement:
// the provider's replacement paths name attributes, not parts of a value
// it did not type.
func diffDynamic(c change) diffNode {
	if node, ok := c.withSensitivity(diffDynamic, false); ok {
		return node
	}
	if node, ok := c.withUnknown(diffDynamic); ok {
		node.replace = false
		return node
	}
	beforeKind, afterKind := kindOf(c.before), kindOf(c.after)
	created, deleted := c.before == cty.NilVal, c.after == cty.NilVal
	if beforeKind == afterKind || created || deleted {
		kind := beforeKind
		if kind == kindNull {
			kind = afterKind
		}
		return diffDynamicAs(c, kind)
	}
	gone, came := c, c
	gone.after, came.before = cty.NilVal, cty.NilVal
	view := typeChangeView{before: diffDynamicAs(gone, beforeKind), after: diffDynamicAs(came, afterKind)}
	return diffNode{action: plans.Update, view: view}
}

func diffDynamicAs(c change, kind valueKind) diffNode {
	switch kind {
	case kindObject:
		attributes, action := diffMapElements(c, diffDynamic, isObject(c.before) || isObject(c.after))
		return diffNode{action: action, view: attributesView{attributes: attributes}}
	case kindArray:
		elements, action := diffSequence(c.asSlice(), diffDynamic, jsonPairing)
		return diffNode{action: action, view: listView{elements: elements, showContext: true}}
	default:
		return diffNode{action: c.primitiveAction(), view: primitiveView{before: c.before, after: c.after, ty: kind.primitiveType()}}
	}
}

func isObject(v cty.Value) bool { return v != cty.NilVal && v.Type().IsObjectType() }
