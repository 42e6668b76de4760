package grpcprovider

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/proto/tfplugin5"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// protocol5Client carries protocol 6 messages over a protocol 5 connection.
//
// Protocol 6 was made from protocol 5 by renaming, and the messages the two
// share keep their field numbers and types, so a protocol 6 message encodes
// to the bytes of its protocol 5 counterpart (TestProtocol5WireCompatible
// checks every pair used here). Each call therefore re-reads the request's
// bytes as the protocol 5 message and the answer's bytes as the protocol 6
// one. The exception is the schema attribute, where protocol 6 inserted
// nested_type at field 10 and moved the fields after it: schemas are
// converted field by field.
type protocol5Client struct {
	rpc tfplugin5.ProviderClient
}

// NewProtocol5Client returns a Client for a provider speaking protocol 5.
func NewProtocol5Client(conn grpc.ClientConnInterface) Client {
	return protocol5Client{rpc: tfplugin5.NewProviderClient(conn)}
}

// NewProtocol6Client returns a Client for a provider speaking protocol 6.
func NewProtocol6Client(conn grpc.ClientConnInterface) Client {
	return tfplugin6.NewProviderClient(conn)
}

// rewire reads the wire form of from as a message of type T.
func rewire[T any, PT interface {
	*T
	proto.Message
}](from proto.Message) (PT, error) {
	to := PT(new(T))
	b, err := proto.Marshal(from)
	if err != nil {
		return nil, fmt.Errorf("re-encoding %s: %w", from.ProtoReflect().Descriptor().FullName(), err)
	}
	if err := proto.Unmarshal(b, to); err != nil {
		return nil, fmt.Errorf("re-decoding %s as %s: %w", from.ProtoReflect().Descriptor().FullName(), to.ProtoReflect().Descriptor().FullName(), err)
	}
	return to, nil
}

// call5 sends a protocol 6 request through a protocol 5 RPC and returns the
// answer as the protocol 6 response type Resp6.
func call5[Resp6, Req5, Resp5 any, PResp6 interface {
	*Resp6
	proto.Message
}, PReq5 interface {
	*Req5
	proto.Message
}, PResp5 interface {
	*Resp5
	proto.Message
}](ctx context.Context, in proto.Message, rpc func(context.Context, PReq5, ...grpc.CallOption) (PResp5, error), opts []grpc.CallOption) (PResp6, error) {
	req, err := rewire[Req5, PReq5](in)
	if err != nil {
		return nil, err
	}
	resp, err := rpc(ctx, req, opts...)
	if err != nil {
		return nil, err
	}
	return rewire[Resp6, PResp6](resp)
}

func (c protocol5Client) GetMetadata(ctx context.Context, in *tfplugin6.GetMetadata_Request, opts ...grpc.CallOption) (*tfplugin6.GetMetadata_Response, error) {
	return call5[tfplugin6.GetMetadata_Response](ctx, in, c.rpc.GetMetadata, opts)
}

func (c protocol5Client) GetResourceIdentitySchemas(ctx context.Context, in *tfplugin6.GetResourceIdentitySchemas_Request, opts ...grpc.CallOption) (*tfplugin6.GetResourceIdentitySchemas_Response, error) {
	return call5[tfplugin6.GetResourceIdentitySchemas_Response](ctx, in, c.rpc.GetResourceIdentitySchemas, opts)
}

func (c protocol5Client) ValidateProviderConfig(ctx context.Context, in *tfplugin6.ValidateProviderConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateProviderConfig_Response, error) {
	resp, _, err := c.PrepareProviderConfig(ctx, in, opts...)
	return resp, err
}

// PrepareProviderConfig is protocol 5's ValidateProviderConfig, whose answer
// also carries the configuration with the provider's defaults.
func (c protocol5Client) PrepareProviderConfig(ctx context.Context, in *tfplugin6.ValidateProviderConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateProviderConfig_Response, *tfplugin6.DynamicValue, error) {
	req, err := rewire[tfplugin5.PrepareProviderConfig_Request](in)
	if err != nil {
		return nil, nil, err
	}
	resp, err := c.rpc.PrepareProviderConfig(ctx, req, opts...)
	if err != nil {
		return nil, nil, err
	}
	out, err := rewire[tfplugin6.ValidateProviderConfig_Response](resp)
	if err != nil {
		return nil, nil, err
	}
	var prepared *tfplugin6.DynamicValue
	if resp.PreparedConfig != nil {
		prepared = &tfplugin6.DynamicValue{Msgpack: resp.PreparedConfig.Msgpack, Json: resp.PreparedConfig.Json}
	}
	return out, prepared, nil
}

func (c protocol5Client) ValidateResourceConfig(ctx context.Context, in *tfplugin6.ValidateResourceConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateResourceConfig_Response, error) {
	return call5[tfplugin6.ValidateResourceConfig_Response](ctx, in, c.rpc.ValidateResourceTypeConfig, opts)
}

