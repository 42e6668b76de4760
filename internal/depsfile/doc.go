// Package depsfile reads and writes the dependency lock file,
// .terraform.lock.hcl: the provider versions a configuration was initialised
// with, the constraints they were chosen under and the checksums of their
// packages. It writes the file byte for byte as Terraform and OpenTofu do, so
// teams can share one lock file between tools, and checks installed packages
// against the recorded checksums. A Pulumi sub-package's block has one
// attribute more, parameterization (see Parameterization), which only
// Terrane writes; files without sub-packages never have it.
package depsfile
