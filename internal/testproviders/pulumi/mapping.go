package pulumi

import (
	"context"
	"encoding/json"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// classicToken is a second resource type, a Thing under a token whose
// derived name (tpulumi_legacy_classic_thing) differs from the Terraform
// name the mapping gives it (tpulumi_classic_thing), as a bridged
// provider's tokens often do.
const classicToken = "tpulumi:legacy/classicThing:ClassicThing"

// withClassicThing adds classicToken to a package schema, with Thing's
// properties.
func withClassicThing(schema string) string {
	var spec map[string]any
	if err := json.Unmarshal([]byte(schema), &spec); err != nil {
		panic("tpulumi: the built-in package schema is not JSON: " + err.Error())
	}
	resources := spec["resources"].(map[string]any)
	resources[classicToken] = resources["tpulumi:index:Thing"]
	out, _ := json.MarshalIndent(spec, "", "  ")
	return string(out)
}

// GetMappings lists the one mapped provider of the "terraform" key.
func (p *Provider) GetMappings(ctx context.Context, req *pulumirpc.GetMappingsRequest) (*pulumirpc.GetMappingsResponse, error) {
	if req.GetKey() != "terraform" {
		return &pulumirpc.GetMappingsResponse{}, nil
	}
	return &pulumirpc.GetMappingsResponse{Providers: []string{Name}}, nil
}

// GetMapping answers the "terraform" key like a bridged provider: the
// Terraform names of its resources and data sources with their tokens.
func (p *Provider) GetMapping(ctx context.Context, req *pulumirpc.GetMappingRequest) (*pulumirpc.GetMappingResponse, error) {
	if req.GetKey() != "terraform" || (req.GetProvider() != "" && req.GetProvider() != Name) {
		return &pulumirpc.GetMappingResponse{}, nil
	}
	data, err := json.Marshal(map[string]any{
		"name": Name,
		"resources": map[string]any{
			"tpulumi_thing":         map[string]string{"tok": "tpulumi:index:Thing"},
			"tpulumi_classic_thing": map[string]string{"tok": classicToken},
		},
		"dataSources": map[string]any{
			"tpulumi_thing": map[string]string{"tok": "tpulumi:index:getThing"},
		},
	})
	return &pulumirpc.GetMappingResponse{Provider: Name, Data: data}, err
}
