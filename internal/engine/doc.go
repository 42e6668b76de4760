// Package engine plans and applies a configuration against a workspace's
// records: it builds one dependency graph over the configuration's
// providers, resources, data sources, variables, locals, outputs and checks,
// walks it in parallel calling providers, and records every result in the
// store as it happens, intents before the calls that need them.
//
// Command-line handling, rendering and plan-file encoding live elsewhere;
// this package only turns a configuration, a state and provider processes
// into a plans.Plan, and a plans.Plan into changed records.
package engine
