package journal

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/states"
)

// ProviderReader is an ObjectReader over running, configured providers:
// it upgrades a stored object to the provider's current schema when needed,
// reads it with ReadResource and encodes the answer for the record.
type ProviderReader struct {
	// Providers are configured provider instances by provider configuration
	// address string (addrs.AbsProviderConfig.String()).
	Providers map[string]providers.Interface
	// Schemas are the schemas of those providers.
	Schemas *providers.Schemas
}

// ResourceSchema implements ObjectReader.
func (pr *ProviderReader) ResourceSchema(provider addrs.Provider, typeName string) *schema.Block {
	if pr.Schemas == nil {
		return nil
	}
	resp, ok := pr.Schemas.Providers[provider]
	if !ok {
		return nil
	}
	return resp.ResourceTypes[typeName].Block
}

// ReadObject implements ObjectReader.
func (pr *ProviderReader) ReadObject(ctx context.Context, addr addrs.AbsResourceInstance, providerConfig addrs.AbsProviderConfig, obj *states.ResourceInstanceObjectSrc) (*states.ResourceInstanceObjectSrc, diags.Diagnostics) {
	typeName := addr.Resource.Resource.Type
	provider, ok := pr.Providers[providerConfig.String()]
	if !ok {
		return nil, diags.Diagnostics{diags.Errorf("Provider not available", "%s is not running in this run, so %s cannot be read back.", providerConfig, addr)}
	}
	resourceSchema, ok := pr.Schemas.Providers[providerConfig.Provider].ResourceTypes[typeName]
	if !ok || resourceSchema.Block == nil {
		return nil, diags.Diagnostics{diags.Errorf("Unknown resource type", "%s has no resource type %q; %s cannot be read back.", providerConfig.Provider, typeName, addr)}
	}
	valueType := resourceSchema.Block.ImpliedType()
	identityType := cty.NilType
	if identity, ok := pr.Schemas.Identity(providerConfig.Provider, typeName); ok {
		identityType = identity.ImpliedType()
	}

	var d diags.Diagnostics
	prior, upgradeDiags := upgradeObject(ctx, provider, typeName, resourceSchema, obj)
	d = d.Append(upgradeDiags)
	if d.HasErrors() {
		return nil, d
	}
	decoded, err := prior.Decode(valueType, identityType)
	if err != nil {
		return nil, d.Append(diags.Errorf("Stored object cannot be decoded", "The stored object of %s does not match the schema of %s: %s.", addr, typeName, err))
	}
	priorValue, _ := decoded.Value.UnmarkDeep()
	req := providers.ReadResourceRequest{TypeName: typeName, PriorState: priorValue, Private: decoded.Private, ProviderMeta: cty.NullVal(cty.DynamicPseudoType)}
	if identityType != cty.NilType {
		req.CurrentIdentity = decoded.Identity
	}
	resp := provider.ReadResource(ctx, req)
	d = d.Append(resp.Diagnostics.WithAddress(addr.String()))
	if d.HasErrors() {
		return nil, d
	}
	if resp.NewState == cty.NilVal || resp.NewState.IsNull() {
		return nil, d // the provider says the object is gone
	}
	return encodeRead(addr, resp, decoded, resourceSchema, d)
}

// encodeRead records what ReadResource answered in place of prior, keeping
// what the provider does not report (status, dependencies, lifecycle).
func encodeRead(addr addrs.AbsResourceInstance, resp providers.ReadResourceResponse, prior *states.ResourceInstanceObject, resourceSchema schema.Schema, d diags.Diagnostics) (*states.ResourceInstanceObjectSrc, diags.Diagnostics) {
	if !resp.NewState.IsWhollyKnown() {
		return nil, d.Append(diags.Errorf("Provider returned an unknown value", "Reading %s back returned unknown values; a read must return the object as it is. This is a bug in the provider.", addr))
	}
	// What the schema declares sensitive, and what was sensitive before
	// (a value the configuration marked), stays sensitive in the record.
	sensitive := append(resourceSchema.Block.SensitivePaths(resp.NewState), resp.SensitivePaths...)
	_, priorMarks := prior.Value.UnmarkDeepWithPaths()
	for _, pvm := range priorMarks {
		if _, ok := pvm.Marks[marks.Sensitive]; ok {
			sensitive = append(sensitive, pvm.Path)
		}
	}
	newValue := markSensitive(resp.NewState, sensitive)
	next := *prior
	next.Value = newValue
	next.Private = resp.Private
	if resp.NewIdentity != cty.NilVal && !resp.NewIdentity.IsNull() {
		next.Identity = resp.NewIdentity
	}
	src, err := next.Encode(resourceSchema.Block.ImpliedType(), uint64(resourceSchema.Version))
	if err != nil {
		return nil, d.Append(diags.Errorf("Read object cannot be recorded", "The object read back for %s cannot be stored: %s.", addr, err))
	}
	return src, d
}

// upgradeObject brings a stored object to the resource type's current
// schema version through the provider, which alone knows older layouts.
func upgradeObject(ctx context.Context, provider providers.Interface, typeName string, resourceSchema schema.Schema, obj *states.ResourceInstanceObjectSrc) (*states.ResourceInstanceObjectSrc, diags.Diagnostics) {
	if obj.SchemaVersion == uint64(resourceSchema.Version) && obj.AttrsFlat == nil {
		return obj, nil
	}
	resp := provider.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{
		TypeName: typeName, Version: int64(obj.SchemaVersion), RawStateJSON: obj.AttrsJSON, RawStateFlatmap: obj.AttrsFlat,
	})
	if resp.Diagnostics.HasErrors() {
		return nil, resp.Diagnostics
	}
	upgraded := &states.ResourceInstanceObject{Value: resp.UpgradedState, Private: obj.Private, Status: obj.Status}
	src, err := upgraded.Encode(resourceSchema.Block.ImpliedType(), uint64(resourceSchema.Version))
	if err != nil {
		return nil, resp.Diagnostics.Append(fmt.Errorf("the upgraded object of type %s cannot be encoded: %w", typeName, err))
	}
	next := obj.DeepCopy()
	next.SchemaVersion, next.AttrsJSON, next.AttrsMsgpack, next.AttrsFlat = src.SchemaVersion, src.AttrsJSON, nil, nil
	return next, resp.Diagnostics
}

// markSensitive marks the values at paths sensitive, skipping paths the
// value does not have (an element the provider no longer reports).
func markSensitive(val cty.Value, paths []cty.Path) cty.Value {
	var pvm []cty.PathValueMarks
	for _, path := range paths {
		if _, err := path.Apply(val); err == nil {
			pvm = append(pvm, cty.PathValueMarks{Path: path, Marks: cty.NewValueMarks(marks.Sensitive)})
		}
	}
	return val.MarkWithPaths(pvm)
}
