// Package jsonstate renders a workspace's state in Terraform's JSON state
// representation ("terraform show -json" without a plan, format version 1.0):
// root outputs, resource instances grouped into a module tree with their
// attribute values decoded by their provider schemas, and the results of the
// last run's checks.
//
// Values appear in full, as Terraform prints them, so that policy tools can
// inspect them; a "sensitive_values" mirror beside each value says which parts
// are sensitive, and consumers that show values to people must hide those.
// The value helpers here (AttributeValues, SensitiveAsBool) are shared with
// the plan representation.
package jsonstate
