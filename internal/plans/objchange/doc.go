// Package objchange holds the plugin protocol's rules about how a resource
// object may change: the proposed new state the engine offers a provider
// (ProposedNew, PlannedDataResourceObject), the checks that a provider's
// planned, re-planned and applied objects keep the protocol's promises
// (AssertPlanValid, AssertPlannedValueValid, AssertObjectCompatible,
// AssertWhollyKnown), the normalisation of objects from legacy-type-system
// providers, and the action a planned change amounts to.
//
// Every function is pure: it reads a schema and cty values and returns a
// value or a list of errors, never calls a provider, and never panics on
// values that conform to the schema's implied type. Errors are
// cty.PathError values naming the attribute they are about, written for
// the provider's developers, to whom the engine tells users to report them.
package objchange
