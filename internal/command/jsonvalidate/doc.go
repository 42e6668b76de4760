// Package jsonvalidate is the machine-readable result of `terrane validate
// -json`, in the shape of `terraform validate -json` (format version 1.0):
// whether the configuration is valid, how many errors and warnings there
// are, and each diagnostic with its source range and a code snippet that
// editors and CI tools can underline.
package jsonvalidate
