package jsonstate

import (
	"encoding/json"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/states"
)

// resourceObjects renders every object of every instance of res: for each
// instance in key order, its current object, then its deposed objects in
// key order.
func resourceObjects(res *states.Resource, schemas *providers.Schemas) ([]Resource, error) {
	mode := res.Addr.Resource.Mode
	typeName := res.Addr.Resource.Type
	resSchema, ok := schemas.ResourceType(res.ProviderConfig.Provider, mode == addrs.DataResourceMode, typeName)
	if !ok {
		return nil, fmt.Errorf("%s: provider %s has no schema for %s resource type %q; run \"terrane init\" so that the provider the state was written with is installed",
			res.Addr, res.ProviderConfig.Provider, ResourceMode(mode), typeName)
	}
	var identityType cty.Type = cty.NilType
	if identity, ok := schemas.Identity(res.ProviderConfig.Provider, typeName); ok {
		identityType = identity.ImpliedType()
	}
	var out []Resource
	for _, key := range res.SortedInstanceKeys() {
		inst := res.Instances[key]
		addr := res.Addr.Instance(key)
		base := Resource{
			Address:      addr.String(),
			Mode:         ResourceMode(mode),
			Type:         typeName,
			Name:         res.Addr.Resource.Name,
			ProviderName: res.ProviderConfig.Provider.String(),
		}
		index, err := InstanceIndex(key)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", addr, err)
		}
		base.Index = index
		if inst.Current != nil {
			obj, err := objectResource(base, inst.Current, resSchema, identityType)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", addr, err)
			}
			out = append(out, obj)
		}
		for _, deposed := range inst.SortedDeposedKeys() {
			obj, err := objectResource(base, inst.Deposed[deposed], resSchema, identityType)
			if err != nil {
				return nil, fmt.Errorf("%s (deposed object %s): %w", addr, deposed, err)
			}
			obj.DeposedKey = string(deposed)
			out = append(out, obj)
		}
	}
	return out, nil
}

// objectResource fills base with one stored object's values.
func objectResource(base Resource, src *states.ResourceInstanceObjectSrc, resSchema schema.Schema, identityType cty.Type) (Resource, error) {
	if src.SchemaVersion != uint64(resSchema.Version) {
		return base, fmt.Errorf("the object was stored with schema version %d of its resource type, but the provider is at version %d; run \"terrane refresh\" so that the provider upgrades it",
			src.SchemaVersion, resSchema.Version)
	}
	if len(src.IdentityJSON) == 0 {
		identityType = cty.NilType
	}
	obj, err := src.Decode(resSchema.Block.ImpliedType(), identityType)
	if err != nil {
		return base, err
	}
	val := obj.Value
	// The schema's sensitive attributes are sensitive even where the stored
	// paths do not say so (the object may predate the schema change).
	if paths := resSchema.Block.SensitivePaths(val); len(paths) > 0 {
		val = MarkSensitivePaths(val, paths)
	}
	base.SchemaVersion = src.SchemaVersion
	if base.AttributeValues, err = NewAttributeValues(val); err != nil {
		return base, err
	}
	if base.SensitiveValues, err = MarshalSensitiveAsBool(val); err != nil {
		return base, err
	}
	for _, dep := range obj.Dependencies {
		base.DependsOn = append(base.DependsOn, dep.String())
	}
	base.Tainted = obj.Status == states.ObjectTainted
	if len(src.IdentityJSON) > 0 {
		base.Identity = json.RawMessage(src.IdentityJSON)
		version := src.IdentitySchemaVersion
		base.IdentitySchemaVersion = &version
	}
	return base, nil
}
