package command

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
)

// refreshedPriorState turns the records a plan read into the state the
// plan was made from, as Terraform's "prior_state" shows it: refreshed,
// with moved objects at their new addresses, imported objects present, and
// the root outputs as refreshing left them, and without the data sources
// the plan reads at apply time. Each change's before value is the
// refreshed object (or the imported one), so it replaces the stored one;
// what the records alone know (private data, dependencies, status) stays.
func refreshedPriorState(records *states.State, plan *plans.Plan, schemas *providers.Schemas) (*states.State, error) {
	state := records.DeepCopy()
	for _, src := range plan.DriftedResources {
		// What refreshing found, at the address moved blocks gave it: a
		// refresh-only plan has no changes to say it otherwise.
		if src.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		if src.Moved() && src.DeposedKey == addrs.NotDeposed {
			moveInstance(state, src.PrevRunAddr, src.Addr, src.ProviderAddr.Config)
		}
		if err := setRefreshedObject(state, src, schemas, true); err != nil {
			return nil, fmt.Errorf("%s: %w", src.ObjectName(), err)
		}
	}
	for _, src := range plan.Changes.Resources {
		if src.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			if src.Action == plans.Read {
				// Read again at apply: as in Terraform, the result
				// recorded before is not part of the refreshed state.
				state.RemoveResourceInstance(src.Addr)
			}
			continue
		}
		if src.Moved() && src.DeposedKey == addrs.NotDeposed {
			moveInstance(state, src.PrevRunAddr, src.Addr, src.ProviderAddr.Config)
		}
		if err := setRefreshedObject(state, src, schemas, false); err != nil {
			return nil, fmt.Errorf("%s: %w", src.ObjectName(), err)
		}
	}
	for _, src := range plan.Changes.Outputs {
		if !src.Addr.Module.IsRoot() {
			continue
		}
		change, err := src.Decode()
		if err != nil {
			return nil, err
		}
		if val, ok := priorOutputValue(change, plan.UIMode); ok {
			state.Outputs[src.Addr.OutputValue.Name] = &states.OutputValue{Value: val, Sensitive: src.Sensitive}
		}
	}
	return state, nil
}

// priorOutputValue is an output's value in the prior state. Terraform
// evaluates root outputs again while refreshing, so its prior state holds
// the planned value where that is known, and the previous one otherwise; a
// new output whose value is not yet known is absent.
func priorOutputValue(change *plans.OutputChange, mode plans.Mode) (cty.Value, bool) {
	for _, val := range []cty.Value{change.After, change.Before} {
		val, _ = val.UnmarkDeep()
		// A destroy plan's outputs were refreshed before it removes them.
		kept := change.Action != plans.Delete || mode == plans.DestroyMode
		if kept && val != cty.NilVal && !val.IsNull() && val.IsWhollyKnown() {
			return val, true
		}
	}
	return cty.NilVal, false
}

// moveInstance moves every object of the instance at from to to.
func moveInstance(state *states.State, from, to addrs.AbsResourceInstance, provider addrs.AbsProviderConfig) {
	inst := state.ResourceInstance(from)
	if inst == nil {
		return
	}
	state.RemoveResourceInstance(from)
	state.SetResourceInstance(to, inst, provider)
}

// setRefreshedObject stores a change's before value (or, for drift, its
// after value: what refreshing found) as the object it changes; a change
// with no such value (a create, an object found gone) leaves the state
// alone.
func setRefreshedObject(state *states.State, src *plans.ResourceInstanceChangeSrc, schemas *providers.Schemas, drift bool) error {
	resource := src.Addr.Resource.Resource
	provider := src.ProviderAddr.Config.Provider
	resSchema, ok := schemas.ResourceType(provider, false, resource.Type)
	if !ok {
		return nil // the JSON renderer names the missing schema
	}
	types := plans.ObjectTypes{Value: resSchema.Block.ImpliedType(), Identity: cty.NilType}
	if identity, ok := schemas.Identity(provider, resource.Type); ok {
		types.Identity = identity.ImpliedType()
	}
	change, err := src.Decode(types)
	if err != nil {
		return err
	}
	val, identity := change.Before, change.BeforeIdentity
	if drift {
		val, identity = change.After, change.AfterIdentity
	}
	if val == cty.NilVal || val.IsNull() || !val.IsWhollyKnown() {
		if drift && change.Action == plans.Delete && src.DeposedKey == addrs.NotDeposed {
			state.RemoveResourceInstance(src.Addr)
		}
		return nil
	}
	obj := &states.ResourceInstanceObject{Value: val, Identity: identity, Status: states.ObjectReady}
	if stored := storedObject(state, src); stored != nil {
		obj.Private, obj.Status, obj.Dependencies = stored.Private, stored.Status, stored.Dependencies
		obj.CreateBeforeDestroy, obj.IdentitySchemaVersion, obj.Pulumi = stored.CreateBeforeDestroy, stored.IdentitySchemaVersion, stored.Pulumi
	}
	if obj.Identity == cty.NilVal {
		obj.Identity = cty.NullVal(cty.DynamicPseudoType)
	}
	encoded, err := obj.Encode(types.Value, uint64(resSchema.Version))
	if err != nil {
		return err
	}
	if src.DeposedKey != addrs.NotDeposed {
		state.SetResourceInstanceDeposed(src.Addr, src.DeposedKey, encoded, src.ProviderAddr.Config)
	} else {
		state.SetResourceInstanceCurrent(src.Addr, encoded, src.ProviderAddr.Config)
	}
	return nil
}

// storedObject is the recorded object a change is to, if there is one.
func storedObject(state *states.State, src *plans.ResourceInstanceChangeSrc) *states.ResourceInstanceObjectSrc {
	inst := state.ResourceInstance(src.Addr)
	if inst == nil {
		return nil
	}
	if src.DeposedKey != addrs.NotDeposed {
		return inst.Deposed[src.DeposedKey]
	}
	return inst.Current
}
