package engine

import (
	"errors"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"

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

// describeValueError renders an error from the rules above as
// "ADDRESS.PATH: message". The rules report where a value broke them as a
// cty.PathError whose message leaves the path out, and without the path a
// user cannot tell which attribute the provider got wrong.
func describeValueError(addr addrs.AbsResourceInstance, err error) string {
	var pathErr cty.PathError
	if !errors.As(err, &pathErr) || len(pathErr.Path) == 0 {
		return fmt.Sprintf("%s: %s", addr, err)
	}
	path := diags.FormatPath(pathErr.Path)
	if _, isAttr := pathErr.Path[0].(cty.GetAttrStep); isAttr {
		path = "." + path
	}
	return fmt.Sprintf("%s%s: %s", addr, path, pathErr.Error())
}
