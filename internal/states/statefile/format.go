package statefile

import "encoding/json"

// The JSON layout of a state v4 file. Field order follows what Terraform
// writes, so that files Terrane exports diff cleanly against Terraform's.

type stateV4 struct {
	Version          int                 `json:"version"`
	TerraformVersion string              `json:"terraform_version"`
	Serial           uint64              `json:"serial"`
	Lineage          string              `json:"lineage"`
	Outputs          map[string]outputV4 `json:"outputs"`
	Resources        []resourceV4        `json:"resources"`
	CheckResults     json.RawMessage     `json:"check_results"`
	// Unrecorded is Terrane's own: see File.Unrecorded. Terraform and
	// OpenTofu ignore fields they do not know.
	Unrecorded *Unrecorded `json:"terrane_unrecorded,omitempty"`
}

type outputV4 struct {
	Value     json.RawMessage `json:"value"`
	Type      json.RawMessage `json:"type"`
	Sensitive bool            `json:"sensitive,omitempty"`
}

type resourceV4 struct {
	Module string `json:"module,omitempty"`
	Mode   string `json:"mode"`
	Type   string `json:"type"`
	Name   string `json:"name"`
	Each   string `json:"each,omitempty"`
	// Provider is empty when the instances name their own provider
	// configuration instances (a configuration with for_each).
	Provider  string       `json:"provider,omitempty"`
	Instances []instanceV4 `json:"instances"`
}

type instanceV4 struct {
	// IndexKey is a JSON number (count) or string (for_each), or absent.
	IndexKey json.RawMessage `json:"index_key,omitempty"`
	Status   string          `json:"status,omitempty"`
	Deposed  string          `json:"deposed,omitempty"`
	// Provider is the instance's provider configuration instance, written
	// instead of the resource's when any instance has a key.
	Provider string `json:"provider,omitempty"`

	SchemaVersion       uint64            `json:"schema_version"`
	Attributes          json.RawMessage   `json:"attributes,omitempty"`
	AttributesFlat      map[string]string `json:"attributes_flat,omitempty"`
	SensitiveAttributes json.RawMessage   `json:"sensitive_attributes,omitempty"`

	// Private is base64 in the file, as encoding/json writes []byte.
	Private []byte `json:"private,omitempty"`

	Dependencies        []string `json:"dependencies,omitempty"`
	CreateBeforeDestroy bool     `json:"create_before_destroy,omitempty"`
	SkipDestroy         bool     `json:"skip_destroy,omitempty"`

	// Identity and its schema version are written together or not at
	// all, as OpenTofu writes them; a pointer tells version 0 from none.
	Identity              json.RawMessage `json:"identity,omitempty"`
	IdentitySchemaVersion *uint64         `json:"identity_schema_version,omitempty"`
}

// pathStepV4 is one step of a sensitive attribute path: "get_attr" with a
// name, or "index" with the key as a typed cty JSON value.
type pathStepV4 struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}
