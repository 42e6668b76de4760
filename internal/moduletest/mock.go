package moduletest

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// fakeProvider stands in front of a provider process. For the resource
// types it fakes (valuesFor answers true) it plans, applies and reads
// objects itself, composing their values from configuration and the given
// values, as OpenTofu's test framework does for mock_provider,
// override_resource and override_data; everything else goes to the
// process. A mocked configuration (mocked) is never validated or
// configured, so a provider that needs credentials works without them.
//
// Every method of providers.Interface is written out, so a method added to
// the interface has to be decided on here rather than reaching the
// provider unnoticed.
type fakeProvider struct {
	inner   providers.Interface
	schemas providers.GetProviderSchemaResponse
	mocked  bool
	// valuesFor gives the values a faked object of this type gets, and
	// whether objects of this type are faked at all.
	valuesFor func(mode addrs.ResourceMode, typeName string) (map[string]cty.Value, bool)
	// origin is the block that asked for the fake, for diagnostics.
	origin hcl.Range
}

var _ providers.Interface = (*fakeProvider)(nil)

func (p *fakeProvider) resourceSchema(mode addrs.ResourceMode, typeName string) (*schema.Block, bool) {
	types := p.schemas.ResourceTypes
	if mode == addrs.DataResourceMode {
		types = p.schemas.DataSources
	}
	s, ok := types[typeName]
	return s.Block, ok && s.Block != nil
}

// composeObject builds a faked object's value, reporting what is wrong
// with the given values at the block that gave them.
func (p *fakeProvider) composeObject(mode addrs.ResourceMode, typeName string, cfg cty.Value, given map[string]cty.Value) (cty.Value, diags.Diagnostics) {
	block, ok := p.resourceSchema(mode, typeName)
	if !ok {
		return cty.NilVal, diags.Diagnostics{{Severity: diags.Error, Summary: "Unsupported resource type",
			Detail: fmt.Sprintf("The provider has no schema for %q, so no value can be made up for it.", typeName), Subject: p.origin.Ptr()}}
	}
	val, problems := newComposer(typeName).compose(block, cfg, given)
	var ds diags.Diagnostics
	for _, pr := range problems {
		// About the whole object: the engine places it at the resource's
		// block, as OpenTofu does.
		severity := diags.Error
		if pr.severity == diags.Warning {
			severity = diags.Warning
		}
		ds = ds.Append(diags.Diagnostic{Severity: severity, Summary: pr.summary, Detail: pr.detail})
	}
	return val, ds
}

func (p *fakeProvider) GetMetadata(ctx context.Context) providers.GetMetadataResponse {
	return p.inner.GetMetadata(ctx)
}

func (p *fakeProvider) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	return p.inner.GetProviderSchema(ctx)
}

func (p *fakeProvider) GetResourceIdentitySchemas(ctx context.Context) providers.GetResourceIdentitySchemasResponse {
	return p.inner.GetResourceIdentitySchemas(ctx)
}

func (p *fakeProvider) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	if p.mocked {
		// A mock's configuration is its mock_provider block, which has
		// none of the provider's arguments.
		return providers.ValidateProviderConfigResponse{PreparedConfig: req.Config}
	}
	return p.inner.ValidateProviderConfig(ctx, req)
}

func (p *fakeProvider) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	return p.inner.ValidateResourceConfig(ctx, req)
}

func (p *fakeProvider) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	return p.inner.ValidateDataResourceConfig(ctx, req)
}

func (p *fakeProvider) ValidateEphemeralResourceConfig(ctx context.Context, req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	return p.inner.ValidateEphemeralResourceConfig(ctx, req)
}

func (p *fakeProvider) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	return p.inner.UpgradeResourceState(ctx, req)
}

func (p *fakeProvider) UpgradeResourceIdentity(ctx context.Context, req providers.UpgradeResourceIdentityRequest) providers.UpgradeResourceIdentityResponse {
	return p.inner.UpgradeResourceIdentity(ctx, req)
}

func (p *fakeProvider) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	if p.mocked {
		return providers.ConfigureProviderResponse{}
	}
	return p.inner.ConfigureProvider(ctx, req)
}

