package stateedit

import (
	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
)

// TargetKind says what an address given to a state command names.
type TargetKind int

const (
	// TargetModule is a module instance and everything below it.
	TargetModule TargetKind = iota + 1
	// TargetResource is every instance of one resource.
	TargetResource
	// TargetInstance is one resource instance.
	TargetInstance
)

// Target is an address given to a state command: a module instance
// (module.a["x"]), a resource (module.a.aws_instance.web) or a resource
// instance (aws_instance.web[0]).
type Target struct {
	Kind TargetKind
	// Module is the module instance; for resources and instances, the one
	// they are in.
	Module addrs.ModuleInstance
	// Instance is the resource instance for TargetInstance, and the
	// resource (with no key) for TargetResource.
	Instance addrs.ResourceInstance
}

func (t Target) String() string {
	switch t.Kind {
	case TargetModule:
		return t.Module.String()
	default:
		return addrs.AbsResourceInstance{Module: t.Module, Resource: t.Instance}.String()
	}
}

// Resource is the resource a resource or instance target names.
func (t Target) Resource() addrs.AbsResource {
	return addrs.AbsResource{Module: t.Module, Resource: t.Instance.Resource}
}

// Matches reports whether the instance at addr is selected by t. As in
// Terraform's state list, a module step given without a key selects every
// instance of that module call, and a resource given without a key selects
// every instance of it.
func (t Target) Matches(addr addrs.AbsResourceInstance) bool {
	switch t.Kind {
	case TargetModule:
		return modulePrefixMatches(t.Module, addr.Module, true)
	case TargetResource:
		return modulePrefixMatches(t.Module, addr.Module, false) && t.Instance.Resource == addr.Resource.Resource
	default:
		return t.Module.Equal(addr.Module) && t.Instance.UniqueKey() == addr.Resource.UniqueKey()
	}
}

// modulePrefixMatches reports whether inner is filter (or, with
// descendants, lies below it). Filter steps without a key match any key.
func modulePrefixMatches(filter, inner addrs.ModuleInstance, descendants bool) bool {
	if len(inner) < len(filter) || (!descendants && len(inner) != len(filter)) {
		return false
	}
	for i, step := range filter {
		if step.Name != inner[i].Name {
			return false
		}
		if step.Key != addrs.NoKey && (inner[i].Key == addrs.NoKey || step.Key.UniqueKey() != inner[i].Key.UniqueKey()) {
			return false
		}
	}
	return true
}

// Select lists the instances of state that any of targets selects, in
// state order; with no targets, every instance.
func Select(state *states.State, targets []Target) []states.ResourceInstanceEntry {
	var out []states.ResourceInstanceEntry
	for _, entry := range state.AllResourceInstances() {
		if len(targets) == 0 {
			out = append(out, entry)
			continue
		}
		for _, target := range targets {
			if target.Matches(entry.Addr) {
				out = append(out, entry)
				break
			}
		}
	}
	return out
}
