// Package views shows what each command has to show: plans, progress,
// summaries, prompts, diagnostics and each command's own reports, in
// OpenTofu's words and layout for a person or, with -json, as its
// machine-readable messages. It renders with internal/ui and
// internal/ui/jsonview.
//
// A view decides nothing about what runs. The commands in
// internal/command parse their options, run, and hand their view the
// values to show; a view never reads the store, the configuration or
// the working directory itself.
package views
