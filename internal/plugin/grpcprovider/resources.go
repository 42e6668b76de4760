package grpcprovider

import (
	"context"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/value"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// The managed resource lifecycle. Every method decodes the provider's answer
// against the type's schema and reports a transport failure as a diagnostic
// naming the provider, the call and the resource type.

// ValidateResourceConfig asks the provider to check a resource's configuration.
func (p *Provider) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) (resp providers.ValidateResourceConfigResponse) {
	const rpc = "ValidateResourceConfig"
	_, ty, problems := p.schemaFor(ctx, "resource", req.TypeName)
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	c := p.codec(rpc, req.TypeName)
	in := &tfplugin6.ValidateResourceConfig_Request{
		TypeName:           req.TypeName,
		Config:             c.encode("configuration", req.Config, ty),
		ClientCapabilities: clientCapabilities(req.ClientCapabilities),
	}
	if c.problems.HasErrors() {
		resp.Diagnostics = c.problems
		return resp
	}
	out, err := p.cfg.Client.ValidateResourceConfig(ctx, in)
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}

// UpgradeResourceState has the provider upgrade a stored object to its
// current schema version.
func (p *Provider) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) (resp providers.UpgradeResourceStateResponse) {
	const rpc = "UpgradeResourceState"
	_, ty, problems := p.schemaFor(ctx, "resource", req.TypeName)
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	c := p.codec(rpc, req.TypeName)
	out, err := p.cfg.Client.UpgradeResourceState(ctx, &tfplugin6.UpgradeResourceState_Request{
		TypeName: req.TypeName,
		Version:  req.Version,
		RawState: &tfplugin6.RawState{Json: req.RawStateJSON, Flatmap: req.RawStateFlatmap},
	})
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.UpgradedState = c.decode("upgraded state", out.GetUpgradedState(), ty)
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}

// UpgradeResourceIdentity has the provider upgrade a stored identity.
func (p *Provider) UpgradeResourceIdentity(ctx context.Context, req providers.UpgradeResourceIdentityRequest) (resp providers.UpgradeResourceIdentityResponse) {
	const rpc = "UpgradeResourceIdentity"
	c := p.codec(rpc, req.TypeName)
	out, err := p.cfg.Client.UpgradeResourceIdentity(ctx, &tfplugin6.UpgradeResourceIdentity_Request{
		TypeName:    req.TypeName,
		Version:     req.Version,
		RawIdentity: &tfplugin6.RawState{Json: req.RawIdentityJSON},
	})
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.UpgradedIdentity = c.decodeIdentity(out.GetUpgradedIdentity(), p.identityOf(ctx, out.GetUpgradedIdentity(), req.TypeName))
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}

// identityFor and identityOf fetch the identity schema only when there is
// an identity to encode or decode: most calls carry none, and providers
// without identities need not be asked.
func (p *Provider) identityFor(ctx context.Context, v cty.Value, typeName string) *providers.IdentitySchema {
	if v == cty.NilVal {
		return nil
	}
	return p.identitySchema(ctx, typeName)
}

func (p *Provider) identityOf(ctx context.Context, data *tfplugin6.ResourceIdentityData, typeName string) *providers.IdentitySchema {
	if data == nil {
		return nil
	}
	return p.identitySchema(ctx, typeName)
}

// providerMeta encodes the module's provider_meta value (null when unset).
func (p *Provider) providerMeta(ctx context.Context, c *codec, v cty.Value) *tfplugin6.DynamicValue {
	_, ty, _ := p.schemaFor(ctx, "provider_meta", "")
	return c.encode("provider_meta", v, ty)
}

