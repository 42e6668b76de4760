// Package value moves cty values across the provider wire: DynamicValue in
// msgpack (with unknown values and their refinements) or JSON, attribute
// paths to and from the protocol's AttributePath, and type constraints in
// their JSON form. Every function is pure, and decoding never panics: bytes
// from a provider that do not make a value of the expected type are a
// *DecodeError naming where in the value the problem is.
package value
