// Package providers is the protocol-neutral interface between the engine and
// a provider, and the request and response types of every operation. Values
// cross it as cty values already decoded against the provider's schema;
// nothing above this package knows which wire protocol a provider speaks.
package providers
