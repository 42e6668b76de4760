package grpcprovider

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// GetMetadata lists what the provider offers. A provider too old for
// GetMetadata is answered from its schema, as the protocol suggests.
func (p *Provider) GetMetadata(ctx context.Context) (resp providers.GetMetadataResponse) {
	out, err := p.cfg.Client.GetMetadata(ctx, &tfplugin6.GetMetadata_Request{})
	if status.Code(err) == codes.Unimplemented {
		return metadataFromSchema(p.loadSchema(ctx))
	}
	if err != nil {
		resp.Diagnostics = p.failure(ctx, "GetMetadata", "", err)
		return resp
	}
	resp.ServerCapabilities = serverCapabilities(out.GetServerCapabilities())
	for _, r := range out.GetResources() {
		resp.ResourceTypes = append(resp.ResourceTypes, r.GetTypeName())
	}
	for _, d := range out.GetDataSources() {
		resp.DataSources = append(resp.DataSources, d.GetTypeName())
	}
	for _, e := range out.GetEphemeralResources() {
		resp.EphemeralResources = append(resp.EphemeralResources, e.GetTypeName())
	}
	for _, l := range out.GetListResources() {
		resp.ListResources = append(resp.ListResources, l.GetTypeName())
	}
	for _, a := range out.GetActions() {
		resp.Actions = append(resp.Actions, a.GetTypeName())
	}
	for _, f := range out.GetFunctions() {
		resp.Functions = append(resp.Functions, f.GetName())
	}
	resp.Diagnostics = diagnostics(out.GetDiagnostics())
	return resp
}

func metadataFromSchema(s *providers.GetProviderSchemaResponse) providers.GetMetadataResponse {
	resp := providers.GetMetadataResponse{ServerCapabilities: s.ServerCapabilities, Diagnostics: s.Diagnostics}
	for name := range s.ResourceTypes {
		resp.ResourceTypes = append(resp.ResourceTypes, name)
	}
	for name := range s.DataSources {
		resp.DataSources = append(resp.DataSources, name)
	}
	for name := range s.EphemeralResources {
		resp.EphemeralResources = append(resp.EphemeralResources, name)
	}
	for name := range s.ListResources {
		resp.ListResources = append(resp.ListResources, name)
	}
	for name := range s.Actions {
		resp.Actions = append(resp.Actions, name)
	}
	for name := range s.Functions {
		resp.Functions = append(resp.Functions, name)
	}
	return resp
}

// ValidateProviderConfig asks the provider to check its configuration. On
// protocol 5 this is PrepareProviderConfig, whose answer may carry the
// configuration with defaults inserted.
func (p *Provider) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) (resp providers.ValidateProviderConfigResponse) {
	const rpc = "ValidateProviderConfig"
	_, ty, problems := p.schemaFor(ctx, "provider", "")
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	c := p.codec(rpc, "the provider configuration")
	in := &tfplugin6.ValidateProviderConfig_Request{Config: c.encode("configuration", req.Config, ty)}
	if c.problems.HasErrors() {
		resp.Diagnostics = c.problems
		return resp
	}
	resp.PreparedConfig = req.Config
	var out *tfplugin6.ValidateProviderConfig_Response
	var err error
	if preparer, ok := p.cfg.Client.(configPreparer); ok {
		var prepared *tfplugin6.DynamicValue
		out, prepared, err = preparer.PrepareProviderConfig(ctx, in)
		if err == nil && prepared != nil {
			resp.PreparedConfig = c.decode("prepared configuration", prepared, ty)
		}
	} else {
		out, err = p.cfg.Client.ValidateProviderConfig(ctx, in)
	}
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, "", err)
		return resp
	}
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}

// ConfigureProvider hands the provider its configuration; it is called once
// per process, before any call that needs a configured provider.
func (p *Provider) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) (resp providers.ConfigureProviderResponse) {
	const rpc = "ConfigureProvider"
	_, ty, problems := p.schemaFor(ctx, "provider", "")
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	c := p.codec(rpc, "the provider configuration")
	in := &tfplugin6.ConfigureProvider_Request{
		TerraformVersion:   req.TerraformVersion,
		Config:             c.encode("configuration", req.Config, ty),
		ClientCapabilities: clientCapabilities(req.ClientCapabilities),
	}
	if c.problems.HasErrors() {
		resp.Diagnostics = c.problems
		return resp
	}
	out, err := p.cfg.Client.ConfigureProvider(ctx, in)
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, "", err)
		return resp
	}
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}

// ValidateDataResourceConfig asks the provider to check a data source's configuration.
func (p *Provider) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) (resp providers.ValidateDataResourceConfigResponse) {
	const rpc = "ValidateDataResourceConfig"
	_, ty, problems := p.schemaFor(ctx, "data", req.TypeName)
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	c := p.codec(rpc, req.TypeName)
	in := &tfplugin6.ValidateDataResourceConfig_Request{TypeName: req.TypeName, Config: c.encode("configuration", req.Config, ty)}
	if c.problems.HasErrors() {
		resp.Diagnostics = c.problems
		return resp
	}
	out, err := p.cfg.Client.ValidateDataResourceConfig(ctx, in)
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}

// ReadDataSource reads a data source.
func (p *Provider) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) (resp providers.ReadDataSourceResponse) {
	const rpc = "ReadDataSource"
	_, ty, problems := p.schemaFor(ctx, "data", req.TypeName)
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	c := p.codec(rpc, req.TypeName)
	in := &tfplugin6.ReadDataSource_Request{
		TypeName:           req.TypeName,
		Config:             c.encode("configuration", req.Config, ty),
		ProviderMeta:       p.providerMeta(ctx, c, req.ProviderMeta),
		ClientCapabilities: clientCapabilities(req.ClientCapabilities),
	}
	if c.problems.HasErrors() {
		resp.Diagnostics = c.problems
		return resp
	}
	out, err := p.cfg.Client.ReadDataSource(ctx, in)
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.State = c.decode("state", out.GetState(), ty)
	resp.Deferred = deferred(out.GetDeferred())
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}
