package grpcprovider

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// Client is the part of the protocol 6 service the adapter uses.
// tfplugin6.NewProviderClient satisfies it, and NewProtocol5Client adapts a
// protocol 5 connection to it.
type Client interface {
	GetMetadata(ctx context.Context, in *tfplugin6.GetMetadata_Request, opts ...grpc.CallOption) (*tfplugin6.GetMetadata_Response, error)
	GetProviderSchema(ctx context.Context, in *tfplugin6.GetProviderSchema_Request, opts ...grpc.CallOption) (*tfplugin6.GetProviderSchema_Response, error)
	GetResourceIdentitySchemas(ctx context.Context, in *tfplugin6.GetResourceIdentitySchemas_Request, opts ...grpc.CallOption) (*tfplugin6.GetResourceIdentitySchemas_Response, error)
	ValidateProviderConfig(ctx context.Context, in *tfplugin6.ValidateProviderConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateProviderConfig_Response, error)
	ValidateResourceConfig(ctx context.Context, in *tfplugin6.ValidateResourceConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateResourceConfig_Response, error)
	ValidateDataResourceConfig(ctx context.Context, in *tfplugin6.ValidateDataResourceConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateDataResourceConfig_Response, error)
	ValidateEphemeralResourceConfig(ctx context.Context, in *tfplugin6.ValidateEphemeralResourceConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateEphemeralResourceConfig_Response, error)
	UpgradeResourceState(ctx context.Context, in *tfplugin6.UpgradeResourceState_Request, opts ...grpc.CallOption) (*tfplugin6.UpgradeResourceState_Response, error)
	UpgradeResourceIdentity(ctx context.Context, in *tfplugin6.UpgradeResourceIdentity_Request, opts ...grpc.CallOption) (*tfplugin6.UpgradeResourceIdentity_Response, error)
	ConfigureProvider(ctx context.Context, in *tfplugin6.ConfigureProvider_Request, opts ...grpc.CallOption) (*tfplugin6.ConfigureProvider_Response, error)
	ReadResource(ctx context.Context, in *tfplugin6.ReadResource_Request, opts ...grpc.CallOption) (*tfplugin6.ReadResource_Response, error)
	PlanResourceChange(ctx context.Context, in *tfplugin6.PlanResourceChange_Request, opts ...grpc.CallOption) (*tfplugin6.PlanResourceChange_Response, error)
	ApplyResourceChange(ctx context.Context, in *tfplugin6.ApplyResourceChange_Request, opts ...grpc.CallOption) (*tfplugin6.ApplyResourceChange_Response, error)
	ImportResourceState(ctx context.Context, in *tfplugin6.ImportResourceState_Request, opts ...grpc.CallOption) (*tfplugin6.ImportResourceState_Response, error)
	MoveResourceState(ctx context.Context, in *tfplugin6.MoveResourceState_Request, opts ...grpc.CallOption) (*tfplugin6.MoveResourceState_Response, error)
	ReadDataSource(ctx context.Context, in *tfplugin6.ReadDataSource_Request, opts ...grpc.CallOption) (*tfplugin6.ReadDataSource_Response, error)
	OpenEphemeralResource(ctx context.Context, in *tfplugin6.OpenEphemeralResource_Request, opts ...grpc.CallOption) (*tfplugin6.OpenEphemeralResource_Response, error)
	RenewEphemeralResource(ctx context.Context, in *tfplugin6.RenewEphemeralResource_Request, opts ...grpc.CallOption) (*tfplugin6.RenewEphemeralResource_Response, error)
	CloseEphemeralResource(ctx context.Context, in *tfplugin6.CloseEphemeralResource_Request, opts ...grpc.CallOption) (*tfplugin6.CloseEphemeralResource_Response, error)
	GetFunctions(ctx context.Context, in *tfplugin6.GetFunctions_Request, opts ...grpc.CallOption) (*tfplugin6.GetFunctions_Response, error)
	CallFunction(ctx context.Context, in *tfplugin6.CallFunction_Request, opts ...grpc.CallOption) (*tfplugin6.CallFunction_Response, error)
	StopProvider(ctx context.Context, in *tfplugin6.StopProvider_Request, opts ...grpc.CallOption) (*tfplugin6.StopProvider_Response, error)
}

