package remotestate

import (
	"context"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// Provider offers the data source as a provider with terraform_remote_state
// as its only data source and no resource types.
type Provider struct {
	Source *DataSource
}

var _ providers.Interface = Provider{}

// New returns a provider reading through source.
func New(source *DataSource) Provider { return Provider{Source: source} }

func notOffered(what string) diags.Diagnostics {
	return diags.Diagnostics{diags.Errorf("Not offered by terraform_remote_state",
		"The remote state provider offers only the terraform_remote_state data source, not %s.", what)}
}

func (p Provider) GetMetadata(context.Context) providers.GetMetadataResponse {
	return providers.GetMetadataResponse{DataSources: []string{TypeName}}
}

func (p Provider) GetProviderSchema(context.Context) providers.GetProviderSchemaResponse {
	return providers.GetProviderSchemaResponse{
		Provider:           schema.Schema{Block: &schema.Block{}},
		ResourceTypes:      map[string]schema.Schema{},
		DataSources:        map[string]schema.Schema{TypeName: Schema()},
		ServerCapabilities: providers.ServerCapabilities{GetProviderSchemaOptional: true},
	}
}

func (p Provider) GetResourceIdentitySchemas(context.Context) providers.GetResourceIdentitySchemasResponse {
	return providers.GetResourceIdentitySchemasResponse{}
}

func (p Provider) ValidateProviderConfig(context.Context, providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return providers.ValidateProviderConfigResponse{}
}

func (p Provider) ValidateResourceConfig(_ context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	return providers.ValidateResourceConfigResponse{Diagnostics: notOffered("resource type " + req.TypeName)}
}

func (p Provider) ValidateDataResourceConfig(_ context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	if req.TypeName != TypeName {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: notOffered("data source " + req.TypeName)}
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: p.Source.Validate(req.Config)}
}

func (p Provider) ValidateEphemeralResourceConfig(_ context.Context, req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: notOffered("ephemeral resource " + req.TypeName)}
}

func (p Provider) UpgradeResourceState(_ context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	return providers.UpgradeResourceStateResponse{Diagnostics: notOffered("resource type " + req.TypeName)}
}

func (p Provider) UpgradeResourceIdentity(context.Context, providers.UpgradeResourceIdentityRequest) providers.UpgradeResourceIdentityResponse {
	return providers.UpgradeResourceIdentityResponse{Diagnostics: notOffered("resource identities")}
}

func (p Provider) ConfigureProvider(context.Context, providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	return providers.ConfigureProviderResponse{}
}

func (p Provider) ReadResource(context.Context, providers.ReadResourceRequest) providers.ReadResourceResponse {
	return providers.ReadResourceResponse{Diagnostics: notOffered("managed resources")}
}

func (p Provider) PlanResourceChange(context.Context, providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	return providers.PlanResourceChangeResponse{Diagnostics: notOffered("managed resources")}
}

func (p Provider) ApplyResourceChange(context.Context, providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	return providers.ApplyResourceChangeResponse{Diagnostics: notOffered("managed resources")}
}

func (p Provider) ImportResourceState(context.Context, providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	return providers.ImportResourceStateResponse{Diagnostics: notOffered("import")}
}

func (p Provider) MoveResourceState(context.Context, providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	return providers.MoveResourceStateResponse{Diagnostics: notOffered("resource moves")}
}

func (p Provider) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	if req.TypeName != TypeName {
		return providers.ReadDataSourceResponse{Diagnostics: notOffered("data source " + req.TypeName)}
	}
	state, ds := p.Source.Read(ctx, req.Config)
	return providers.ReadDataSourceResponse{State: state, Diagnostics: ds}
}

func (p Provider) OpenEphemeralResource(_ context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	return providers.OpenEphemeralResourceResponse{Diagnostics: notOffered("ephemeral resource " + req.TypeName)}
}

func (p Provider) RenewEphemeralResource(context.Context, providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	return providers.RenewEphemeralResourceResponse{Diagnostics: notOffered("ephemeral resources")}
}

func (p Provider) CloseEphemeralResource(context.Context, providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	return providers.CloseEphemeralResourceResponse{Diagnostics: notOffered("ephemeral resources")}
}

func (p Provider) GetFunctions(context.Context) providers.GetFunctionsResponse {
	return providers.GetFunctionsResponse{}
}

func (p Provider) CallFunction(context.Context, providers.CallFunctionRequest) providers.CallFunctionResponse {
	return providers.CallFunctionResponse{Err: &providers.FunctionError{Text: "the remote state provider has no functions"}}
}

func (p Provider) StopProvider(context.Context) error { return nil }
func (p Provider) Close() error                       { return nil }
