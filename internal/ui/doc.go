// Package ui renders what Terrane tells a person: diagnostics with their
// source snippets, plans, progress, in colour or not. The machine-readable
// renderings of the same events live beside it.
package ui