func (c protocol5Client) ValidateDataResourceConfig(ctx context.Context, in *tfplugin6.ValidateDataResourceConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateDataResourceConfig_Response, error) {
	return call5[tfplugin6.ValidateDataResourceConfig_Response](ctx, in, c.rpc.ValidateDataSourceConfig, opts)
}

func (c protocol5Client) ValidateEphemeralResourceConfig(ctx context.Context, in *tfplugin6.ValidateEphemeralResourceConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateEphemeralResourceConfig_Response, error) {
	return call5[tfplugin6.ValidateEphemeralResourceConfig_Response](ctx, in, c.rpc.ValidateEphemeralResourceConfig, opts)
}

func (c protocol5Client) UpgradeResourceState(ctx context.Context, in *tfplugin6.UpgradeResourceState_Request, opts ...grpc.CallOption) (*tfplugin6.UpgradeResourceState_Response, error) {
	return call5[tfplugin6.UpgradeResourceState_Response](ctx, in, c.rpc.UpgradeResourceState, opts)
}

func (c protocol5Client) UpgradeResourceIdentity(ctx context.Context, in *tfplugin6.UpgradeResourceIdentity_Request, opts ...grpc.CallOption) (*tfplugin6.UpgradeResourceIdentity_Response, error) {
	return call5[tfplugin6.UpgradeResourceIdentity_Response](ctx, in, c.rpc.UpgradeResourceIdentity, opts)
}

func (c protocol5Client) ConfigureProvider(ctx context.Context, in *tfplugin6.ConfigureProvider_Request, opts ...grpc.CallOption) (*tfplugin6.ConfigureProvider_Response, error) {
	return call5[tfplugin6.ConfigureProvider_Response](ctx, in, c.rpc.Configure, opts)
}

func (c protocol5Client) ReadResource(ctx context.Context, in *tfplugin6.ReadResource_Request, opts ...grpc.CallOption) (*tfplugin6.ReadResource_Response, error) {
	return call5[tfplugin6.ReadResource_Response](ctx, in, c.rpc.ReadResource, opts)
}

func (c protocol5Client) PlanResourceChange(ctx context.Context, in *tfplugin6.PlanResourceChange_Request, opts ...grpc.CallOption) (*tfplugin6.PlanResourceChange_Response, error) {
	return call5[tfplugin6.PlanResourceChange_Response](ctx, in, c.rpc.PlanResourceChange, opts)
}

func (c protocol5Client) ApplyResourceChange(ctx context.Context, in *tfplugin6.ApplyResourceChange_Request, opts ...grpc.CallOption) (*tfplugin6.ApplyResourceChange_Response, error) {
	return call5[tfplugin6.ApplyResourceChange_Response](ctx, in, c.rpc.ApplyResourceChange, opts)
}

func (c protocol5Client) ImportResourceState(ctx context.Context, in *tfplugin6.ImportResourceState_Request, opts ...grpc.CallOption) (*tfplugin6.ImportResourceState_Response, error) {
	return call5[tfplugin6.ImportResourceState_Response](ctx, in, c.rpc.ImportResourceState, opts)
}

func (c protocol5Client) MoveResourceState(ctx context.Context, in *tfplugin6.MoveResourceState_Request, opts ...grpc.CallOption) (*tfplugin6.MoveResourceState_Response, error) {
	return call5[tfplugin6.MoveResourceState_Response](ctx, in, c.rpc.MoveResourceState, opts)
}

func (c protocol5Client) ReadDataSource(ctx context.Context, in *tfplugin6.ReadDataSource_Request, opts ...grpc.CallOption) (*tfplugin6.ReadDataSource_Response, error) {
	return call5[tfplugin6.ReadDataSource_Response](ctx, in, c.rpc.ReadDataSource, opts)
}

func (c protocol5Client) OpenEphemeralResource(ctx context.Context, in *tfplugin6.OpenEphemeralResource_Request, opts ...grpc.CallOption) (*tfplugin6.OpenEphemeralResource_Response, error) {
	return call5[tfplugin6.OpenEphemeralResource_Response](ctx, in, c.rpc.OpenEphemeralResource, opts)
}

func (c protocol5Client) RenewEphemeralResource(ctx context.Context, in *tfplugin6.RenewEphemeralResource_Request, opts ...grpc.CallOption) (*tfplugin6.RenewEphemeralResource_Response, error) {
	return call5[tfplugin6.RenewEphemeralResource_Response](ctx, in, c.rpc.RenewEphemeralResource, opts)
}

func (c protocol5Client) CloseEphemeralResource(ctx context.Context, in *tfplugin6.CloseEphemeralResource_Request, opts ...grpc.CallOption) (*tfplugin6.CloseEphemeralResource_Response, error) {
	return call5[tfplugin6.CloseEphemeralResource_Response](ctx, in, c.rpc.CloseEphemeralResource, opts)
}

