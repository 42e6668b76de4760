package engine

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/plans/objchange"
	"github.com/terrane/terrane/internal/schema"
)

// The protocol's object-change rules are called through the functions of
// this file, so the orchestration names each rule where it applies it.

// proposedNewState is the object the engine proposes to the provider:
// the configuration, with prior values kept where the configuration leaves
// computed attributes unset.
func proposedNewState(block *schema.Block, prior, config cty.Value) cty.Value {
	return objchange.ProposedNew(block, prior, config)
}

// checkPlannedValid returns the ways a planned value breaks the rule that a
// provider may only choose values the configuration leaves open.
func checkPlannedValid(block *schema.Block, prior, config, planned cty.Value) []error {
	return objchange.AssertPlanValid(block, prior, config, planned)
}

// checkReplanCompatible returns the ways apply's re-plan departs from
// the saved plan.
func checkReplanCompatible(block *schema.Block, saved, replanned cty.Value) []error {
	return objchange.AssertPlannedValueValid(block, saved, replanned)
}

// checkAppliedCompatible returns the ways an applied value breaks the rule
// that a new object must match every known value of its plan.
func checkAppliedCompatible(block *schema.Block, planned, actual cty.Value) []error {
	return objchange.AssertObjectCompatible(block, planned, actual)
}
