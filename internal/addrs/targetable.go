package addrs

// Targetable is an address a -target or -exclude option may name: a module
// instance, a resource or a resource instance.
type Targetable interface {
	String() string
	// TargetContains reports whether other is this address or lies
	// within it.
	TargetContains(other Targetable) bool
}

// TargetContains reports whether other is in module instance m or below;
// m's last step without a key stands for every instance of its call.
func (m ModuleInstance) TargetContains(other Targetable) bool {
	var inner ModuleInstance
	switch o := other.(type) {
	case ModuleInstance:
		inner = o
	case AbsResource:
		inner = o.Module
	case AbsResourceInstance:
		inner = o.Module
	default:
		return false
	}
	if len(inner) < len(m) {
		return false
	}
	for i, step := range m {
		if step.Name != inner[i].Name {
			return false
		}
		// A last step without a key names the whole call, as OpenTofu
		// reads it: -target=module.m takes every instance of module.m.
		if i == len(m)-1 && step.Key == NoKey {
			return true
		}
		if !sameKey(step.Key, inner[i].Key) {
			return false
		}
	}
	return true
}

// TargetContains reports whether other is r or one of its instances.
func (r AbsResource) TargetContains(other Targetable) bool {
	switch o := other.(type) {
	case AbsResource:
		return r.String() == o.String()
	case AbsResourceInstance:
		return r.String() == o.ContainingResource().String()
	}
	return false
}

// TargetContains reports whether other is r, or r's resource when r has
// no instance key.
func (r AbsResourceInstance) TargetContains(other Targetable) bool {
	switch o := other.(type) {
	case AbsResource:
		return r.Resource.Key == NoKey && r.ContainingResource().String() == o.String()
	case AbsResourceInstance:
		return r.String() == o.String()
	}
	return false
}

func sameKey(a, b InstanceKey) bool {
	if a == NoKey || b == NoKey {
		return a == b
	}
	return a.UniqueKey() == b.UniqueKey()
}
