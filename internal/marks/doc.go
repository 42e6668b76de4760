// Package marks defines the cty value marks the language attaches
// to values — Sensitive and Ephemeral — and small helpers for testing them
// deep inside collections. Every other package that must hide, carry or keep
// out of storage such values (rendering, state, plans) uses these marks
// rather than its own.
package marks
