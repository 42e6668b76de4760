// Package jsonplan renders a plan in Terraform's JSON plan representation
// ("terraform show -json PLANFILE", format version 1.2): the variables,
// the planned values, drift found by refreshing, each resource instance and
// output change with its before and after values and their unknown and
// sensitive mirrors, the prior state, the configuration, check results and
// the plan's status flags.
//
// As in Terraform, values appear in full beside mirrors saying which parts
// are sensitive or unknown; consumers that show values to people must hide
// the sensitive ones.
package jsonplan
