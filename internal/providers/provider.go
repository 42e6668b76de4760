package providers

import (
	"context"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/schema"
)

// Interface is a running provider. Every method may be called concurrently
// once ConfigureProvider has returned, as the protocol allows.
type Interface interface {
	GetMetadata(ctx context.Context) GetMetadataResponse
	GetProviderSchema(ctx context.Context) GetProviderSchemaResponse
	GetResourceIdentitySchemas(ctx context.Context) GetResourceIdentitySchemasResponse

	ValidateProviderConfig(ctx context.Context, req ValidateProviderConfigRequest) ValidateProviderConfigResponse
	ValidateResourceConfig(ctx context.Context, req ValidateResourceConfigRequest) ValidateResourceConfigResponse
	ValidateDataResourceConfig(ctx context.Context, req ValidateDataResourceConfigRequest) ValidateDataResourceConfigResponse
	ValidateEphemeralResourceConfig(ctx context.Context, req ValidateEphemeralResourceConfigRequest) ValidateEphemeralResourceConfigResponse

	UpgradeResourceState(ctx context.Context, req UpgradeResourceStateRequest) UpgradeResourceStateResponse
	UpgradeResourceIdentity(ctx context.Context, req UpgradeResourceIdentityRequest) UpgradeResourceIdentityResponse

	ConfigureProvider(ctx context.Context, req ConfigureProviderRequest) ConfigureProviderResponse

	ReadResource(ctx context.Context, req ReadResourceRequest) ReadResourceResponse
	PlanResourceChange(ctx context.Context, req PlanResourceChangeRequest) PlanResourceChangeResponse
	ApplyResourceChange(ctx context.Context, req ApplyResourceChangeRequest) ApplyResourceChangeResponse
	ImportResourceState(ctx context.Context, req ImportResourceStateRequest) ImportResourceStateResponse
	MoveResourceState(ctx context.Context, req MoveResourceStateRequest) MoveResourceStateResponse
	ReadDataSource(ctx context.Context, req ReadDataSourceRequest) ReadDataSourceResponse

	OpenEphemeralResource(ctx context.Context, req OpenEphemeralResourceRequest) OpenEphemeralResourceResponse
	RenewEphemeralResource(ctx context.Context, req RenewEphemeralResourceRequest) RenewEphemeralResourceResponse
	CloseEphemeralResource(ctx context.Context, req CloseEphemeralResourceRequest) CloseEphemeralResourceResponse

	GetFunctions(ctx context.Context) GetFunctionsResponse
	CallFunction(ctx context.Context, req CallFunctionRequest) CallFunctionResponse

	// StopProvider asks the provider to cancel its in-flight operations.
	StopProvider(ctx context.Context) error
	// Close ends the provider process (or connection) and releases it.
	Close() error
}

// Factory starts a new instance of a provider.
type Factory func(ctx context.Context) (Interface, error)

// ServerCapabilities are the optional protocol features a provider announces.
type ServerCapabilities struct {
	// PlanDestroy: the provider wants PlanResourceChange for destroys too.
	PlanDestroy bool
	// GetProviderSchemaOptional: the client may skip GetProviderSchema on a
	// process whose schema it already knows (cached).
	GetProviderSchemaOptional bool
	// MoveResourceState: the provider implements MoveResourceState.
	MoveResourceState bool
	// GenerateResourceConfig: the provider implements GenerateResourceConfig.
	GenerateResourceConfig bool
}

// ClientCapabilities are the features Terrane announces to the provider.
type ClientCapabilities struct {
	DeferralAllowed            bool
	WriteOnlyAttributesAllowed bool
}

// DeferredReason is why a provider deferred a change.
type DeferredReason int

const (
	DeferredReasonUnknown DeferredReason = iota
	DeferredReasonResourceConfigUnknown
	DeferredReasonProviderConfigUnknown
	DeferredReasonAbsentPrereq
)

// Deferred is set when the provider could not complete an operation yet.
type Deferred struct {
	Reason DeferredReason
}

// GetMetadataResponse lists what the provider offers without its schemas.
type GetMetadataResponse struct {
	ServerCapabilities ServerCapabilities
	ResourceTypes      []string
	DataSources        []string
	EphemeralResources []string
	ListResources      []string
	Actions            []string
	Functions          []string
	Diagnostics        diags.Diagnostics
}

// GetProviderSchemaResponse is every schema the provider declares.
type GetProviderSchemaResponse struct {
	Provider           schema.Schema
	ProviderMeta       schema.Schema
	ResourceTypes      map[string]schema.Schema
	DataSources        map[string]schema.Schema
	EphemeralResources map[string]schema.Schema
	ListResources      map[string]schema.Schema
	Actions            map[string]schema.Schema
	Functions          map[string]FunctionDecl
	ServerCapabilities ServerCapabilities
	Diagnostics        diags.Diagnostics
}

// IdentitySchema describes a resource type's identity object.
type IdentitySchema struct {
	Version    int64
	Attributes map[string]*IdentityAttribute
}

