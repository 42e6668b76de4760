package states

import (
	"cmp"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// State is everything Terrane knows about one workspace's remote objects:
// resource instances grouped by module instance and resource, the root
// module's outputs and the results of the last run's checks. A State is
// not safe for concurrent use; wrap it in a SyncState for a walk.
type State struct {
	// Modules holds every module instance that has resources, keyed by the
	// module instance address string ("" for the root module).
	Modules map[string]*Module
	// Outputs are the root module's output values, by name.
	Outputs map[string]*OutputValue
	// CheckResultsJSON is the check results of the last run as a state v4
	// check_results array, or nil when none were recorded.
	CheckResultsJSON []byte
}

// Module is the resources of one module instance.
type Module struct {
	Addr addrs.ModuleInstance
	// Resources are keyed by the resource address within the module, e.g.
	// "null_resource.n" or "data.http.x".
	Resources map[string]*Resource
}

// EachMode records how a resource's instances were keyed, as old state v4
// files do in "each". Newer files leave it out; the instance keys say it.
type EachMode string

const (
	// EachUnrecorded is a resource whose each mode was not recorded.
	EachUnrecorded EachMode = ""
	// EachList is a resource with count: integer keys.
	EachList EachMode = "list"
	// EachMap is a resource with for_each: string keys.
	EachMap EachMode = "map"
)

// Resource is all instances of one resource in one module instance, with
// the provider configuration that manages them.
type Resource struct {
	Addr           addrs.AbsResource
	ProviderConfig addrs.AbsProviderConfig
	EachMode       EachMode
	// Instances are keyed by instance key; addrs.NoKey (nil) for a resource
	// without count or for_each.
	Instances map[addrs.InstanceKey]*ResourceInstance
}

// ResourceInstance is one resource instance: its current object, objects
// deposed by create_before_destroy that are not yet destroyed, and the
// intent of a provider call in flight.
type ResourceInstance struct {
	Current *ResourceInstanceObjectSrc
	Deposed map[addrs.DeposedKey]*ResourceInstanceObjectSrc
	Intent  *Intent
	// ProviderKey is the instance of the resource's provider configuration
	// (one with for_each) that manages the instance; addrs.NoKey for a
	// configuration without instances.
	ProviderKey addrs.InstanceKey
}

// OutputValue is a root module output. Value is unmarked; Sensitive says
// whether it must be redacted.
type OutputValue struct {
	Value     cty.Value
	Sensitive bool
}

// NewState returns an empty state.
func NewState() *State {
	return &State{Modules: map[string]*Module{}, Outputs: map[string]*OutputValue{}}
}

// Module returns the module instance at addr, or nil.
func (s *State) Module(addr addrs.ModuleInstance) *Module {
	return s.Modules[addr.String()]
}

// EnsureModule returns the module instance at addr, adding it if needed.
func (s *State) EnsureModule(addr addrs.ModuleInstance) *Module {
	key := addr.String()
	if mod, ok := s.Modules[key]; ok {
		return mod
	}
	mod := &Module{Addr: addr, Resources: map[string]*Resource{}}
	s.Modules[key] = mod
	return mod
}

// Resource returns the resource at addr, or nil.
func (s *State) Resource(addr addrs.AbsResource) *Resource {
	mod := s.Module(addr.Module)
	if mod == nil {
		return nil
	}
	return mod.Resources[addr.Resource.String()]
}

// ResourceInstance returns the instance at addr, or nil.
func (s *State) ResourceInstance(addr addrs.AbsResourceInstance) *ResourceInstance {
	res := s.Resource(addr.ContainingResource())
	if res == nil {
		return nil
	}
	return res.Instances[addr.Resource.Key]
}

// EnsureResource returns the resource at addr, adding it if needed, and
// sets its provider configuration.
func (s *State) EnsureResource(addr addrs.AbsResource, provider addrs.AbsProviderConfig) *Resource {
	mod := s.EnsureModule(addr.Module)
	key := addr.Resource.String()
	res, ok := mod.Resources[key]
	if !ok {
		res = &Resource{Addr: addr, Instances: map[addrs.InstanceKey]*ResourceInstance{}}
		mod.Resources[key] = res
	}
	res.ProviderConfig = provider
	return res
}

// SetResourceInstance replaces the whole instance at addr. A nil or empty
// instance removes it, and with it its resource and module once empty.
func (s *State) SetResourceInstance(addr addrs.AbsResourceInstance, inst *ResourceInstance, provider addrs.AbsProviderConfig) {
	if inst.IsEmpty() {
		s.RemoveResourceInstance(addr)
		return
	}
	s.EnsureResource(addr.ContainingResource(), provider).Instances[addr.Resource.Key] = inst
}

// ensureInstance returns the instance at addr, adding it if needed.
func (s *State) ensureInstance(addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig) *ResourceInstance {
	res := s.EnsureResource(addr.ContainingResource(), provider)
	inst, ok := res.Instances[addr.Resource.Key]
	if !ok {
		inst = &ResourceInstance{}
		res.Instances[addr.Resource.Key] = inst
	}
	return inst
}

// SetResourceInstanceCurrent sets (or, with nil, removes) the current
// object of the instance at addr.
func (s *State) SetResourceInstanceCurrent(addr addrs.AbsResourceInstance, obj *ResourceInstanceObjectSrc, provider addrs.AbsProviderConfig) {
	s.ensureInstance(addr, provider).Current = obj
	s.pruneInstance(addr)
}

// SetResourceInstanceProviderKey records which instance of its provider
// configuration manages the instance at addr, if it is in the state.
func (s *State) SetResourceInstanceProviderKey(addr addrs.AbsResourceInstance, key addrs.InstanceKey) {
	if inst := s.ResourceInstance(addr); inst != nil {
		inst.ProviderKey = key
	}
}

// SetResourceInstanceDeposed sets (or, with nil, removes) a deposed object
// of the instance at addr.
func (s *State) SetResourceInstanceDeposed(addr addrs.AbsResourceInstance, key addrs.DeposedKey, obj *ResourceInstanceObjectSrc, provider addrs.AbsProviderConfig) {
	inst := s.ensureInstance(addr, provider)
	if obj == nil {
		delete(inst.Deposed, key)
	} else {
		if inst.Deposed == nil {
			inst.Deposed = map[addrs.DeposedKey]*ResourceInstanceObjectSrc{}
		}
		inst.Deposed[key] = obj
	}
	s.pruneInstance(addr)
}

// DeposeResourceInstanceObject moves the current object of the instance at
// addr to a new deposed key and returns the key, or addrs.NotDeposed when
// there is no current object.
func (s *State) DeposeResourceInstanceObject(addr addrs.AbsResourceInstance) addrs.DeposedKey {
	inst := s.ResourceInstance(addr)
	if inst == nil || inst.Current == nil {
		return addrs.NotDeposed
	}
	key := addrs.NewDeposedKey()
	for inst.Deposed[key] != nil {
		key = addrs.NewDeposedKey()
	}
	if inst.Deposed == nil {
		inst.Deposed = map[addrs.DeposedKey]*ResourceInstanceObjectSrc{}
	}
	inst.Deposed[key] = inst.Current
	inst.Current = nil
	return key
}

// RemoveResourceInstance removes the instance at addr, and its resource and
// module when they become empty.
func (s *State) RemoveResourceInstance(addr addrs.AbsResourceInstance) {
	res := s.Resource(addr.ContainingResource())
	if res == nil {
		return
	}
	delete(res.Instances, addr.Resource.Key)
	s.pruneResource(addr.ContainingResource())
}

func (s *State) pruneInstance(addr addrs.AbsResourceInstance) {
	if s.ResourceInstance(addr).IsEmpty() {
		s.RemoveResourceInstance(addr)
	}
}

func (s *State) pruneResource(addr addrs.AbsResource) {
	mod := s.Module(addr.Module)
	if res := mod.Resources[addr.Resource.String()]; res != nil && len(res.Instances) == 0 {
		delete(mod.Resources, addr.Resource.String())
	}
	if len(mod.Resources) == 0 && !addr.Module.IsRoot() {
		delete(s.Modules, addr.Module.String())
	}
}

// IsEmpty reports whether inst has no object and no open intent.
func (inst *ResourceInstance) IsEmpty() bool {
	return inst == nil || (inst.Current == nil && len(inst.Deposed) == 0 && inst.Intent == nil)
}

// DeepCopy returns a copy of inst that shares no mutable memory with it.
func (inst *ResourceInstance) DeepCopy() *ResourceInstance {
	if inst == nil {
		return nil
	}
	out := &ResourceInstance{Current: inst.Current.DeepCopy(), Intent: inst.Intent.DeepCopy(), ProviderKey: inst.ProviderKey}
	if inst.Deposed != nil {
		out.Deposed = make(map[addrs.DeposedKey]*ResourceInstanceObjectSrc, len(inst.Deposed))
		for key, obj := range inst.Deposed {
			out.Deposed[key] = obj.DeepCopy()
		}
	}
	return out
}

// SortedDeposedKeys returns the instance's deposed keys in order.
func (inst *ResourceInstance) SortedDeposedKeys() []addrs.DeposedKey {
	keys := make([]addrs.DeposedKey, 0, len(inst.Deposed))
	for key := range inst.Deposed {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return keys
}

// SortedInstanceKeys returns the resource's instance keys in the order
// state files list them: no key first, then integer keys in numeric order,
// then string keys in lexical order.
func (res *Resource) SortedInstanceKeys() []addrs.InstanceKey {
	keys := make([]addrs.InstanceKey, 0, len(res.Instances))
	for key := range res.Instances {
		keys = append(keys, key)
	}
	slices.SortFunc(keys, addrs.CompareInstanceKeys)
	return keys
}

// ResourceInstanceEntry is one instance of a state with its address and
// provider configuration, as AllResourceInstances lists them.
type ResourceInstanceEntry struct {
	Addr           addrs.AbsResourceInstance
	ProviderConfig addrs.AbsProviderConfig
	EachMode       EachMode
	Instance       *ResourceInstance
}

// AllResourceInstances lists every instance, ordered by module instance,
// then mode, type and name, then instance key, as state files order them.
func (s *State) AllResourceInstances() []ResourceInstanceEntry {
	var out []ResourceInstanceEntry
	for _, res := range s.SortedResources() {
		for _, key := range res.SortedInstanceKeys() {
			out = append(out, ResourceInstanceEntry{
				Addr: res.Addr.Instance(key), ProviderConfig: res.ProviderConfig,
				EachMode: res.EachMode, Instance: res.Instances[key],
			})
		}
	}
	return out
}

// SortedResources lists every resource, ordered by module instance address
// string, then mode ("data" before "managed"), type and name.
func (s *State) SortedResources() []*Resource {
	var out []*Resource
	for _, mod := range s.Modules {
		for _, res := range mod.Resources {
			out = append(out, res)
		}
	}
	slices.SortFunc(out, func(a, b *Resource) int {
		return cmp.Or(
			cmp.Compare(a.Addr.Module.String(), b.Addr.Module.String()),
			cmp.Compare(modeName(a.Addr.Resource.Mode), modeName(b.Addr.Resource.Mode)),
			cmp.Compare(a.Addr.Resource.Type, b.Addr.Resource.Type),
			cmp.Compare(a.Addr.Resource.Name, b.Addr.Resource.Name),
		)
	})
	return out
}

func modeName(mode addrs.ResourceMode) string {
	if mode == addrs.DataResourceMode {
		return "data"
	}
	return "managed"
}

// DeepCopy returns a copy of s that shares no mutable memory with it.
func (s *State) DeepCopy() *State {
	out := NewState()
	for _, res := range s.SortedResources() {
		copied := out.EnsureResource(res.Addr, res.ProviderConfig)
		copied.EachMode = res.EachMode
		for key, inst := range res.Instances {
			copied.Instances[key] = inst.DeepCopy()
		}
	}
	for key, mod := range s.Modules {
		if _, ok := out.Modules[key]; !ok {
			out.EnsureModule(mod.Addr)
		}
	}
	for name, output := range s.Outputs {
		copied := *output
		out.Outputs[name] = &copied
	}
	out.CheckResultsJSON = slices.Clone(s.CheckResultsJSON)
	return out
}
