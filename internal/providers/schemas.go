package providers

import (
	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/schema"
)

// Schemas holds the schemas of every provider a run uses, keyed by provider
// source address. It is filled before a walk starts and read-only after, so
// it is safe for concurrent use.
type Schemas struct {
	Providers  map[addrs.Provider]GetProviderSchemaResponse
	Identities map[addrs.Provider]GetResourceIdentitySchemasResponse
}

// ResourceType returns the schema of a managed resource type (data source
// when data is true), and whether the provider has one by that name.
func (s *Schemas) ResourceType(provider addrs.Provider, data bool, typeName string) (schema.Schema, bool) {
	if s == nil {
		return schema.Schema{}, false
	}
	resp, ok := s.Providers[provider]
	if !ok {
		return schema.Schema{}, false
	}
	var found schema.Schema
	if data {
		found, ok = resp.DataSources[typeName]
	} else {
		found, ok = resp.ResourceTypes[typeName]
	}
	return found, ok && found.Block != nil
}

// EphemeralResourceType returns an ephemeral resource type's schema.
func (s *Schemas) EphemeralResourceType(provider addrs.Provider, typeName string) (schema.Schema, bool) {
	if s == nil {
		return schema.Schema{}, false
	}
	found, ok := s.Providers[provider].EphemeralResources[typeName]
	return found, ok && found.Block != nil
}

// ProviderConfig returns a provider's configuration schema.
func (s *Schemas) ProviderConfig(provider addrs.Provider) (schema.Schema, bool) {
	if s == nil {
		return schema.Schema{}, false
	}
	resp, ok := s.Providers[provider]
	return resp.Provider, ok
}

// Identity returns a resource type's identity schema, if it has one.
func (s *Schemas) Identity(provider addrs.Provider, typeName string) (IdentitySchema, bool) {
	if s == nil {
		return IdentitySchema{}, false
	}
	id, ok := s.Identities[provider].IdentityTypes[typeName]
	return id, ok
}
