// Package schema is the protocol-neutral model of a provider schema — blocks,
// attributes, nested attribute types, nesting modes — and what follows from
// one: the cty.Type of the object it describes and the hcldec spec that
// decodes configuration into that type.
package schema
