package states

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// SyncState wraps a State for the engine's parallel walk: every method
// locks, reads hand out deep copies, and every instance a method changes is
// remembered until TakeChanged, so the engine commits exactly the records
// that changed (docs/architecture.md, "Writes are batched").
type SyncState struct {
	mu      sync.RWMutex
	state   *State
	changed map[string]addrs.AbsResourceInstance
}

// NewSyncState wraps state, which the caller must no longer use directly
// until Close.
func NewSyncState(state *State) *SyncState {
	return &SyncState{state: state, changed: map[string]addrs.AbsResourceInstance{}}
}

// ResourceInstance returns a copy of the instance at addr, or nil.
func (s *SyncState) ResourceInstance(addr addrs.AbsResourceInstance) *ResourceInstance {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state.ResourceInstance(addr).DeepCopy()
}

// ResourceProvider returns the provider configuration of the resource at
// addr, and whether the resource is in the state.
func (s *SyncState) ResourceProvider(addr addrs.AbsResource) (addrs.AbsProviderConfig, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	res := s.state.Resource(addr)
	if res == nil {
		return addrs.AbsProviderConfig{}, false
	}
	return res.ProviderConfig, true
}

// ResourceInstanceAddrs lists the addresses of every instance in state order.
func (s *SyncState) ResourceInstanceAddrs() []addrs.AbsResourceInstance {
	s.mu.RLock()
	defer s.mu.RUnlock()
	entries := s.state.AllResourceInstances()
	out := make([]addrs.AbsResourceInstance, len(entries))
	for i, entry := range entries {
		out[i] = entry.Addr
	}
	return out
}

// SetResourceInstanceCurrent sets (or, with nil, removes) the current object
// at addr. obj is copied.
func (s *SyncState) SetResourceInstanceCurrent(addr addrs.AbsResourceInstance, obj *ResourceInstanceObjectSrc, provider addrs.AbsProviderConfig) {
	s.change(addr, func() { s.state.SetResourceInstanceCurrent(addr, obj.DeepCopy(), provider) })
}

// SetResourceInstanceProviderKey records the provider configuration
// instance that manages the instance at addr.
func (s *SyncState) SetResourceInstanceProviderKey(addr addrs.AbsResourceInstance, key addrs.InstanceKey) {
	s.change(addr, func() { s.state.SetResourceInstanceProviderKey(addr, key) })
}

// SetResourceInstanceDeposed sets (or, with nil, removes) a deposed object
// at addr. obj is copied.
func (s *SyncState) SetResourceInstanceDeposed(addr addrs.AbsResourceInstance, key addrs.DeposedKey, obj *ResourceInstanceObjectSrc, provider addrs.AbsProviderConfig) {
	s.change(addr, func() { s.state.SetResourceInstanceDeposed(addr, key, obj.DeepCopy(), provider) })
}

// DeposeResourceInstanceObject moves the current object at addr to a new
// deposed key and returns it (addrs.NotDeposed when there was none).
func (s *SyncState) DeposeResourceInstanceObject(addr addrs.AbsResourceInstance) addrs.DeposedKey {
	var key addrs.DeposedKey
	s.change(addr, func() { key = s.state.DeposeResourceInstanceObject(addr) })
	return key
}

// SetIntent opens (or, with nil, clears) the intent on the instance at addr.
func (s *SyncState) SetIntent(addr addrs.AbsResourceInstance, intent *Intent, provider addrs.AbsProviderConfig) {
	s.change(addr, func() {
		s.state.ensureInstance(addr, provider).Intent = intent.DeepCopy()
		s.state.pruneInstance(addr)
	})
}

// RemoveResourceInstance removes the instance at addr entirely.
func (s *SyncState) RemoveResourceInstance(addr addrs.AbsResourceInstance) {
	s.change(addr, func() { s.state.RemoveResourceInstance(addr) })
}

func (s *SyncState) change(addr addrs.AbsResourceInstance, apply func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	apply()
	s.changed[addr.String()] = addr
}

// TakeChanged returns the addresses changed since the last call, each with
// a copy of its instance now (nil when it was removed), and forgets them.
func (s *SyncState) TakeChanged() map[string]ChangedInstance {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]ChangedInstance, len(s.changed))
	for key, addr := range s.changed {
		changed := ChangedInstance{Addr: addr, Instance: s.state.ResourceInstance(addr).DeepCopy()}
		if res := s.state.Resource(addr.ContainingResource()); res != nil {
			changed.ProviderConfig = res.ProviderConfig
		}
		out[key] = changed
	}
	s.changed = map[string]addrs.AbsResourceInstance{}
	return out
}

// ChangedInstance is an instance as TakeChanged reports it.
type ChangedInstance struct {
	Addr           addrs.AbsResourceInstance
	ProviderConfig addrs.AbsProviderConfig
	// Instance is nil when the instance was removed.
	Instance *ResourceInstance
}

// OutputValue returns a copy of the root output name, or nil.
func (s *SyncState) OutputValue(name string) *OutputValue {
	s.mu.RLock()
	defer s.mu.RUnlock()
	output, ok := s.state.Outputs[name]
	if !ok {
		return nil
	}
	copied := *output
	return &copied
}

// SetOutputValue sets the root output name.
func (s *SyncState) SetOutputValue(name string, val cty.Value, sensitive bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state.Outputs[name] = &OutputValue{Value: val, Sensitive: sensitive}
}

// RemoveOutputValue removes the root output name.
func (s *SyncState) RemoveOutputValue(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.state.Outputs, name)
}

// Lock locks the state for a caller that must read or change several parts
// of it at once, and returns it; call Unlock when done. Changes made this
// way are not reported by TakeChanged.
func (s *SyncState) Lock() *State {
	s.mu.Lock()
	return s.state
}

// Unlock releases the lock taken by Lock.
func (s *SyncState) Unlock() { s.mu.Unlock() }

// Close returns the wrapped state; the SyncState must not be used after.
func (s *SyncState) Close() *State {
	s.mu.Lock()
	defer s.mu.Unlock()
	state := s.state
	s.state = nil
	return state
}
