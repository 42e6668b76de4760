package tpraw

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

const groupType = "tpraw_group"

// arnPrefix is the known prefix of the refined unknown "arn" in plans.
const arnPrefix = "arn:tpraw:"

// Server is the raw protocol 6 provider. RPCs it does not implement (data
// sources, functions, ephemeral resources, ...) are answered by an empty
// framework provider, which reports unknown types the usual way.
type Server struct {
	tfprotov6.ProviderServer
	cloud *cloud.Cloud
}

// New returns a fresh provider server.
func New() tfprotov6.ProviderServer {
	return &Server{ProviderServer: providerserver.NewProtocol6(emptyProvider{})()}
}

var providerSchema = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{
	Attributes: []*tfprotov6.SchemaAttribute{
		{Name: "root_dir", Type: tftypes.String, Optional: true, Description: "Directory holding the cloud's objects; defaults to $" + cloud.EnvRoot + "."},
	},
}}

var groupSchema = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{
	Attributes: []*tfprotov6.SchemaAttribute{
		{Name: "id", Type: tftypes.String, Computed: true},
		{Name: "name", Type: tftypes.String, Required: true},
		{Name: "arn", Type: tftypes.String, Computed: true, Description: "Planned as unknown, not null, with prefix " + arnPrefix + "."},
	},
	BlockTypes: []*tfprotov6.SchemaNestedBlock{
		{
			TypeName: "setting",
			Nesting:  tfprotov6.SchemaNestedBlockNestingModeMap,
			Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
				{Name: "value", Type: tftypes.String, Required: true},
			}},
		},
		{
			TypeName: "network",
			Nesting:  tfprotov6.SchemaNestedBlockNestingModeGroup,
			Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
				{Name: "cidr", Type: tftypes.String, Optional: true},
				{Name: "mode", Type: tftypes.String, Optional: true},
			}},
		},
	},
}}

// groupCtyType is groupSchema's value type: a MAP block is a map of
// objects, a GROUP block a plain (never null) object.
var groupCtyType = cty.Object(map[string]cty.Type{
	"id": cty.String, "name": cty.String, "arn": cty.String,
	"setting": cty.Map(cty.Object(map[string]cty.Type{"value": cty.String})),
	"network": cty.Object(map[string]cty.Type{"cidr": cty.String, "mode": cty.String}),
})

var providerCtyType = cty.Object(map[string]cty.Type{"root_dir": cty.String})

func (s *Server) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return &tfprotov6.GetMetadataResponse{
		ServerCapabilities: &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true},
		Resources:          []tfprotov6.ResourceMetadata{{TypeName: groupType}},
	}, nil
}

func (s *Server) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return &tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities: &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true},
		Provider:           providerSchema,
		ResourceSchemas:    map[string]*tfprotov6.Schema{groupType: groupSchema},
		DataSourceSchemas:  map[string]*tfprotov6.Schema{},
	}, nil
}

func (s *Server) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

func (s *Server) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (s *Server) ConfigureProvider(_ context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	config, err := decode(req.Config, providerCtyType)
	if err != nil {
		return &tfprotov6.ConfigureProviderResponse{Diagnostics: errorDiag("Invalid provider configuration", err)}, nil
	}
	rootDir := config.GetAttr("root_dir")
	root := ""
	if !rootDir.IsKnown() {
		return &tfprotov6.ConfigureProviderResponse{}, nil
	}
	if !rootDir.IsNull() {
		root = rootDir.AsString()
	}
	s.cloud, err = cloud.Open(root)
	if err != nil {
		return &tfprotov6.ConfigureProviderResponse{Diagnostics: errorDiag("Cannot open the test cloud", err)}, nil
	}
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (s *Server) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

// decode reads a DynamicValue in either wire encoding as a cty value.
func decode(dv *tfprotov6.DynamicValue, ty cty.Type) (cty.Value, error) {
	switch {
	case dv == nil:
		return cty.NullVal(ty), nil
	case len(dv.MsgPack) > 0:
		return ctymsgpack.Unmarshal(dv.MsgPack, ty)
	case len(dv.JSON) > 0:
		return ctyjson.Unmarshal(dv.JSON, ty)
	}
	return cty.NullVal(ty), errors.New("empty dynamic value")
}

// encode writes a value as msgpack, the encoding that can carry unknowns
// and their refinements.
func encode(v cty.Value, ty cty.Type) (*tfprotov6.DynamicValue, error) {
	data, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.DynamicValue{MsgPack: data}, nil
}

func errorDiag(summary string, err error) []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: summary, Detail: err.Error()}}
}

func wrongType(typeName string) []*tfprotov6.Diagnostic {
	return errorDiag("Unknown resource type", fmt.Errorf("tpraw has no resource type %q; it has only %s", typeName, groupType))
}

// emptyProvider answers the RPCs Server leaves to the framework.
type emptyProvider struct{}

func (emptyProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "tpraw"
}
func (emptyProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}
func (emptyProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}
func (emptyProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }
func (emptyProvider) Resources(context.Context) []func() resource.Resource       { return nil }
