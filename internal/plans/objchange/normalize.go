package objchange

import (
	"github.com/terrane/terrane/internal/marks"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// NormalizeObjectFromLegacySDK makes an object from a provider that uses
// the legacy type system (the protocol's legacy_type_system flag, set by
// SDKv2 providers) follow the conventions the other rules assume: such
// providers cannot tell an absent block from an empty one, and may return a
// block as wholly unknown, which the protocol does not allow.
//
// Null collections of nested blocks become empty ones, a null group block
// becomes its empty value, and an unknown block becomes a known placeholder
// whose attributes are all unknown — the convention dynamic blocks over an
// unknown for_each use, which AssertObjectCompatible understands. Other
// values pass through unchanged, marks included.
func NormalizeObjectFromLegacySDK(val cty.Value, sch *schema.Block) cty.Value {
	if val == cty.NilVal {
		return cty.NullVal(sch.ImpliedType())
	}
	unmarked, pvm := marks.UnmarkDeepWithPaths(val)
	return marks.MarkWithPaths(normalizeLegacyObject(unmarked, sch), pvm)
}

func normalizeLegacyObject(val cty.Value, sch *schema.Block) cty.Value {
	if val.IsNull() || !val.IsKnown() || !val.Type().IsObjectType() {
		return val
	}
	out := make(map[string]cty.Value, len(sch.Attributes)+len(sch.BlockTypes))
	for name := range sch.Attributes {
		out[name] = attrOf(val, name)
	}
	for name, block := range sch.BlockTypes {
		out[name] = normalizeLegacyBlock(attrOf(val, name), block)
	}
	return cty.ObjectVal(out)
}

func normalizeLegacyBlock(val cty.Value, block *schema.NestedBlock) cty.Value {
	if block.Block.ImpliedType().HasDynamicTypes() {
		// The legacy type system has no dynamic types, so this block came
		// from another SDK and is left as it is.
		return val
	}
	switch block.Nesting {
	case schema.NestingSingle, schema.NestingGroup:
		switch {
		case !val.IsKnown():
			return unknownBlockPlaceholder(&block.Block)
		case val.IsNull() && block.Nesting == schema.NestingGroup:
			return block.EmptyValue()
		}
		return normalizeLegacyObject(val, &block.Block)
	case schema.NestingList, schema.NestingSet:
		if !val.IsKnown() {
			return collectionOf(block.Nesting, []cty.Value{unknownBlockPlaceholder(&block.Block)})
		}
		val = nullAsEmpty(val)
		elems := elements(val)
		for i, e := range elems {
			elems[i].val = normalizeLegacyObject(e.val, &block.Block)
		}
		return collectionLike(val, elems)
	default:
		return val // the legacy type system has no map blocks
	}
}

// unknownBlockPlaceholder is a known block whose every attribute is unknown
// and whose nested blocks are placeholders in turn: how a block that is
// itself unknown is written, since blocks cannot be unknown.
func unknownBlockPlaceholder(b *schema.Block) cty.Value {
	out := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, attr := range b.Attributes {
		out[name] = cty.UnknownVal(attr.ImpliedType())
	}
	for name, block := range b.BlockTypes {
		switch block.Nesting {
		case schema.NestingSingle, schema.NestingGroup:
			out[name] = unknownBlockPlaceholder(&block.Block)
		case schema.NestingList, schema.NestingSet:
			out[name] = collectionOf(block.Nesting, []cty.Value{unknownBlockPlaceholder(&block.Block)})
		default:
			// A map's keys cannot be made up; no blocks is the safe guess.
			out[name] = block.EmptyValue()
		}
	}
	return cty.ObjectVal(out)
}

func collectionOf(nesting schema.Nesting, vals []cty.Value) cty.Value {
	if nesting == schema.NestingSet {
		return cty.SetVal(vals)
	}
	return cty.ListVal(vals)
}

// hasUnknownPlaceholder reports whether a planned nested block value stood
// in for blocks nobody could count yet: the whole collection unknown, or an
// element that is an unknown block placeholder.
func hasUnknownPlaceholder(s shape, nesting schema.Nesting, planned cty.Value) bool {
	if nesting == schema.NestingSingle || nesting == schema.NestingGroup {
		return false
	}
	if !planned.IsKnown() {
		return true
	}
	for _, e := range elements(planned) {
		if isUnknownPlaceholder(s, e.val) {
			return true
		}
	}
	return false
}

// isUnknownPlaceholder reports whether obj is a known block all of whose
// attributes are unknown and whose nested blocks are placeholders too. A
// block with no attributes at all cannot be told from a real one.
func isUnknownPlaceholder(s shape, obj cty.Value) bool {
	if !obj.IsKnown() {
		return true
	}
	if obj.IsNull() || len(s.attrs) == 0 {
		return false
	}
	for name := range s.attrs {
		if attrOf(obj, name).IsKnown() {
			return false
		}
	}
	for name, block := range s.blocks {
		v := attrOf(obj, name)
		if !v.IsKnown() {
			continue
		}
		inner := blockShape(&block.Block)
		if block.Nesting == schema.NestingSingle || block.Nesting == schema.NestingGroup {
			if !isUnknownPlaceholder(inner, v) {
				return false
			}
		} else if !hasUnknownPlaceholder(inner, block.Nesting, v) && len(elements(v)) > 0 {
			return false
		}
	}
	return true
}