// configPreparer is implemented by protocol 5 clients: PrepareProviderConfig
// may return the configuration with defaults the provider inserted, which
// protocol 6's ValidateProviderConfig cannot carry.
type configPreparer interface {
	PrepareProviderConfig(ctx context.Context, in *tfplugin6.ValidateProviderConfig_Request) (*tfplugin6.ValidateProviderConfig_Response, *tfplugin6.DynamicValue, error)
}

// Process is what the adapter may learn about the provider's process to
// explain a failed call. A reattached provider, whose process Terrane did
// not start, reports nothing.
type Process interface {
	// WaitExited waits up to d for the process to end and reports whether
	// it has: a call that failed because the process died races the
	// process's exit.
	WaitExited(d time.Duration) bool
	// StderrTail returns the last lines the process wrote to stderr.
	StderrTail() string
}

// Config describes one provider connection.
type Config struct {
	// Name is the provider's address, used in every message.
	Name   string
	Client Client
	// Process may be nil.
	Process Process
	// Schema, when set, is a schema already known for this provider binary
	// (from the schema cache). It is used without asking the provider when
	// the provider declared get_provider_schema_optional.
	Schema *providers.GetProviderSchemaResponse
	// SchemaFetched, when set, is called with the provider's answer when the
	// adapter had to fetch the schema, so the caller can cache it.
	SchemaFetched func(raw *tfplugin6.GetProviderSchema_Response, decoded *providers.GetProviderSchemaResponse)
	// Close ends the connection and the process; Provider.Close calls it once.
	Close  func() error
	Logger hclog.Logger
}

// Provider is a running provider reached over the plugin protocol.
type Provider struct {
	cfg Config

	// schema and identity are fetched at most once per process (the
	// protocol: they do not change while it runs); a fetch that failed in
	// transport is not remembered, so a cancelled one can be retried.
	fetchMu  sync.Mutex
	schema   atomic.Pointer[providers.GetProviderSchemaResponse]
	identity atomic.Pointer[providers.GetResourceIdentitySchemasResponse]

	functionsOnce sync.Once
	functions     map[string]providers.FunctionDecl

	typesMu sync.Mutex
	types   map[typeKey]cty.Type

	closeOnce sync.Once
	closeErr  error
}

var _ providers.Interface = (*Provider)(nil)

// New returns the adapter for a connected provider.
func New(cfg Config) *Provider {
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	return &Provider{cfg: cfg, types: make(map[typeKey]cty.Type)}
}

// Close ends the provider; calling it again does nothing.
func (p *Provider) Close() error {
	p.closeOnce.Do(func() {
		if p.cfg.Close != nil {
			p.closeErr = p.cfg.Close()
		}
	})
	return p.closeErr
}

// StopProvider asks the provider to cancel its in-flight operations.
func (p *Provider) StopProvider(ctx context.Context) error {
	resp, err := p.cfg.Client.StopProvider(ctx, &tfplugin6.StopProvider_Request{})
	if err != nil {
		return p.failure(ctx, "StopProvider", "", err).Err()
	}
	if msg := resp.GetError(); msg != "" {
		return errors.New("provider " + p.cfg.Name + " could not stop: " + msg)
	}
	return nil
}

// loadSchema returns the provider's schema.
func (p *Provider) loadSchema(ctx context.Context) *providers.GetProviderSchemaResponse {
	if known := p.schema.Load(); known != nil {
		return known
	}
	p.fetchMu.Lock()
	defer p.fetchMu.Unlock()
	if known := p.schema.Load(); known != nil {
		return known
	}
	if cached := p.cfg.Schema; cached != nil && cached.ServerCapabilities.GetProviderSchemaOptional {
		p.schema.Store(cached)
		return cached
	}
	resp, err := p.cfg.Client.GetProviderSchema(ctx, &tfplugin6.GetProviderSchema_Request{})
	if err != nil {
		return &providers.GetProviderSchemaResponse{Diagnostics: p.failure(ctx, "GetProviderSchema", "", err)}
	}
	decoded := DecodeSchema(resp)
	p.schema.Store(&decoded)
	if p.cfg.SchemaFetched != nil && !decoded.Diagnostics.HasErrors() {
		p.cfg.SchemaFetched(resp, &decoded)
	}
	return &decoded
}

