package objchange

import (
	"github.com/terrane/terrane/internal/marks"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// ProposedNew is the proposed new state the engine sends a provider in
// PlanResourceChange: the configuration, with the prior state's values for
// the computed attributes the configuration leaves null.
//
// The protocol's rule (resource instance change lifecycle, "proposed new
// state"): every attribute the configuration sets takes the configured
// value, unknown or not; a computed attribute the configuration leaves null
// keeps its prior value, which for a create (null prior) is null — the
// provider, not the engine, decides to plan it unknown. Nested blocks and
// nested attribute types are merged element by element: lists by index,
// maps by key, sets by matching each configured element with a prior one
// whose non-computed content it could have produced.
//
// prior may be null (a create); config is null only when the object is to
// go away, and then prior is returned. Sensitive marks on either input are
// kept on the result.
func ProposedNew(sch *schema.Block, prior, config cty.Value) cty.Value {
	if config.IsNull() {
		return prior
	}
	return withMarksOf(func(prior, config cty.Value) cty.Value {
		if prior.IsNull() {
			// A synthetic prior whose attributes are all null gives the
			// merge one level of object to read from.
			prior = sch.EmptyValue()
		}
		return proposeObject(blockShape(sch), prior, config)
	}, prior, config)
}

// PlannedDataResourceObject is the planned value of a data resource that
// must wait until apply to be read: the configuration, with every computed
// attribute it leaves null unknown. It is what a provider that plans data
// sources would answer, which the protocol leaves to the engine.
func PlannedDataResourceObject(sch *schema.Block, config cty.Value) cty.Value {
	return withMarksOf(func(prior, config cty.Value) cty.Value {
		// An unknown prior makes every value taken from the prior unknown.
		return proposeObject(blockShape(sch), prior, config)
	}, cty.UnknownVal(sch.ImpliedType()), config)
}

// withMarksOf runs merge on the unmarked prior and config and puts the
// marks of both back on the result, so a sensitive value stays sensitive
// whichever side it came from.
func withMarksOf(merge func(prior, config cty.Value) cty.Value, prior, config cty.Value) cty.Value {
	prior, priorMarks := marks.UnmarkDeepWithPaths(prior)
	config, configMarks := marks.UnmarkDeepWithPaths(config)
	out := merge(prior, config)
	if len(priorMarks)+len(configMarks) == 0 {
		return out
	}
	return marks.MarkWithPaths(out, append(priorMarks, configMarks...))
}

// proposeObject merges one object of a block or nested attribute type.
func proposeObject(s shape, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	out := make(map[string]cty.Value, len(s.attrs)+len(s.blocks))
	for name, attr := range s.attrs {
		out[name] = proposeAttribute(attr, attrOf(prior, name), attrOf(config, name))
	}
	for name, block := range s.blocks {
		out[name] = proposeNestedBlock(block, attrOf(prior, name), attrOf(config, name))
	}
	return cty.ObjectVal(out)
}

func proposeAttribute(attr *schema.Attribute, prior, config cty.Value) cty.Value {
	switch {
	case attr.Computed && config.IsNull():
		// Rule: a computed attribute left null keeps its prior value...
		if priorCameFromConfig(attr, prior) {
			// ...unless the prior object holds values only configuration
			// could have set: then the user removed the object, and null
			// is what they asked for.
			return config
		}
		return prior
	case attr.NestedType != nil && config.IsKnown() && !config.IsNull():
		return proposeCollection(attr.NestedType.Nesting, objectShape(attr.NestedType), prior, config)
	default:
		// Rule: a set or non-computed attribute takes the configuration,
		// null and unknown included.
		return config
	}
}

// priorCameFromConfig reports whether an optional, computed nested
// attribute's prior value contains a non-null value of a non-computed
// attribute, which only configuration could have put there.
func priorCameFromConfig(attr *schema.Attribute, prior cty.Value) bool {
	if !attr.Optional || attr.NestedType == nil || prior.IsNull() || !prior.IsKnown() {
		return false
	}
	found := false
	_ = cty.Walk(prior, func(path cty.Path, v cty.Value) (bool, error) {
		if found || v.IsNull() {
			return !found, nil
		}
		if nested := attr.NestedType.AttributeByPath(path); nested != nil && !nested.Computed {
			found = true
		}
		return !found, nil
	})
	return found
}

func proposeNestedBlock(block *schema.NestedBlock, prior, config cty.Value) cty.Value {
	if !config.IsKnown() {
		// A dynamic block whose for_each is unknown: nothing to merge yet.
		return config
	}
	if config.IsNull() {
		if block.Nesting == schema.NestingGroup {
			// A group is never absent; a null here is a legacy provider's
			// quirk, and the prior is the better guess.
			return prior
		}
		return config
	}
	return proposeCollection(block.Nesting, blockShape(&block.Block), prior, config)
}

// proposeCollection merges a known, non-null configured value of a nested
// block type or nested attribute type with its prior by nesting mode.
func proposeCollection(nesting schema.Nesting, s shape, prior, config cty.Value) cty.Value {
	switch nesting {
	case schema.NestingSingle, schema.NestingGroup:
		return proposeObject(s, prior, config)
	case schema.NestingList, schema.NestingMap:
		return proposeKeyed(s, prior, config)
	case schema.NestingSet:
		return proposeSet(s, prior, config)
	default:
		return config
	}
}

// proposeKeyed merges list elements by index and map elements by key. An
// element with no prior counterpart is new and is taken as configured.
func proposeKeyed(s shape, prior, config cty.Value) cty.Value {
	elems := elements(config)
	if len(elems) == 0 {
		return config
	}
	for i, e := range elems {
		if priorElem, ok := elementAt(prior, e.key); ok {
			elems[i].val = proposeObject(s, priorElem, e.val)
		}
	}
	return collectionLike(config, elems)
}

// proposeSet merges set elements, which have no identity but their value:
// each configured element is paired with the first unused prior element it
// could have produced (equal in everything but computed attributes it
// leaves null), so computed values survive an unrelated change elsewhere.
func proposeSet(s shape, prior, config cty.Value) cty.Value {
	elems := elements(config)
	if len(elems) == 0 {
		return config
	}
	priorElems := elements(prior)
	used := make([]bool, len(priorElems))
	for i, e := range elems {
		match := cty.NullVal(e.val.Type())
		if !prior.IsKnown() {
			match = cty.UnknownVal(e.val.Type())
		}
		for j, p := range priorElems {
			if !used[j] && couldProduce(s, p.val, e.val) {
				match, used[j] = p.val, true
				break
			}
		}
		elems[i].val = proposeObject(s, match, e.val)
	}
	return collectionLike(config, elems)
}

// couldProduce reports whether configuring config could have led to the
// object prior: every attribute config sets agrees, and prior differs only
// in computed attributes config leaves null.
func couldProduce(s shape, prior, config cty.Value) bool {
	if sameIgnoringRefinements(prior, config) {
		return true
	}
	if prior.IsNull() || config.IsNull() || !prior.IsKnown() || !config.IsKnown() {
		return false
	}
	for name, attr := range s.attrs {
		p, c := attrOf(prior, name), attrOf(config, name)
		switch {
		case attr.Computed && c.IsNull():
			continue
		case attr.NestedType != nil:
			if !collectionCouldProduce(attr.NestedType.Nesting, objectShape(attr.NestedType), p, c) {
				return false
			}
		case !sameIgnoringRefinements(p, c):
			return false
		}
	}
	for name, block := range s.blocks {
		if !collectionCouldProduce(block.Nesting, blockShape(&block.Block), attrOf(prior, name), attrOf(config, name)) {
			return false
		}
	}
	return true
}

func collectionCouldProduce(nesting schema.Nesting, s shape, prior, config cty.Value) bool {
	if sameIgnoringRefinements(prior, config) {
		return true
	}
	if prior.IsNull() || config.IsNull() || !prior.IsKnown() || !config.IsKnown() {
		return false
	}
	switch nesting {
	case schema.NestingSingle, schema.NestingGroup:
		return couldProduce(s, prior, config)
	case schema.NestingList, schema.NestingMap:
		if prior.LengthInt() != config.LengthInt() {
			return false
		}
		for _, e := range elements(config) {
			p, ok := elementAt(prior, e.key)
			if !ok || !couldProduce(s, p, e.val) {
				return false
			}
		}
		return true
	default:
		// Sets inside set elements cannot be correlated; only equal
		// values (checked above) match.
		return false
	}
}
