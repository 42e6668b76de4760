package config

import "github.com/hashicorp/hcl/v2"

// The decoders below read blocks that test files (*.tftest.hcl) share with
// modules, so a test file's provider, assert and providers arguments mean
// what they mean in configuration.

// DecodeProviderBlock reads a provider block.
func DecodeProviderBlock(block *hcl.Block) (*Provider, hcl.Diagnostics) {
	return decodeProviderBlock(block)
}

// DecodeCheckRule reads a block with condition and error_message: a test
// run's assert block.
func DecodeCheckRule(block *hcl.Block) (*CheckRule, hcl.Diagnostics) {
	return decodeCheckRule(block)
}

// DecodePassedProviders reads a providers map of child = parent provider
// configurations.
func DecodePassedProviders(attr *hcl.Attribute) ([]PassedProviderConfig, hcl.Diagnostics) {
	return decodePassedProviders(attr)
}
