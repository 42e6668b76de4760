package engine

import (
	"context"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
)

// moveAcrossTypes converts an object a moved block brought from another
// resource type into the new type through the new type's provider
// (MoveResourceState, protocol 5.5/6.5); only the provider knows how the
// attributes correspond.
func (w *walker) moveAcrossTypes(work *resourceWork, addr addrs.AbsResourceInstance, inst *states.ResourceInstance, from addrs.AbsResourceInstance) (*states.ResourceInstance, diags.Diagnostics) {
	src := inst.Current
	sourceProvider, _ := w.prior.ResourceProvider(addr.ContainingResource())
	req := providers.MoveResourceStateRequest{
		SourceProviderAddress: sourceProvider.Provider.String(), SourceTypeName: from.Resource.Resource.Type,
		SourceSchemaVersion: int64(src.SchemaVersion), SourceStateJSON: src.AttrsJSON, SourcePrivate: src.Private,
		SourceIdentityJSON: src.IdentityJSON, SourceIdentitySchemaVersion: int64(src.IdentitySchemaVersion),
		TargetTypeName: addr.Resource.Resource.Type,
	}
	var resp providers.MoveResourceStateResponse
	if err := w.providerCall(func(ctx context.Context) { resp = work.provider.iface.MoveResourceState(ctx, req) }); err != nil {
		return nil, diags.Diagnostics{}.Append(err)
	}
	ds := resp.Diagnostics
	if ds.HasErrors() {
		// The provider's own diagnostics say why, as in OpenTofu.
		return nil, ds
	}
	if resp.TargetState == cty.NilVal || resp.TargetState.IsNull() {
		return nil, ds.Append(diags.Errorf("Provider produced an invalid move",
			"Provider %s returned no object when moving %s to %s. This is a bug in the provider; report it to its developers.", addrs.ProviderForDisplay(work.provider.addr.Provider), from, addr))
	}
	identity := resp.TargetIdentity
	if work.types.Identity == cty.NilType {
		identity = cty.NilVal
	}
	obj := &states.ResourceInstanceObject{Value: resp.TargetState, Private: resp.TargetPrivate, Identity: identity, Status: src.Status,
		Dependencies: src.Dependencies, CreateBeforeDestroy: src.CreateBeforeDestroy}
	moved, err := work.encode(obj)
	if err != nil {
		return nil, ds.Append(diags.Errorf("Cannot move to another resource type", "The object moved to %s could not be encoded: %s", addr, err))
	}
	out := &states.ResourceInstance{Current: moved, Deposed: inst.Deposed}
	return out, ds
}
