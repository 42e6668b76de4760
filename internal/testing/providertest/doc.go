// Package providertest builds Terrane's test providers (the separate module
// in internal/testproviders) into a filesystem mirror that tests point the
// provider installer at, so integration tests launch real provider
// processes built from HashiCorp's SDKs.
//
// Build compiles every terraform-provider-* command of that module once per
// test binary and caches the result under the user cache directory keyed by
// a hash of the module's sources, so later test binaries reuse it. The
// mirror uses Terraform's unpacked layout:
//
//	DIR/registry.terraform.io/terrane/<type>/0.1.0/<os>_<arch>/terraform-provider-<type>_v0.1.0
package providertest
