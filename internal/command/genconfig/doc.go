// Package genconfig writes resource blocks for imported objects, as
// `plan -generate-config-out` does: the attributes a configuration may
// set, taken from the object the provider returned, in canonical HCL.
package genconfig