// IdentityAttribute is one attribute of a resource identity.
type IdentityAttribute struct {
	Type              cty.Type
	Description       string
	RequiredForImport bool
	OptionalForImport bool
}

// ImpliedType is the object type of identity values.
func (s IdentitySchema) ImpliedType() cty.Type {
	attrTypes := make(map[string]cty.Type, len(s.Attributes))
	for name, attr := range s.Attributes {
		attrTypes[name] = attr.Type
	}
	return cty.Object(attrTypes)
}

// GetResourceIdentitySchemasResponse maps resource types to identity schemas.
type GetResourceIdentitySchemasResponse struct {
	IdentityTypes map[string]IdentitySchema
	Diagnostics   diags.Diagnostics
}

type ValidateProviderConfigRequest struct {
	Config cty.Value
}

type ValidateProviderConfigResponse struct {
	// PreparedConfig is the configuration with defaults a protocol 5
	// provider inserted (PrepareProviderConfig); equal to the request's
	// config on protocol 6.
	PreparedConfig cty.Value
	Diagnostics    diags.Diagnostics
}

type ValidateResourceConfigRequest struct {
	TypeName           string
	Config             cty.Value
	ClientCapabilities ClientCapabilities
}

type ValidateResourceConfigResponse struct {
	Diagnostics diags.Diagnostics
}

type ValidateDataResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

type ValidateDataResourceConfigResponse struct {
	Diagnostics diags.Diagnostics
}

type ValidateEphemeralResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

type ValidateEphemeralResourceConfigResponse struct {
	Diagnostics diags.Diagnostics
}

// UpgradeResourceStateRequest carries a stored object in its raw form; the
// provider upgrades it to its current schema version.
type UpgradeResourceStateRequest struct {
	TypeName string
	Version  int64
	// RawStateJSON is the stored attributes as JSON (state v4 form).
	RawStateJSON []byte
	// RawStateFlatmap is the legacy flatmap form, for very old states.
	RawStateFlatmap map[string]string
}

type UpgradeResourceStateResponse struct {
	UpgradedState cty.Value
	Diagnostics   diags.Diagnostics
}

type UpgradeResourceIdentityRequest struct {
	TypeName        string
	Version         int64
	RawIdentityJSON []byte
}

type UpgradeResourceIdentityResponse struct {
	UpgradedIdentity cty.Value
	Diagnostics      diags.Diagnostics
}

type ConfigureProviderRequest struct {
	TerraformVersion   string
	Config             cty.Value
	ClientCapabilities ClientCapabilities
}

type ConfigureProviderResponse struct {
	Diagnostics diags.Diagnostics
}

type ReadResourceRequest struct {
	TypeName           string
	PriorState         cty.Value
	Private            []byte
	ProviderMeta       cty.Value
	CurrentIdentity    cty.Value // cty.NilVal when the type has no identity
	ClientCapabilities ClientCapabilities
}

type ReadResourceResponse struct {
	NewState    cty.Value
	Private     []byte
	NewIdentity cty.Value
	Deferred    *Deferred
	Diagnostics diags.Diagnostics
	// SensitivePaths: see PlanResourceChangeResponse.SensitivePaths.
	SensitivePaths []cty.Path
}

type PlanResourceChangeRequest struct {
	TypeName           string
	PriorState         cty.Value
	ProposedNewState   cty.Value
	Config             cty.Value
	PriorPrivate       []byte
	ProviderMeta       cty.Value
	PriorIdentity      cty.Value
	ClientCapabilities ClientCapabilities

	// ConfigSensitivePaths are the parts of Config the configuration marks
	// sensitive (a sensitive variable, sensitive()); the values themselves
	// are unmarked, as the wire protocols need. Pulumi providers get them
	// as secrets.
	ConfigSensitivePaths []cty.Path

	// IgnoreChanges are the paths lifecycle.ignore_changes names (every
	// attribute for ignore_changes = all). The engine has already put the
	// prior values back at them in Config; Pulumi providers also get them
	// as Diff's and Update's ignoreChanges, as Pulumi's engine sends them.
	IgnoreChanges []cty.Path
}

type PlanResourceChangeResponse struct {
	PlannedState    cty.Value
	RequiresReplace []cty.Path
	PlannedPrivate  []byte
	PlannedIdentity cty.Value
	Deferred        *Deferred
	// LegacyTypeSystem is set by providers built on the legacy SDK, whose
	// answers may break the planned-value rules; Terrane then warns in the
	// log instead of failing, as Terraform does.
	LegacyTypeSystem bool
	Diagnostics      diags.Diagnostics

	// SensitivePaths are attributes the provider marked secret in this
	// answer beyond those its schema declares sensitive (Pulumi providers
	// return secrets dynamically). The engine marks them sensitive after
	// its consistency checks, as it marks the schema's.
	SensitivePaths []cty.Path

	// DeleteBeforeReplace, with RequiresReplace, is the provider's demand
	// that the old object be deleted before its replacement is created
	// (Pulumi's deleteBeforeReplace, e.g. for names that must stay
	// unique): the engine plans the replacement as delete-then-create even
	// where create_before_destroy is set. Terraform-protocol providers
	// never set it.
	DeleteBeforeReplace bool
}

