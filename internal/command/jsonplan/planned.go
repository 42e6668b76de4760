package jsonplan

import (
	"fmt"
	"github.com/zclconf/go-cty/cty"
	"sort"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/jsonstate"
	"github.com/terrane/terrane/internal/plans"
)

// plannedValues renders what every resource instance and output will be
// after apply: every change's after value except deletions.
func (r renderer) plannedValues(changes plans.Changes) (PlannedValues, error) {
	var out PlannedValues
	var err error
	if out.Outputs, err = plannedOutputs(changes.Outputs); err != nil {
		return out, err
	}
	byModule := map[string][]jsonstate.Resource{}
	var modules []addrs.ModuleInstance
	for _, src := range changes.Resources {
		if src.Action == plans.Delete || src.DeposedKey != addrs.NotDeposed {
			continue
		}
		resource, err := r.plannedResource(src)
		if err != nil {
			return out, err
		}
		key := src.Addr.Module.String()
		if _, seen := byModule[key]; !seen {
			modules = append(modules, src.Addr.Module)
		}
		byModule[key] = append(byModule[key], resource)
	}
	for _, resources := range byModule {
		sort.SliceStable(resources, func(i, j int) bool { return resources[i].Address < resources[j].Address })
	}
	out.RootModule = jsonstate.BuildModuleTree(modules, byModule)
	return out, nil
}

func (r renderer) plannedResource(src *plans.ResourceInstanceChangeSrc) (jsonstate.Resource, error) {
	change, resSchema, err := r.decode(src)
	if err != nil {
		return jsonstate.Resource{}, err
	}
	addr := src.Addr
	out := jsonstate.Resource{
		Address:       addr.String(),
		Mode:          jsonstate.ResourceMode(addr.Resource.Resource.Mode),
		Type:          addr.Resource.Resource.Type,
		Name:          addr.Resource.Resource.Name,
		ProviderName:  src.ProviderAddr.Config.Provider.String(),
		SchemaVersion: uint64(resSchema.Version),
	}
	if out.Index, err = jsonstate.InstanceIndex(addr.Resource.Key); err != nil {
		return out, fmt.Errorf("%s: %w", addr, err)
	}
	if out.AttributeValues, err = jsonstate.NewAttributeValues(change.After); err != nil {
		return out, fmt.Errorf("%s: planned value: %w", addr, err)
	}
	if out.SensitiveValues, err = jsonstate.MarshalSensitiveAsBool(change.After); err != nil {
		return out, fmt.Errorf("%s: %w", addr, err)
	}
	if id := change.AfterIdentity; id != cty.NilVal && !id.IsNull() {
		// As OpenTofu lists it: the identity the object will have, with
		// its schema's version.
		if out.Identity, err = marshalIdentity(id); err != nil {
			return out, fmt.Errorf("%s: identity: %w", addr, err)
		}
		identity, _ := r.schemas.Identity(src.ProviderAddr.Config.Provider, addr.Resource.Resource.Type)
		version := uint64(identity.Version)
		out.IdentitySchemaVersion = &version
	}
	return out, nil
}