// ReadResource refreshes an object from the real infrastructure.
func (p *Provider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) (resp providers.ReadResourceResponse) {
	const rpc = "ReadResource"
	_, ty, problems := p.schemaFor(ctx, "resource", req.TypeName)
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	c := p.codec(rpc, req.TypeName)
	in := &tfplugin6.ReadResource_Request{
		TypeName:           req.TypeName,
		CurrentState:       c.encode("current state", req.PriorState, ty),
		Private:            req.Private,
		ProviderMeta:       p.providerMeta(ctx, c, req.ProviderMeta),
		ClientCapabilities: clientCapabilities(req.ClientCapabilities),
		CurrentIdentity:    c.encodeIdentity(req.CurrentIdentity, p.identityFor(ctx, req.CurrentIdentity, req.TypeName)),
	}
	if c.problems.HasErrors() {
		resp.Diagnostics = c.problems
		return resp
	}
	out, err := p.cfg.Client.ReadResource(ctx, in)
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.NewState = c.decode("new state", out.GetNewState(), ty)
	resp.Private = out.GetPrivate()
	resp.NewIdentity = c.decodeIdentity(out.GetNewIdentity(), p.identityOf(ctx, out.GetNewIdentity(), req.TypeName))
	resp.Deferred = deferred(out.GetDeferred())
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}

// PlanResourceChange asks the provider to plan a create, update or destroy.
func (p *Provider) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) (resp providers.PlanResourceChangeResponse) {
	const rpc = "PlanResourceChange"
	_, ty, problems := p.schemaFor(ctx, "resource", req.TypeName)
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	c := p.codec(rpc, req.TypeName)
	in := &tfplugin6.PlanResourceChange_Request{
		TypeName:           req.TypeName,
		PriorState:         c.encode("prior state", req.PriorState, ty),
		ProposedNewState:   c.encode("proposed new state", req.ProposedNewState, ty),
		Config:             c.encode("configuration", req.Config, ty),
		PriorPrivate:       req.PriorPrivate,
		ProviderMeta:       p.providerMeta(ctx, c, req.ProviderMeta),
		ClientCapabilities: clientCapabilities(req.ClientCapabilities),
		PriorIdentity:      c.encodeIdentity(req.PriorIdentity, p.identityFor(ctx, req.PriorIdentity, req.TypeName)),
	}
	if c.problems.HasErrors() {
		resp.Diagnostics = c.problems
		return resp
	}
	out, err := p.cfg.Client.PlanResourceChange(ctx, in)
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.PlannedState = c.decode("planned state", out.GetPlannedState(), ty)
	for _, path := range out.GetRequiresReplace() {
		resp.RequiresReplace = append(resp.RequiresReplace, value.PathFromProto6(path))
	}
	resp.PlannedPrivate = out.GetPlannedPrivate()
	resp.PlannedIdentity = c.decodeIdentity(out.GetPlannedIdentity(), p.identityOf(ctx, out.GetPlannedIdentity(), req.TypeName))
	resp.Deferred = deferred(out.GetDeferred())
	resp.LegacyTypeSystem = out.GetLegacyTypeSystem()
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}

// ApplyResourceChange has the provider carry out a planned change.
func (p *Provider) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) (resp providers.ApplyResourceChangeResponse) {
	const rpc = "ApplyResourceChange"
	_, ty, problems := p.schemaFor(ctx, "resource", req.TypeName)
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	c := p.codec(rpc, req.TypeName)
	in := &tfplugin6.ApplyResourceChange_Request{
		TypeName:        req.TypeName,
		PriorState:      c.encode("prior state", req.PriorState, ty),
		PlannedState:    c.encode("planned state", req.PlannedState, ty),
		Config:          c.encode("configuration", req.Config, ty),
		PlannedPrivate:  req.PlannedPrivate,
		ProviderMeta:    p.providerMeta(ctx, c, req.ProviderMeta),
		PlannedIdentity: c.encodeIdentity(req.PlannedIdentity, p.identityFor(ctx, req.PlannedIdentity, req.TypeName)),
	}
	if c.problems.HasErrors() {
		resp.Diagnostics = c.problems
		return resp
	}
	if stopped := p.notRunning(rpc, req.TypeName); stopped != nil {
		resp.Diagnostics = stopped
		return resp
	}
	out, err := p.cfg.Client.ApplyResourceChange(ctx, in)
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.NewState = c.decode("new state", out.GetNewState(), ty)
	resp.Private = out.GetPrivate()
	resp.NewIdentity = c.decodeIdentity(out.GetNewIdentity(), p.identityOf(ctx, out.GetNewIdentity(), req.TypeName))
	resp.LegacyTypeSystem = out.GetLegacyTypeSystem()
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}

