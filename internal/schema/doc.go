// Package schema is the protocol-neutral model of a provider schema — blocks,
// attributes, nested attribute types, nesting modes — and what follows from
// one: the cty.Type of the values it describes, the hcldec spec that decodes
// configuration into that type, and the questions the engine asks of it
// (which attribute a path leads to, which parts of a value are sensitive,
// whether a reference names something that exists, whether the provider's
// schema is itself well-formed).
package schema
