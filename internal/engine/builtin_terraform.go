package engine

import (
	"context"

	"github.com/google/uuid"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/builtin/remotestate"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// builtinTerraform is the provider terraform.io/builtin/terraform, run in
// process: its resource type terraform_data is a value that lives in state
// and can force replacements of what depends on it; its data source
// terraform_remote_state reads another workspace's or state file's outputs.
type builtinTerraform struct {
	remoteState *remotestate.DataSource
}

// newBuiltinTerraform returns the provider reading remote state through
// remoteState; nil leaves only state files readable.
func newBuiltinTerraform(remoteState *remotestate.DataSource) providers.Interface {
	if remoteState == nil {
		remoteState = &remotestate.DataSource{}
	}
	return builtinTerraform{remoteState: remoteState}
}

var terraformDataSchema = schema.Schema{Block: &schema.Block{Attributes: map[string]*schema.Attribute{
	"id":               {Type: cty.String, Computed: true},
	"input":            {Type: cty.DynamicPseudoType, Optional: true},
	"output":           {Type: cty.DynamicPseudoType, Computed: true},
	"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
}}}

func unsupported(what string) diags.Diagnostics {
	return diags.Diagnostics{diags.Errorf("Unsupported by the built-in provider",
		"The built-in terraform provider has no %s; it offers the terraform_data resource type and the terraform_remote_state data source.", what)}
}

func (builtinTerraform) GetMetadata(context.Context) providers.GetMetadataResponse {
	return providers.GetMetadataResponse{ResourceTypes: []string{"terraform_data"}, DataSources: []string{remotestate.TypeName}}
}

func (builtinTerraform) GetProviderSchema(context.Context) providers.GetProviderSchemaResponse {
	return providers.GetProviderSchemaResponse{
		Provider:           schema.Schema{Block: &schema.Block{}},
		ResourceTypes:      map[string]schema.Schema{"terraform_data": terraformDataSchema},
		DataSources:        map[string]schema.Schema{remotestate.TypeName: remotestate.Schema()},
		ServerCapabilities: providers.ServerCapabilities{GetProviderSchemaOptional: true},
	}
}

func (builtinTerraform) GetResourceIdentitySchemas(context.Context) providers.GetResourceIdentitySchemasResponse {
	return providers.GetResourceIdentitySchemasResponse{}
}

func (builtinTerraform) ValidateProviderConfig(context.Context, providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return providers.ValidateProviderConfigResponse{}
}

func (builtinTerraform) ValidateResourceConfig(_ context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	if req.TypeName != "terraform_data" {
		return providers.ValidateResourceConfigResponse{Diagnostics: unsupported("resource type " + req.TypeName)}
	}
	return providers.ValidateResourceConfigResponse{}
}

func (p builtinTerraform) ValidateDataResourceConfig(_ context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	if req.TypeName != remotestate.TypeName {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: unsupported("data source " + req.TypeName)}
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: p.remoteState.Validate(req.Config)}
}

func (builtinTerraform) ValidateEphemeralResourceConfig(_ context.Context, req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: unsupported("ephemeral resource " + req.TypeName)}
}

func (builtinTerraform) UpgradeResourceState(_ context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	ty := terraformDataSchema.Block.ImpliedType()
	val, err := ctyjson.Unmarshal(req.RawStateJSON, ty)
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Diagnostics{}.Append(err)}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: val}
}

func (builtinTerraform) UpgradeResourceIdentity(context.Context, providers.UpgradeResourceIdentityRequest) providers.UpgradeResourceIdentityResponse {
	return providers.UpgradeResourceIdentityResponse{Diagnostics: unsupported("resource identities")}
}

func (builtinTerraform) ConfigureProvider(context.Context, providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	return providers.ConfigureProviderResponse{}
}

func (builtinTerraform) ReadResource(_ context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private}
}

