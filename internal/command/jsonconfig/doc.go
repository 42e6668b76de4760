// Package jsonconfig renders a configuration as the "configuration" section
// of Terraform's JSON plan representation: every provider configuration,
// and for each module its resources, outputs, variables and module calls,
// with each argument shown as a constant value when it needs nothing
// evaluated, or else as the list of things it refers to.
package jsonconfig
