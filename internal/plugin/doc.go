// Package plugin starts Terraform-protocol provider processes (or attaches
// to ones started by hand through TF_REATTACH_PROVIDERS), negotiates
// protocol 5 or 6 with them, forwards their logs into Terrane's, and hands
// them out as providers.Interface, with schemas taken from the on-disk
// schema cache when the provider allows it. Finding provider executables
// is the job of the discovery and cliconfig subpackages.
package plugin
