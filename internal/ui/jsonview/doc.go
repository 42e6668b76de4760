// Package jsonview writes Terrane's machine-readable UI stream, the output of
// -json on plan, apply, destroy and refresh: one JSON object per line, each
// with "@level", "@message", "@module", "@timestamp" and a "type" saying
// which of Terraform's UI message types (version, log, diagnostic,
// planned_change, resource_drift, change_summary, outputs, apply_* and
// refresh_*) it is, so that tools written for "terraform -json" read it.
//
// View writes the messages; Hook turns the engine's progress events into
// the apply and refresh messages. Sensitive output values are never
// written.
package jsonview
