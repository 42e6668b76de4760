// Package diags defines the diagnostics every part of Terrane reports: an
// error or warning with a summary, a detail that says what to do, and where
// it applies — a source range, an object address, an attribute path, or all
// three. Diagnostics are values; a run collects them instead of stopping at
// the first.
package diags