// PlanResourceChange plans terraform_data as OpenTofu's built-in provider
// does: a new object, or one replaced because triggers_replace changed,
// gets an unknown id; output is unknown whenever input changes, known
// only after apply like any computed result, so a sensitive input never
// shows through it in a plan and conditions on it wait for the apply.
func (builtinTerraform) PlanResourceChange(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	if req.ProposedNewState.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
	}
	planned := req.ProposedNewState.AsValueMap()
	input := planned["input"]
	resp := providers.PlanResourceChangeResponse{}
	switch {
	case req.PriorState.IsNull():
		planned["id"] = cty.UnknownVal(cty.String).RefineNotNull()
		planned["output"] = plannedOutput(input)
	case !req.PriorState.GetAttr("triggers_replace").RawEquals(planned["triggers_replace"]):
		resp.RequiresReplace = []cty.Path{cty.GetAttrPath("triggers_replace")}
		planned["id"] = cty.UnknownVal(cty.String).RefineNotNull()
		planned["output"] = plannedOutput(input)
	case !req.PriorState.GetAttr("input").RawEquals(input):
		planned["output"] = cty.UnknownVal(input.Type())
	}
	resp.PlannedState = cty.ObjectVal(planned)
	return resp
}

// plannedOutput is output's planned value for a new object: null for a
// null input (output's type always follows input's), else unknown.
func plannedOutput(input cty.Value) cty.Value {
	if input.IsNull() {
		return input
	}
	return cty.UnknownVal(input.Type())
}

func (builtinTerraform) ApplyResourceChange(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	if req.PlannedState.IsNull() {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
	}
	planned := req.PlannedState.AsValueMap()
	if !planned["id"].IsKnown() {
		planned["id"] = cty.StringVal(uuid.NewString())
	}
	planned["output"] = planned["input"]
	return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(planned)}
}

// ImportResourceState adopts a terraform_data object by id, as OpenTofu's
// built-in provider does: the object has only its id until the next apply
// sets input and output from the configuration.
func (builtinTerraform) ImportResourceState(_ context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	if req.TypeName != "terraform_data" {
		return providers.ImportResourceStateResponse{Diagnostics: unsupported("resource type " + req.TypeName)}
	}
	state := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal(req.ID), "input": cty.NullVal(cty.DynamicPseudoType),
		"output": cty.NullVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType),
	})
	return providers.ImportResourceStateResponse{ImportedResources: []providers.ImportedResource{{TypeName: req.TypeName, State: state}}}
}

func (builtinTerraform) MoveResourceState(context.Context, providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	return providers.MoveResourceStateResponse{Diagnostics: unsupported("resource moves")}
}

// ReadDataSource reads terraform_remote_state.
func (p builtinTerraform) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	if req.TypeName != remotestate.TypeName {
		return providers.ReadDataSourceResponse{Diagnostics: unsupported("data source " + req.TypeName)}
	}
	state, ds := p.remoteState.Read(ctx, req.Config)
	return providers.ReadDataSourceResponse{State: state, Diagnostics: ds}
}

func (builtinTerraform) OpenEphemeralResource(_ context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	return providers.OpenEphemeralResourceResponse{Diagnostics: unsupported("ephemeral resource " + req.TypeName)}
}

func (builtinTerraform) RenewEphemeralResource(context.Context, providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	return providers.RenewEphemeralResourceResponse{Diagnostics: unsupported("ephemeral resources")}
}

func (builtinTerraform) CloseEphemeralResource(context.Context, providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	return providers.CloseEphemeralResourceResponse{Diagnostics: unsupported("ephemeral resources")}
}

func (builtinTerraform) GetFunctions(context.Context) providers.GetFunctionsResponse {
	return providers.GetFunctionsResponse{}
}

func (builtinTerraform) CallFunction(_ context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	return providers.CallFunctionResponse{Err: &providers.FunctionError{Text: "the built-in terraform provider's functions are evaluated by the language, not called"}}
}

func (builtinTerraform) StopProvider(context.Context) error { return nil }
func (builtinTerraform) Close() error                       { return nil }
