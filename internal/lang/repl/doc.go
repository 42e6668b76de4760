// Package repl is the engine of `terrane console`: it evaluates one console
// input at a time in a lang.Scope and renders the result the way
// `tofu console` does (type-revealing syntax such as tolist([...]), heredocs
// for multi-line strings, "(sensitive value)", "(known after apply)").
package repl
