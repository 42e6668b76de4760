// Package lang evaluates Terraform-language expressions and blocks: it finds
// what an expression refers to (as internal/addrs references with source
// ranges, for the engine's dependency graph), asks a [Data] implementation
// for those values, and evaluates with the built-in functions of
// internal/lang/funcs plus provider-defined functions, expanding dynamic
// blocks, converting results to a type constraint or a provider schema, and
// checking count and for_each values before the engine expands instances.
//
// Unknown values (with their refinements) and sensitive marks pass through
// evaluation untouched; nothing here decides what to do with them.
package lang