func (p *fakeProvider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	if _, faked := p.valuesFor(addrs.ManagedResourceMode, req.TypeName); faked {
		// A faked object exists nowhere else, so it cannot have drifted.
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private, NewIdentity: req.CurrentIdentity}
	}
	return p.inner.ReadResource(ctx, req)
}

func (p *fakeProvider) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	given, faked := p.valuesFor(addrs.ManagedResourceMode, req.TypeName)
	if !faked {
		return p.inner.PlanResourceChange(ctx, req)
	}
	if req.ProposedNewState.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
	}
	planned, ds := p.composeObject(addrs.ManagedResourceMode, req.TypeName, req.Config, given)
	if ds.HasErrors() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState, Diagnostics: ds}
	}
	return providers.PlanResourceChangeResponse{PlannedState: planned, PlannedIdentity: req.PriorIdentity, Diagnostics: ds}
}

func (p *fakeProvider) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	given, faked := p.valuesFor(addrs.ManagedResourceMode, req.TypeName)
	if !faked {
		return p.inner.ApplyResourceChange(ctx, req)
	}
	if req.PlannedState.IsNull() || req.PlannedState.IsWhollyKnown() {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState, Private: req.PlannedPrivate, NewIdentity: req.PlannedIdentity}
	}
	// The plan had values only the apply would know (from objects the
	// real providers create): make the object again from the
	// configuration, now known, which gives the same made-up values.
	newState, ds := p.composeObject(addrs.ManagedResourceMode, req.TypeName, req.Config, given)
	return providers.ApplyResourceChangeResponse{NewState: newState, Private: req.PlannedPrivate, NewIdentity: req.PlannedIdentity, Diagnostics: ds}
}

func (p *fakeProvider) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	if _, faked := p.valuesFor(addrs.ManagedResourceMode, req.TypeName); faked {
		return providers.ImportResourceStateResponse{Diagnostics: diags.Diagnostics{{Severity: diags.Error,
			Summary: "Importing is not supported in tests",
			Detail:  fmt.Sprintf("Objects of type %q are mocked or overridden here, so there is nothing to import them from.", req.TypeName), Subject: p.origin.Ptr()}}}
	}
	return p.inner.ImportResourceState(ctx, req)
}

func (p *fakeProvider) MoveResourceState(ctx context.Context, req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	return p.inner.MoveResourceState(ctx, req)
}

func (p *fakeProvider) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	given, faked := p.valuesFor(addrs.DataResourceMode, req.TypeName)
	if !faked {
		return p.inner.ReadDataSource(ctx, req)
	}
	state, ds := p.composeObject(addrs.DataResourceMode, req.TypeName, req.Config, given)
	return providers.ReadDataSourceResponse{State: state, Diagnostics: ds}
}

func (p *fakeProvider) OpenEphemeralResource(ctx context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	if p.mocked {
		return providers.OpenEphemeralResourceResponse{Diagnostics: diags.Diagnostics{{Severity: diags.Error,
			Summary: "Ephemeral resources of mocked providers are not supported",
			Detail:  fmt.Sprintf("The ephemeral resource type %q belongs to a mocked provider configuration, and Terrane cannot make up its values. Use a real provider configuration for runs that open it.", req.TypeName),
			Subject: p.origin.Ptr()}}}
	}
	return p.inner.OpenEphemeralResource(ctx, req)
}

func (p *fakeProvider) RenewEphemeralResource(ctx context.Context, req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	return p.inner.RenewEphemeralResource(ctx, req)
}

func (p *fakeProvider) CloseEphemeralResource(ctx context.Context, req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	return p.inner.CloseEphemeralResource(ctx, req)
}

func (p *fakeProvider) GetFunctions(ctx context.Context) providers.GetFunctionsResponse {
	return p.inner.GetFunctions(ctx)
}

func (p *fakeProvider) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	return p.inner.CallFunction(ctx, req)
}

func (p *fakeProvider) StopProvider(ctx context.Context) error { return p.inner.StopProvider(ctx) }

func (p *fakeProvider) Close() error { return p.inner.Close() }
