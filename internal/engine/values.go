package engine

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// repetition is what count.index and each.* mean inside one instance of a
// counted or for_each block; the zero value is a block with neither.
type repetition struct {
	countIndex cty.Value
	eachKey    cty.Value
	eachValue  cty.Value
}

// expansionMode is how a resource or module call repeats.
type expansionMode int

const (
	expandSingle expansionMode = iota
	expandCount
	expandForEach
)

// expansion is the outcome of evaluating a block's count or for_each in
// one module instance: its instance keys in order, and what count/each
// mean in each of them. unknown is set when the keys could not be known
// during planning.
type expansion struct {
	mode expansionMode
	keys []addrs.InstanceKey
	// each holds each.value by key for a for_each expansion. The
	// repetition of an instance is worked out from its key when asked for
	// (rep), not stored: with hundreds of thousands of instances a stored
	// copy per instance would be most of a plan's memory.
	each    map[string]cty.Value
	unknown bool
}

// has reports whether key names an instance of the expansion.
func (e *expansion) has(key addrs.InstanceKey) bool {
	switch k := key.(type) {
	case addrs.IntKey:
		return e.mode == expandCount && int(k) >= 0 && int(k) < len(e.keys)
	case addrs.StringKey:
		_, ok := e.each[string(k)]
		return e.mode == expandForEach && ok
	}
	return e.mode == expandSingle && key == addrs.NoKey && len(e.keys) == 1
}

// rep is the count.index or each.key and each.value of the instance key.
func (e *expansion) rep(key addrs.InstanceKey) repetition {
	switch k := key.(type) {
	case addrs.IntKey:
		if e.mode == expandCount {
			return repetition{countIndex: cty.NumberIntVal(int64(k))}
		}
	case addrs.StringKey:
		if v, ok := e.each[string(k)]; ok && e.mode == expandForEach {
			return repetition{eachKey: cty.StringVal(string(k)), eachValue: v}
		}
	}
	return repetition{}
}

// walkValues holds every value a walk has worked out so far, for the
// expressions evaluated after it. It stores one value per object, never a
// copy of the whole state, and is safe for concurrent use.
type walkValues struct {
	mu sync.RWMutex
	// variables, locals and outputs are keyed by module instance string
	// and name, joined by "\x00".
	variables map[string]cty.Value
	locals    map[string]cty.Value
	outputs   map[string]cty.Value
	// moduleInstances lists the instances of each module path
	// (addrs.Module.String()).
	moduleInstances map[string][]addrs.ModuleInstance
	// calls are the expansion of each module call, keyed by calling module
	// instance and call name.
	calls map[string]*expansion
	// resources are keyed by AbsResource.String(), instances by
	// AbsResourceInstance.String().
	resources map[string]*expansion
	instances map[string]cty.Value
	// lazy holds instances whose values are worked out only when an
	// expression reads them: unchanged objects in state, whose decoding
	// needs a provider call (UpgradeResourceState) that most of them, read
	// by nothing, never need.
	lazy map[string]*lazyValue
	// absent are the instances (by address) of an expansion that have no
	// object, neither in state nor planned: their value is unknown, and a
	// whole resource's value leaves them out (see collect).
	absent map[string]bool
	// finished are the resources (ConfigResource.String()) whose vertex
	// has run, so their instances' values no longer change, and
	// wholeResources the value of each of their AbsResources built once
	// for every expression that reads it (see resourceValue).
	finished       map[string]bool
	wholeResources map[string]cty.Value
}

// lazyValue is a value computed once, on first read.
type lazyValue struct {
	once sync.Once
	load func() cty.Value
	val  cty.Value
}

func newWalkValues() *walkValues {
	return &walkValues{
		variables:       map[string]cty.Value{},
		locals:          map[string]cty.Value{},
		outputs:         map[string]cty.Value{},
		moduleInstances: map[string][]addrs.ModuleInstance{"": {addrs.RootModuleInstance}},
		calls:           map[string]*expansion{},
		resources:       map[string]*expansion{},
		instances:       map[string]cty.Value{},
		lazy:            map[string]*lazyValue{},
		absent:          map[string]bool{},
		finished:        map[string]bool{},
		wholeResources:  map[string]cty.Value{},
	}
}

func namedKey(module addrs.ModuleInstance, name string) string {
	return module.String() + "\x00" + name
}

func (v *walkValues) get(table map[string]cty.Value, key string) (cty.Value, bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	val, ok := table[key]
	return val, ok
}

func (v *walkValues) set(table map[string]cty.Value, key string, val cty.Value) {
	v.mu.Lock()
	defer v.mu.Unlock()
	table[key] = val
}

