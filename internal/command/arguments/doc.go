// Package arguments turns the command line of the commands that plan and
// apply (plan, apply, destroy, refresh, console) into typed options, and
// gathers root module variable values from every place Terraform reads them,
// in Terraform's order of precedence, as diagnostics-reporting values.
package arguments
