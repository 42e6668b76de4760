// Package depsfile reads and writes the dependency lock file,
// .terraform.lock.hcl: the provider versions a configuration was initialised
// with, the constraints they were chosen under and the checksums of their
// packages. It writes the file byte for byte as Terraform and OpenTofu do, so
// teams can share one lock file between tools, and checks installed packages
// against the recorded checksums.
package depsfile
