package addrs

import "cmp"

// The orderings below are the ones OpenTofu lists addresses in (its addrs
// package's Less methods): plan text, resource_changes and the other plan
// and state documents sort by them, so a root module's resources come
// before any module's, data sources before managed resources of the same
// module, and count instances in numeric order ([2] before [10]).

// InstanceKeyLess orders instance keys: no key first, then integer keys
// numerically, then string keys lexically.
func InstanceKeyLess(a, b InstanceKey) bool { return CompareInstanceKeys(a, b) < 0 }

// CompareInstanceKeys is InstanceKeyLess's order as a comparison, for
// slices.SortFunc: negative, zero or positive.
func CompareInstanceKeys(a, b InstanceKey) int {
	rank := func(k InstanceKey) int {
		switch k.(type) {
		case IntKey:
			return 1
		case StringKey:
			return 2
		}
		return 0
	}
	if c := cmp.Compare(rank(a), rank(b)); c != 0 {
		return c
	}
	switch a := a.(type) {
	case IntKey:
		return cmp.Compare(a, b.(IntKey))
	case StringKey:
		return cmp.Compare(a, b.(StringKey))
	}
	return 0
}

// Less orders module instances: shorter paths first, then step by step by
// call name and instance key.
func (m ModuleInstance) Less(other ModuleInstance) bool {
	if len(m) != len(other) {
		return len(m) < len(other)
	}
	for i := range m {
		switch {
		case m[i].Name != other[i].Name:
			return m[i].Name < other[i].Name
		case m[i].Key != other[i].Key:
			return InstanceKeyLess(m[i].Key, other[i].Key)
		}
	}
	return false
}

// Less orders resources: data sources first, then by type and name.
func (r Resource) Less(other Resource) bool {
	switch {
	case r.Mode != other.Mode:
		return r.Mode == DataResourceMode
	case r.Type != other.Type:
		return r.Type < other.Type
	default:
		return r.Name < other.Name
	}
}

// Less orders resource instances by resource, then by key.
func (r ResourceInstance) Less(other ResourceInstance) bool {
	if r.Resource != other.Resource {
		return r.Resource.Less(other.Resource)
	}
	return InstanceKeyLess(r.Key, other.Key)
}

// Less orders absolute resource instances by module instance, then by
// resource instance.
func (r AbsResourceInstance) Less(other AbsResourceInstance) bool {
	if !r.Module.Equal(other.Module) {
		return r.Module.Less(other.Module)
	}
	return r.Resource.Less(other.Resource)
}

// Equal reports whether r and other address the same resource instance.
func (r AbsResourceInstance) Equal(other AbsResourceInstance) bool {
	return r.Module.Equal(other.Module) && r.Resource == other.Resource
}