// GetProviderSchema returns the provider's schema.
func (p *Provider) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	return *p.loadSchema(ctx)
}

// typeKey names one schema: kind is "resource", "data", "ephemeral" or "provider".
type typeKey struct{ kind, name string }

// schemaFor returns the schema and value type of one resource type, data
// source or ephemeral resource type, or a diagnostic when the provider has
// no such type.
func (p *Provider) schemaFor(ctx context.Context, kind, typeName string) (schema.Schema, cty.Type, diags.Diagnostics) {
	full := p.loadSchema(ctx)
	if full.Diagnostics.HasErrors() {
		return schema.Schema{}, cty.DynamicPseudoType, full.Diagnostics
	}
	var s schema.Schema
	var ok bool
	switch kind {
	case "resource":
		s, ok = full.ResourceTypes[typeName]
	case "data":
		s, ok = full.DataSources[typeName]
	case "ephemeral":
		s, ok = full.EphemeralResources[typeName]
	case "provider":
		s, ok = full.Provider, true
	case "provider_meta":
		s, ok = full.ProviderMeta, true
	}
	if !ok {
		return s, cty.DynamicPseudoType, diags.Diagnostics{diags.Errorf("Unsupported "+kindNoun(kind),
			"The provider %s has no %s named %q. Check the spelling, or whether a newer version of the provider introduced it.",
			p.cfg.Name, kindNoun(kind), typeName)}
	}
	p.typesMu.Lock()
	defer p.typesMu.Unlock()
	key := typeKey{kind, typeName}
	ty, ok := p.types[key]
	if !ok {
		// Computing an implied type walks the whole schema; a run asks
		// for the same one per instance, so it is remembered.
		ty = s.Block.ImpliedType()
		p.types[key] = ty
	}
	return s, ty, nil
}

func kindNoun(kind string) string {
	switch kind {
	case "resource":
		return "resource type"
	case "data":
		return "data source"
	case "ephemeral":
		return "ephemeral resource type"
	}
	return kind
}

// identitySchema returns the identity schema of a resource type, or nil when
// it has none (or the provider does not support identities).
func (p *Provider) identitySchema(ctx context.Context, typeName string) *providers.IdentitySchema {
	s, ok := p.loadIdentitySchemas(ctx).IdentityTypes[typeName]
	if !ok {
		return nil
	}
	return &s
}

func (p *Provider) loadIdentitySchemas(ctx context.Context) *providers.GetResourceIdentitySchemasResponse {
	if known := p.identity.Load(); known != nil {
		return known
	}
	p.fetchMu.Lock()
	defer p.fetchMu.Unlock()
	if known := p.identity.Load(); known != nil {
		return known
	}
	resp, err := p.cfg.Client.GetResourceIdentitySchemas(ctx, &tfplugin6.GetResourceIdentitySchemas_Request{})
	if err != nil && status.Code(err) != codes.Unimplemented {
		return &providers.GetResourceIdentitySchemasResponse{Diagnostics: p.failure(ctx, "GetResourceIdentitySchemas", "", err)}
	}
	// Unimplemented: a provider older than identities, where no type has one.
	decoded := DecodeIdentitySchemas(resp)
	p.identity.Store(&decoded)
	return &decoded
}

// GetResourceIdentitySchemas returns the identity schema of every managed
// resource type that has one.
func (p *Provider) GetResourceIdentitySchemas(ctx context.Context) providers.GetResourceIdentitySchemasResponse {
	return *p.loadIdentitySchemas(ctx)
}

func (p *Provider) codec(rpc, typeName string) *codec {
	return &codec{provider: p.cfg.Name, rpc: rpc, typeName: typeName}
}