func (c protocol5Client) CallFunction(ctx context.Context, in *tfplugin6.CallFunction_Request, opts ...grpc.CallOption) (*tfplugin6.CallFunction_Response, error) {
	return call5[tfplugin6.CallFunction_Response](ctx, in, c.rpc.CallFunction, opts)
}

func (c protocol5Client) GetFunctions(ctx context.Context, in *tfplugin6.GetFunctions_Request, opts ...grpc.CallOption) (*tfplugin6.GetFunctions_Response, error) {
	return call5[tfplugin6.GetFunctions_Response](ctx, in, c.rpc.GetFunctions, opts)
}

func (c protocol5Client) StopProvider(ctx context.Context, in *tfplugin6.StopProvider_Request, opts ...grpc.CallOption) (*tfplugin6.StopProvider_Response, error) {
	return call5[tfplugin6.StopProvider_Response](ctx, in, c.rpc.Stop, opts)
}

// GetProviderSchema asks protocol 5's GetSchema and converts the schemas
// field by field; the rest of the answer is wire-compatible.
func (c protocol5Client) GetProviderSchema(ctx context.Context, in *tfplugin6.GetProviderSchema_Request, opts ...grpc.CallOption) (*tfplugin6.GetProviderSchema_Response, error) {
	resp, err := c.rpc.GetSchema(ctx, &tfplugin5.GetProviderSchema_Request{}, opts...)
	if err != nil {
		return nil, err
	}
	rest, err := rewire[tfplugin6.GetProviderSchema_Response](&tfplugin5.GetProviderSchema_Response{
		Diagnostics:        resp.Diagnostics,
		ServerCapabilities: resp.ServerCapabilities,
		Functions:          resp.Functions,
	})
	if err != nil {
		return nil, err
	}
	rest.Provider = schema5to6(resp.Provider)
	rest.ProviderMeta = schema5to6(resp.ProviderMeta)
	rest.ResourceSchemas = schemas5to6(resp.ResourceSchemas)
	rest.DataSourceSchemas = schemas5to6(resp.DataSourceSchemas)
	rest.EphemeralResourceSchemas = schemas5to6(resp.EphemeralResourceSchemas)
	rest.ListResourceSchemas = schemas5to6(resp.ListResourceSchemas)
	if len(resp.ActionSchemas) > 0 {
		rest.ActionSchemas = make(map[string]*tfplugin6.ActionSchema, len(resp.ActionSchemas))
		for name, action := range resp.ActionSchemas {
			rest.ActionSchemas[name] = &tfplugin6.ActionSchema{Schema: schema5to6(action.GetSchema())}
		}
	}
	return rest, nil
}

func schemas5to6(in map[string]*tfplugin5.Schema) map[string]*tfplugin6.Schema {
	if in == nil {
		return nil
	}
	out := make(map[string]*tfplugin6.Schema, len(in))
	for name, s := range in {
		out[name] = schema5to6(s)
	}
	return out
}

func schema5to6(in *tfplugin5.Schema) *tfplugin6.Schema {
	if in == nil {
		return nil
	}
	return &tfplugin6.Schema{Version: in.Version, Block: block5to6(in.Block)}
}

func block5to6(in *tfplugin5.Schema_Block) *tfplugin6.Schema_Block {
	if in == nil {
		return nil
	}
	out := &tfplugin6.Schema_Block{
		Version:            in.Version,
		Description:        in.Description,
		DescriptionKind:    tfplugin6.StringKind(in.DescriptionKind),
		Deprecated:         in.Deprecated,
		DeprecationMessage: in.DeprecationMessage,
	}
	for _, attr := range in.Attributes {
		out.Attributes = append(out.Attributes, &tfplugin6.Schema_Attribute{
			Name:               attr.Name,
			Type:               attr.Type,
			Description:        attr.Description,
			Required:           attr.Required,
			Optional:           attr.Optional,
			Computed:           attr.Computed,
			Sensitive:          attr.Sensitive,
			DescriptionKind:    tfplugin6.StringKind(attr.DescriptionKind),
			Deprecated:         attr.Deprecated,
			WriteOnly:          attr.WriteOnly,
			DeprecationMessage: attr.DeprecationMessage,
		})
	}
	for _, nested := range in.BlockTypes {
		out.BlockTypes = append(out.BlockTypes, &tfplugin6.Schema_NestedBlock{
			TypeName: nested.TypeName,
			Block:    block5to6(nested.Block),
			Nesting:  tfplugin6.Schema_NestedBlock_NestingMode(nested.Nesting),
			MinItems: nested.MinItems,
			MaxItems: nested.MaxItems,
		})
	}
	return out
}
