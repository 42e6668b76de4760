package jsonprovider

import (
	"encoding/json"

	tfjson "github.com/hashicorp/terraform-json"
)

// The document's types. They lay the JSON out as terraform-json's
// ProviderSchemas does, field for field, and add what OpenTofu 1.12 writes
// beyond it: the deprecation_message of attributes and blocks. Functions
// and identities are terraform-json's own types.

// ProviderSchemas is the whole document.
type ProviderSchemas struct {
	FormatVersion string                     `json:"format_version,omitempty"`
	Schemas       map[string]*ProviderSchema `json:"provider_schemas,omitempty"`
}

// ProviderSchema is one provider's schemas.
type ProviderSchema struct {
	ConfigSchema             *Schema                              `json:"provider,omitempty"`
	ResourceSchemas          map[string]*Schema                   `json:"resource_schemas,omitempty"`
	DataSourceSchemas        map[string]*Schema                   `json:"data_source_schemas,omitempty"`
	EphemeralResourceSchemas map[string]*Schema                   `json:"ephemeral_resource_schemas,omitempty"`
	Functions                map[string]*tfjson.FunctionSignature `json:"functions,omitempty"`
	ResourceIdentitySchemas  map[string]*tfjson.IdentitySchema    `json:"resource_identity_schemas,omitempty"`
	ListResourceSchemas      map[string]*Schema                   `json:"list_resource_schemas,omitempty"`
}

// Schema is a versioned block.
type Schema struct {
	Version uint64       `json:"version"`
	Block   *SchemaBlock `json:"block,omitempty"`
}

// SchemaBlock is a block's attributes and nested block types.
type SchemaBlock struct {
	Attributes         map[string]*SchemaAttribute `json:"attributes,omitempty"`
	NestedBlocks       map[string]*SchemaBlockType `json:"block_types,omitempty"`
	Description        string                      `json:"description,omitempty"`
	DescriptionKind    string                      `json:"description_kind,omitempty"`
	Deprecated         bool                        `json:"deprecated,omitempty"`
	DeprecationMessage string                      `json:"deprecation_message,omitempty"`
}

// SchemaBlockType is a nested block type.
type SchemaBlockType struct {
	NestingMode string       `json:"nesting_mode,omitempty"`
	Block       *SchemaBlock `json:"block,omitempty"`
	MinItems    uint64       `json:"min_items,omitempty"`
	MaxItems    uint64       `json:"max_items,omitempty"`
}

// SchemaAttribute is an attribute: a type (cty's JSON) or a nested type.
type SchemaAttribute struct {
	AttributeType       json.RawMessage            `json:"type,omitempty"`
	AttributeNestedType *SchemaNestedAttributeType `json:"nested_type,omitempty"`
	Description         string                     `json:"description,omitempty"`
	DescriptionKind     string                     `json:"description_kind,omitempty"`
	Deprecated          bool                       `json:"deprecated,omitempty"`
	DeprecationMessage  string                     `json:"deprecation_message,omitempty"`
	Required            bool                       `json:"required,omitempty"`
	Optional            bool                       `json:"optional,omitempty"`
	Computed            bool                       `json:"computed,omitempty"`
	Sensitive           bool                       `json:"sensitive,omitempty"`
	WriteOnly           bool                       `json:"write_only,omitempty"`
}

// SchemaNestedAttributeType is a nested attribute type.
type SchemaNestedAttributeType struct {
	Attributes  map[string]*SchemaAttribute `json:"attributes,omitempty"`
	NestingMode string                      `json:"nesting_mode,omitempty"`
}