// setLazy makes load the source of an instance's value until set gives it
// one; load runs at most once, when the value is first read.
func (v *walkValues) setLazy(key string, load func() cty.Value) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.lazy[key] = &lazyValue{load: load}
}

// setAbsent records that the instance with key has no object: its value
// is unknown of type ty.
func (v *walkValues) setAbsent(key string, ty cty.Type) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.instances[key] = cty.UnknownVal(ty)
	v.absent[key] = true
}

func (v *walkValues) isAbsent(key string) bool {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.absent[key]
}

// instance is the value of the instance with key, computing a lazy one.
func (v *walkValues) instance(key string) (cty.Value, bool) {
	v.mu.RLock()
	val, ok := v.instances[key]
	lazy := v.lazy[key]
	v.mu.RUnlock()
	if ok || lazy == nil {
		return val, ok
	}
	lazy.once.Do(func() { lazy.val = lazy.load() })
	return lazy.val, true
}

// finishResource records that the vertex of the resource with configKey
// has run: none of its instances' values changes after this.
func (v *walkValues) finishResource(configKey string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.finished[configKey] = true
}

// resourceValue is the value of a whole resource, as build makes it. Once
// the resource's vertex has run, the value is built once and shared: every
// instance of a for_each reading tpsdk_widget.base[each.value] reads the
// whole base object, and building it each time made such a configuration
// quadratic in its instances. Before then (self in a postcondition, or an
// apply still working on it) it is built on each read.
func (v *walkValues) resourceValue(addr addrs.AbsResource, build func() cty.Value) cty.Value {
	key := addr.String()
	v.mu.RLock()
	val, built := v.wholeResources[key]
	final := v.finished[addr.Config().String()]
	v.mu.RUnlock()
	if built {
		return val
	}
	val = build()
	if final {
		v.mu.Lock()
		v.wholeResources[key] = val
		v.mu.Unlock()
	}
	return val
}

func (v *walkValues) moduleInstancesOf(path addrs.Module) []addrs.ModuleInstance {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.moduleInstances[path.String()]
}

func (v *walkValues) setResourceExpansion(addr addrs.AbsResource, exp *expansion) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.resources[addr.String()] = exp
}

func (v *walkValues) resourceExpansion(addr addrs.AbsResource) *expansion {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.resources[addr.String()]
}

func (v *walkValues) callExpansion(module addrs.ModuleInstance, call string) *expansion {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.calls[namedKey(module, call)]
}

// addCallExpansion records a module call's expansion in one calling
// module instance and the child module instances it makes.
func (v *walkValues) addCallExpansion(parent addrs.ModuleInstance, childPath addrs.Module, call string, exp *expansion) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.calls[namedKey(parent, call)] = exp
	for _, key := range exp.keys {
		v.moduleInstances[childPath.String()] = append(v.moduleInstances[childPath.String()], parent.Child(call, key))
	}
}

func (v *walkValues) moduleRepetition(inst addrs.ModuleInstance) repetition {
	if inst.IsRoot() {
		return repetition{}
	}
	step := inst[len(inst)-1]
	v.mu.RLock()
	exp := v.calls[namedKey(inst.Parent(), step.Name)]
	v.mu.RUnlock()
	if exp == nil {
		return repetition{}
	}
	return exp.rep(step.Key)
}

// dependedOn lists the vertices at least one other vertex depends on.
func dependedOn(g *graph) map[string]bool {
	out := map[string]bool{}
	for _, targets := range g.deps {
		for target := range targets {
			out[target] = true
		}
	}
	return out
}

// keepsInstanceValues reports whether a plan walk must keep the values of
// v's instances for expressions to read. Every expression that reads a
// resource (another resource's arguments, a local, an output, a check, a
// module's output) is evaluated by a vertex that depends on the
// resource's, and self in a postcondition reads the resource's own
// values; a resource neither way read needs none of its instances' values
// kept, so a plan's memory does not grow with the unchanged objects
// nothing reads.
func (w *walker) keepsInstanceValues(v *resourceVertex) bool {
	if w.readResources == nil || w.readResources[v.key()] {
		return true
	}
	return len(v.resource.Postconditions) > 0
}

// setPlannedInstanceValue records an instance's value during a plan walk
// when anything may read it.
func (w *walker) setPlannedInstanceValue(work *resourceWork, addr addrs.AbsResourceInstance, val cty.Value) {
	if w.keepsInstanceValues(work.v) {
		w.values.set(w.values.instances, addr.String(), val)
	}
}
