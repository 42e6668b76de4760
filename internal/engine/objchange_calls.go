package engine

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// The protocol's pure object-change rules are called through the three
// functions of this file, so that the orchestration does not depend on
// where those rules are implemented.

// proposedNewState is the object the engine proposes to the provider:
// the configuration, with the prior value kept wherever the configuration
// leaves a computed attribute unset (protocol: "ProposedNewState").
func proposedNewState(block *schema.Block, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	if prior.IsNull() {
		prior = cty.NullVal(block.ImpliedType())
	}
	return proposeBlock(block, prior, config)
}

func proposeBlock(block *schema.Block, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	attrs := map[string]cty.Value{}
	for name, attr := range block.Attributes {
		cv := config.GetAttr(name)
		var pv cty.Value
		if !prior.IsNull() && prior.IsKnown() {
			pv = prior.GetAttr(name)
		} else {
			pv = cty.NullVal(attr.ImpliedType())
		}
		switch {
		case attr.Computed && cv.IsNull():
			if prior.IsNull() {
				// Nothing to keep on create: the provider decides.
				pv = cty.UnknownVal(attr.ImpliedType())
			}
			attrs[name] = pv
		default:
			attrs[name] = cv
		}
	}
	for name, nested := range block.BlockTypes {
		cv := config.GetAttr(name)
		var pv cty.Value
		if !prior.IsNull() && prior.IsKnown() {
			pv = prior.GetAttr(name)
		} else {
			pv = cty.NullVal(nested.ImpliedType())
		}
		attrs[name] = proposeNested(nested, pv, cv)
	}
	return cty.ObjectVal(attrs)
}

func proposeNested(nested *schema.NestedBlock, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	switch nested.Nesting {
	case schema.NestingSingle, schema.NestingGroup:
		return proposeBlock(&nested.Block, prior, config)
	case schema.NestingList:
		if !config.Type().IsListType() || config.LengthInt() == 0 {
			return config
		}
		var priorElems []cty.Value
		if !prior.IsNull() && prior.IsKnown() && prior.Type().IsListType() {
			priorElems = prior.AsValueSlice()
		}
		elems := make([]cty.Value, 0, config.LengthInt())
		for i, cv := range config.AsValueSlice() {
			pv := cty.NullVal(nested.Block.ImpliedType())
			if i < len(priorElems) {
				pv = priorElems[i]
			}
			elems = append(elems, proposeBlock(&nested.Block, pv, cv))
		}
		return cty.ListVal(elems)
	default:
		// Sets and maps of blocks are proposed as configured: matching
		// their elements with prior ones needs the full rules.
		return config
	}
}

// checkPlannedValid returns the ways a planned value breaks the rule that a
// provider may only choose values the configuration leaves open.
func checkPlannedValid(block *schema.Block, config, planned cty.Value) []error {
	if planned.IsNull() || !planned.IsKnown() || config.IsNull() || !config.IsKnown() {
		return nil
	}
	var errs []error
	for name, attr := range block.Attributes {
		cv, pv := config.GetAttr(name), planned.GetAttr(name)
		if cv.IsNull() || !cv.IsWhollyKnown() || !pv.IsWhollyKnown() {
			continue // computed: the provider may choose
		}
		if attr.Computed && !attr.Optional {
			continue
		}
		if !pv.Equals(cv).True() {
			errs = append(errs, fmt.Errorf(".%s: planned value %s does not match config value %s", name, show(pv), show(cv)))
		}
	}
	return errs
}

// checkAppliedCompatible returns the ways an applied value breaks the rule
// that a new object must match every known value of its plan.
func checkAppliedCompatible(planned, actual cty.Value) []error {
	if !planned.IsKnown() || planned.IsNull() || actual.IsNull() {
		return nil
	}
	var errs []error
	for name := range planned.Type().AttributeTypes() {
		pv, av := planned.GetAttr(name), actual.GetAttr(name)
		if !pv.IsWhollyKnown() {
			continue
		}
		if !pv.Equals(av).True() {
			errs = append(errs, fmt.Errorf(".%s: was %s, but now %s", name, show(pv), show(av)))
		}
	}
	return errs
}

func show(v cty.Value) string {
	v, _ = v.UnmarkDeep()
	if v.IsNull() {
		return "null"
	}
	if !v.IsWhollyKnown() {
		return "(known after apply)"
	}
	if v.Type() == cty.String {
		return fmt.Sprintf("%q", v.AsString())
	}
	return v.GoString()
}
