package refactoring

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
)

// EndpointKind is what a moved block's from or to names.
type EndpointKind int

// The kinds of endpoint. A module call stands for all its instances, a
// resource for all its instances.
const (
	ModuleCallEndpoint EndpointKind = iota + 1
	ModuleInstanceEndpoint
	ResourceEndpoint
	ResourceInstanceEndpoint
)

// Endpoint is one side of a moved block, relative to the module that
// declares the block.
type Endpoint struct {
	Kind EndpointKind
	// Module is the module path below the declaring module; for a module
	// call endpoint its last step's key is ignored.
	Module addrs.ModuleInstance
	// Resource is set for resource endpoints; for ResourceEndpoint its key
	// is ignored.
	Resource addrs.ResourceInstance
	Range    hcl.Range
}

// String prints the endpoint as the configuration writes it.
func (ep Endpoint) String() string {
	switch ep.Kind {
	case ModuleCallEndpoint:
		return callString(ep.Module)
	case ModuleInstanceEndpoint:
		return ep.Module.String()
	case ResourceEndpoint:
		return addrs.AbsResource{Module: ep.Module, Resource: ep.Resource.Resource}.String()
	}
	return addrs.AbsResourceInstance{Module: ep.Module, Resource: ep.Resource}.String()
}

func callString(mi addrs.ModuleInstance) string {
	trimmed := append(addrs.ModuleInstance{}, mi...)
	trimmed[len(trimmed)-1].Key = addrs.NoKey
	return trimmed.String()
}

// isModule reports whether the endpoint names a module call or instance.
func (ep Endpoint) isModule() bool {
	return ep.Kind == ModuleCallEndpoint || ep.Kind == ModuleInstanceEndpoint
}

// parseEndpoint reads a moved or removed block's address.
func parseEndpoint(traversal hcl.Traversal) (Endpoint, hcl.Diagnostics) {
	ep := Endpoint{Range: traversal.SourceRange()}
	_, indexed := traversal[len(traversal)-1].(hcl.TraverseIndex)
	if res, ds := addrs.ParseAbsResourceInstance(traversal); !ds.HasErrors() {
		ep.Module, ep.Resource, ep.Kind = res.Module, res.Resource, ResourceEndpoint
		if indexed {
			ep.Kind = ResourceInstanceEndpoint
		}
		if res.Resource.Resource.Mode != addrs.ManagedResourceMode {
			return ep, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Data source address is not allowed",
				Detail:  fmt.Sprintf("%s is a data source; data sources are read again on every run, so they cannot be moved or removed. Remove this address from the block.", res),
				Subject: ep.Range.Ptr()}}
		}
		return ep, nil
	}
	mi, ds := addrs.ParseModuleInstance(traversal)
	if ds.HasErrors() || len(mi) == 0 {
		return ep, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid address",
			Detail:  "A moved or removed block refers to a resource, a resource instance, a module call or a module instance, like aws_instance.web, aws_instance.web[0], module.net or module.net[\"a\"].",
			Subject: ep.Range.Ptr()}}
	}
	ep.Module, ep.Kind = mi, ModuleCallEndpoint
	if indexed {
		ep.Kind = ModuleInstanceEndpoint
	}
	return ep, nil
}

// unify makes both sides of a statement the same kind where one names a
// whole resource (or module call) without count or for_each and the other
// one instance of it: aws_instance.a moved to aws_instance.a[0] means the
// no-key instance.
func unify(from, to Endpoint) (Endpoint, Endpoint, bool) {
	switch {
	case from.Kind == to.Kind:
	case from.Kind == ResourceEndpoint && to.Kind == ResourceInstanceEndpoint:
		from.Kind, from.Resource.Key = ResourceInstanceEndpoint, addrs.NoKey
	case from.Kind == ResourceInstanceEndpoint && to.Kind == ResourceEndpoint:
		to.Kind, to.Resource.Key = ResourceInstanceEndpoint, addrs.NoKey
	case from.Kind == ModuleCallEndpoint && to.Kind == ModuleInstanceEndpoint:
		from.Kind = ModuleInstanceEndpoint
		from.Module = withLastKey(from.Module, addrs.NoKey)
	case from.Kind == ModuleInstanceEndpoint && to.Kind == ModuleCallEndpoint:
		to.Kind = ModuleInstanceEndpoint
		to.Module = withLastKey(to.Module, addrs.NoKey)
	default:
		return from, to, false
	}
	return from, to, true
}

func withLastKey(mi addrs.ModuleInstance, key addrs.InstanceKey) addrs.ModuleInstance {
	out := append(addrs.ModuleInstance{}, mi...)
	out[len(out)-1].Key = key
	return out
}
