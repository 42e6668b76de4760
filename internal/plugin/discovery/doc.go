// Package discovery finds provider packages on this machine and installs
// them into a working directory: it lists the versions that filesystem
// mirrors, the plugin cache and development overrides offer, applies the
// CLI configuration's installation methods in order, selects the newest
// version meeting the constraints, unpacks or links the chosen package, and
// computes the h1:/zh: package hashes the dependency lock file records.
//
// A package whose executable is pulumi-resource-TYPE rather than
// terraform-provider-TYPE holds a Pulumi resource provider; such packages
// are found in all the same places and also, for providers in the "pulumi"
// namespace, in Pulumi's own plugin directory (PulumiPluginDir).
package discovery