type ApplyResourceChangeRequest struct {
	TypeName        string
	PriorState      cty.Value
	PlannedState    cty.Value
	Config          cty.Value
	PlannedPrivate  []byte
	ProviderMeta    cty.Value
	PlannedIdentity cty.Value

	// ConfigSensitivePaths and IgnoreChanges: see PlanResourceChangeRequest.
	ConfigSensitivePaths []cty.Path
	IgnoreChanges        []cty.Path
}

type ApplyResourceChangeResponse struct {
	NewState         cty.Value
	Private          []byte
	NewIdentity      cty.Value
	LegacyTypeSystem bool
	Diagnostics      diags.Diagnostics
	// SensitivePaths: see PlanResourceChangeResponse.SensitivePaths.
	SensitivePaths []cty.Path

	// Children is set by component resources only: the resources the
	// component consists of after the call, in the order it created them;
	// empty, not nil, once it has none (it was deleted). Nil means the
	// object is not a component.
	Children []ComponentChild
}

type ImportResourceStateRequest struct {
	TypeName           string
	ID                 string
	Identity           cty.Value // cty.NilVal when importing by ID
	ClientCapabilities ClientCapabilities
}

// ImportedResource is one object an import produced; ReadResource
// completes it.
type ImportedResource struct {
	TypeName string
	State    cty.Value
	Private  []byte
	Identity cty.Value
}

type ImportResourceStateResponse struct {
	ImportedResources []ImportedResource
	Deferred          *Deferred
	Diagnostics       diags.Diagnostics
}

type MoveResourceStateRequest struct {
	SourceProviderAddress       string
	SourceTypeName              string
	SourceSchemaVersion         int64
	SourceStateJSON             []byte
	SourcePrivate               []byte
	SourceIdentityJSON          []byte
	SourceIdentitySchemaVersion int64
	TargetTypeName              string
}

type MoveResourceStateResponse struct {
	TargetState    cty.Value
	TargetPrivate  []byte
	TargetIdentity cty.Value
	Diagnostics    diags.Diagnostics
}

type ReadDataSourceRequest struct {
	TypeName           string
	Config             cty.Value
	ProviderMeta       cty.Value
	ClientCapabilities ClientCapabilities

	// ConfigSensitivePaths: see PlanResourceChangeRequest.
	ConfigSensitivePaths []cty.Path
}

type ReadDataSourceResponse struct {
	State       cty.Value
	Deferred    *Deferred
	Diagnostics diags.Diagnostics
	// SensitivePaths: see PlanResourceChangeResponse.SensitivePaths.
	SensitivePaths []cty.Path
}

type OpenEphemeralResourceRequest struct {
	TypeName           string
	Config             cty.Value
	ClientCapabilities ClientCapabilities
}

type OpenEphemeralResourceResponse struct {
	Result  cty.Value
	Private []byte
	// RenewAt is when to call RenewEphemeralResource; the zero time means
	// the resource needs no renewal.
	RenewAt     time.Time
	Deferred    *Deferred
	Diagnostics diags.Diagnostics
}

type RenewEphemeralResourceRequest struct {
	TypeName string
	Private  []byte
}

type RenewEphemeralResourceResponse struct {
	Private     []byte
	RenewAt     time.Time
	Diagnostics diags.Diagnostics
}

type CloseEphemeralResourceRequest struct {
	TypeName string
	Private  []byte
}

type CloseEphemeralResourceResponse struct {
	Diagnostics diags.Diagnostics
}

// FunctionDecl is a provider-defined function's signature.
type FunctionDecl struct {
	Parameters         []FunctionParam
	VariadicParameter  *FunctionParam
	ReturnType         cty.Type
	Summary            string
	Description        string
	DescriptionKind    schema.StringKind
	DeprecationMessage string
}

// FunctionParam is one parameter of a provider-defined function.
type FunctionParam struct {
	Name               string
	Type               cty.Type
	AllowNullValue     bool
	AllowUnknownValues bool
	Description        string
	DescriptionKind    schema.StringKind
}

type GetFunctionsResponse struct {
	Functions   map[string]FunctionDecl
	Diagnostics diags.Diagnostics
}

type CallFunctionRequest struct {
	FunctionName string
	Arguments    []cty.Value
}

// FunctionError is a provider function's failure; Argument is the index of
// the argument at fault, when one is.
type FunctionError struct {
	Text     string
	Argument *int64
}

func (e *FunctionError) Error() string { return e.Text }

type CallFunctionResponse struct {
	Result cty.Value
	Err    error
}

// PlannedImportRecorder is implemented by providers whose imported objects
// are to be recorded as the plan that imported them made them, not as the
// import's read returned them. Pulumi providers are: their private data
// holds the inputs Check made of the configuration, which each later Diff
// compares the configuration against, where a read returns the inputs the
// provider could recover from the object.
type PlannedImportRecorder interface {
	RecordsPlannedImport() bool
}
