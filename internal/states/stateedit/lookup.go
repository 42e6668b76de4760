package stateedit

import (
	"sort"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states"
)

// Lookup lists the instances a target selects, ordered as OpenTofu's
// state commands order them. A target that selects nothing is an error
// naming what the state lacks, unless allowMissing.
func Lookup(state *states.State, target Target, allowMissing bool) ([]addrs.AbsResourceInstance, diags.Diagnostics) {
	var found []addrs.AbsResourceInstance
	var ds diags.Diagnostics
	switch target.Kind {
	case TargetModule:
		for _, entry := range state.AllResourceInstances() {
			if target.Matches(entry.Addr) {
				found = append(found, entry.Addr)
			}
		}
		if len(found) == 0 && !allowMissing {
			ds = ds.Append(diags.Errorf("Unknown module",
				`The current state contains no module at %s. If you've just added this module to the configuration, you must run "terrane apply" first to create the module's entry in the state.`, target))
		}
	case TargetResource:
		res := state.Resource(target.Resource())
		if res == nil {
			if !allowMissing {
				ds = ds.Append(diags.Errorf("Unknown resource",
					`The current state contains no resource %s. If you've just added this resource to the configuration, you must run "terrane apply" first to create the resource's entry in the state.`, target))
			}
			break
		}
		for key := range res.Instances {
			found = append(found, res.Addr.Instance(key))
		}
	default:
		addr := addrs.AbsResourceInstance{Module: target.Module, Resource: target.Instance}
		if state.ResourceInstance(addr) == nil {
			if !allowMissing {
				ds = ds.Append(diags.Errorf("Unknown resource instance",
					`The current state contains no resource instance %s. If you've just added its resource to the configuration or have changed the count or for_each arguments, you must run "terrane apply" first to update the resource's entry in the state.`, addr))
			}
			break
		}
		found = append(found, addr)
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Less(found[j]) })
	return found, ds
}

// LookupAll lists the instances every target selects, target by target
// (an instance two targets select is listed twice, as OpenTofu lists it).
func LookupAll(state *states.State, targets []Target, allowMissing bool) ([]addrs.AbsResourceInstance, diags.Diagnostics) {
	var found []addrs.AbsResourceInstance
	var ds diags.Diagnostics
	for _, target := range targets {
		more, moreDiags := Lookup(state, target, allowMissing)
		found = append(found, more...)
		ds = ds.Append(moreDiags)
	}
	return found, ds
}

// AllInstances lists every instance of state in OpenTofu's order.
func AllInstances(state *states.State) []addrs.AbsResourceInstance {
	var found []addrs.AbsResourceInstance
	for _, entry := range state.AllResourceInstances() {
		found = append(found, entry.Addr)
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Less(found[j]) })
	return found
}