// ImportResourceState has the provider find an existing object by ID or
// identity; the objects it returns may be of other types of the provider.
func (p *Provider) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) (resp providers.ImportResourceStateResponse) {
	const rpc = "ImportResourceState"
	c := p.codec(rpc, req.TypeName)
	in := &tfplugin6.ImportResourceState_Request{
		TypeName:           req.TypeName,
		Id:                 req.ID,
		ClientCapabilities: clientCapabilities(req.ClientCapabilities),
		Identity:           c.encodeIdentity(req.Identity, p.identityFor(ctx, req.Identity, req.TypeName)),
	}
	if c.problems.HasErrors() {
		resp.Diagnostics = c.problems
		return resp
	}
	out, err := p.cfg.Client.ImportResourceState(ctx, in)
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	for _, imported := range out.GetImportedResources() {
		_, ty, problems := p.schemaFor(ctx, "resource", imported.GetTypeName())
		if problems.HasErrors() {
			resp.Diagnostics = resp.Diagnostics.Append(problems)
			continue
		}
		ic := p.codec(rpc, imported.GetTypeName())
		resp.ImportedResources = append(resp.ImportedResources, providers.ImportedResource{
			TypeName: imported.GetTypeName(),
			State:    ic.decode("imported state", imported.GetState(), ty),
			Private:  imported.GetPrivate(),
			Identity: ic.decodeIdentity(imported.GetIdentity(), p.identityOf(ctx, imported.GetIdentity(), imported.GetTypeName())),
		})
		resp.Diagnostics = resp.Diagnostics.Append(ic.problems)
	}
	resp.Deferred = deferred(out.GetDeferred())
	resp.Diagnostics = c.result(out.GetDiagnostics()).Append(resp.Diagnostics)
	return resp
}

// MoveResourceState has the provider turn an object of another type (maybe
// of another provider) into one of its own types.
func (p *Provider) MoveResourceState(ctx context.Context, req providers.MoveResourceStateRequest) (resp providers.MoveResourceStateResponse) {
	const rpc = "MoveResourceState"
	_, ty, problems := p.schemaFor(ctx, "resource", req.TargetTypeName)
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	in := &tfplugin6.MoveResourceState_Request{
		SourceProviderAddress:       req.SourceProviderAddress,
		SourceTypeName:              req.SourceTypeName,
		SourceSchemaVersion:         req.SourceSchemaVersion,
		SourceState:                 &tfplugin6.RawState{Json: req.SourceStateJSON},
		TargetTypeName:              req.TargetTypeName,
		SourcePrivate:               req.SourcePrivate,
		SourceIdentitySchemaVersion: req.SourceIdentitySchemaVersion,
	}
	if req.SourceIdentityJSON != nil {
		in.SourceIdentity = &tfplugin6.RawState{Json: req.SourceIdentityJSON}
	}
	out, err := p.cfg.Client.MoveResourceState(ctx, in)
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TargetTypeName, err)
		return resp
	}
	c := p.codec(rpc, req.TargetTypeName)
	resp.TargetState = c.decode("moved state", out.GetTargetState(), ty)
	resp.TargetPrivate = out.GetTargetPrivate()
	resp.TargetIdentity = c.decodeIdentity(out.GetTargetIdentity(), p.identityOf(ctx, out.GetTargetIdentity(), req.TargetTypeName))
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}
