package pulumi

import (
	"context"
	"encoding/json"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// terraformMappingKey asks a provider for its Terraform names: providers
// built on Pulumi's Terraform bridge answer with the bridged provider's
// resource and data source names for each token.
const terraformMappingKey = "terraform"

// terraformMapping is the part of a bridge's mapping Terrane reads: each
// Terraform name with the Pulumi token it became.
type terraformMapping struct {
	Resources   map[string]struct{ Tok string } `json:"resources"`
	DataSources map[string]struct{ Tok string } `json:"dataSources"`
}

// terraformNames asks the provider (GetMappings, then GetMapping for each
// mapped provider; GetMapping alone for providers without GetMappings) for
// the Terraform name of each token. A provider with no mapping answers
// nothing, and names are derived from tokens.
func (p *Provider) terraformNames(ctx context.Context) (resources, dataSources map[string]string) {
	resources, dataSources = map[string]string{}, map[string]string{}
	mapped := []string{""}
	list, err := p.client.GetMappings(ctx, &pulumirpc.GetMappingsRequest{Key: terraformMappingKey})
	switch {
	case err == nil:
		mapped = list.GetProviders()
	case status.Code(err) != codes.Unimplemented:
		p.logger.Debug("GetMappings failed; names are derived from tokens", "error", err)
		return resources, dataSources
	}
	for _, provider := range mapped {
		resp, err := p.client.GetMapping(ctx, &pulumirpc.GetMappingRequest{Key: terraformMappingKey, Provider: provider})
		if err != nil || len(resp.GetData()) == 0 {
			continue
		}
		var mapping terraformMapping
		if err := json.Unmarshal(resp.GetData(), &mapping); err != nil {
			p.logger.Warn("the provider's Terraform mapping is not readable; names are derived from tokens", "error", err)
			continue
		}
		for name, entry := range mapping.Resources {
			resources[entry.Tok] = name
		}
		for name, entry := range mapping.DataSources {
			dataSources[entry.Tok] = name
		}
	}
	return resources, dataSources
}

// useTerraformNames renames the package's resource types and data sources
// to the names its mapping gives, so a configuration written for the
// bridged Terraform provider keeps its type names. A mapped name another
// type already has is left alone.
func (pkg *Package) useTerraformNames(resources, dataSources map[string]string) {
	for name, rt := range pkg.Resources {
		if mapped, ok := resources[rt.Token]; ok && mapped != name && pkg.Resources[mapped] == nil {
			delete(pkg.Resources, name)
			pkg.Resources[mapped] = rt
		}
	}
	for name, fn := range pkg.DataSources {
		if mapped, ok := dataSources[fn.Token]; ok && mapped != name && pkg.DataSources[mapped] == nil {
			delete(pkg.DataSources, name)
			pkg.DataSources[mapped] = fn
		}
	}
}
