// Package run opens a run over a working directory: its configuration, the
// root module's variable values, state and plan encryption, the
// workspace's records and the installed providers, and an engine over
// them. Every command that plans or applies (and graph, console and
// import), the reconciler and the test command open what they run with
// here, so a configuration is read, checked and refused the same way
// whichever of them runs it.
//
// It sits above the engine, the configuration loader, inputvars,
// encryption and workdir, and below internal/command, internal/reconcile
// and internal/moduletest's callers; see docs/architecture.md.
package run
