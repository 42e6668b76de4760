// Package providertest builds Terrane's test providers (the separate module
// in internal/testproviders) into a filesystem mirror that tests point the
// provider installer at, so integration tests launch real provider
// processes built from HashiCorp's SDKs, Pulumi's SDK, Pulumi's Terraform
// bridge and pulumi-go-provider.
//
// Build compiles every command of that module, and of the modules nested in
// it (whose SDKs need dependency releases of their own), once per test
// binary and caches the result under the user cache directory keyed by a
// hash of the sources, so later test binaries reuse it. Terraform-protocol
// providers go into Terraform's unpacked layout:
//
//	DIR/registry.terraform.io/terrane/<type>/0.1.0/<os>_<arch>/terraform-provider-<type>_v0.1.0
//
// and Pulumi providers (pulumi-resource-NAME) into a Pulumi plugin
// directory, DIR/pulumi/resource-NAME-v0.1.0/pulumi-resource-NAME.
package providertest
