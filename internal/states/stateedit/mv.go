package stateedit

import (
	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// MoveLine is one "Move FROM to TO" line state mv prints: a module, a
// resource or an instance, as OpenTofu names what it moved.
type MoveLine struct {
	From, To string
	// Components are the instance moves it made, for what Terrane keeps
	// beside instances (component children).
	Instances []Move
}

// Mv moves what src selects to dst as OpenTofu's state mv does, on a copy
// of the state: a module instance and the modules below it to another
// module address; a resource whose instances have keys to another resource;
// an instance (or a resource with one unkeyed instance) to another
// instance. rawDst is the destination as typed, which OpenTofu prints for
// an instance move. Dependencies on what moved are dropped from every
// object, as OpenTofu drops them. It returns the lines to print and the
// record changes that make the move.
func Mv(snap *recordstore.Snapshot, src, dst Target, rawDst string) ([]MoveLine, []recordstore.InstanceChange, diags.Diagnostics) {
	state := snap.State.DeepCopy()
	mv := &mover{state: state, touched: map[string]bool{}}
	sources := sourceObjects(snap.State, src)
	if len(sources) == 0 {
		return nil, nil, diags.Diagnostics{diags.Errorf("Invalid source address", "Cannot move %s: does not match anything in the current state.", src)}
	}
	var lines []MoveLine
	for _, source := range sources {
		line, ds := mv.moveOne(source, src, dst, rawDst)
		if ds.HasErrors() {
			return nil, nil, ds
		}
		lines = append(lines, line)
		mv.dropDependencies(source)
	}
	return lines, mv.changes(snap), nil
}

type mover struct {
	state *states.State
	// touched are the addresses whose objects changed in place (their
	// dependencies dropped).
	touched map[string]bool
}

// sourceObjects lists what a source address moves, as OpenTofu's
// sourceObjectAddrs does: every module at or below a module address; a
// resource as its unkeyed instance when it has one.
func sourceObjects(state *states.State, src Target) []Target {
	switch src.Kind {
	case TargetModule:
		var out []Target
		seen := map[string]bool{}
		for _, entry := range state.AllResourceInstances() {
			m := entry.Addr.Module
			if len(m) < len(src.Module) || !m[:len(src.Module)].Equal(src.Module) || seen[m.String()] {
				continue
			}
			seen[m.String()] = true
			out = append(out, Target{Kind: TargetModule, Module: m})
		}
		return out
	case TargetResource:
		res := state.Resource(src.Resource())
		if res == nil {
			return nil
		}
		if _, ok := res.Instances[addrs.NoKey]; ok {
			return []Target{{Kind: TargetInstance, Module: src.Module, Instance: src.Instance}}
		}
		return []Target{src}
	}
	return []Target{src}
}

func (mv *mover) moveOne(from, search, dst Target, rawDst string) (MoveLine, diags.Diagnostics) {
	switch from.Kind {
	case TargetModule:
		return mv.moveModule(from.Module, search.Module, dst)
	case TargetResource:
		return mv.moveResource(from.Resource(), dst)
	}
	return mv.moveInstance(addrs.AbsResourceInstance{Module: from.Module, Resource: from.Instance}, dst, rawDst)
}

func (mv *mover) moveModule(from, search addrs.ModuleInstance, dst Target) (MoveLine, diags.Diagnostics) {
	if dst.Kind != TargetModule {
		return MoveLine{}, diags.Diagnostics{diags.Errorf("Invalid target address", "Cannot move %s to %s: the target must also be a module.", from, dst)}
	}
	to := append(addrs.ModuleInstance{}, dst.Module...)
	to = append(to, from[len(search):]...)
	for _, entry := range mv.state.AllResourceInstances() {
		if entry.Addr.Module.Equal(to) {
			return MoveLine{}, diags.Diagnostics{diags.Errorf("Destination module already exists",
				"Please ensure your addresses and state paths are valid. No state was persisted. Your existing states are untouched.")}
		}
	}
	line := MoveLine{From: from.String(), To: to.String()}
	for _, entry := range mv.state.AllResourceInstances() {
		if !entry.Addr.Module.Equal(from) {
			continue
		}
		dest := addrs.AbsResourceInstance{Module: to, Resource: entry.Addr.Resource}
		mv.relocate(entry.Addr, dest)
		line.Instances = append(line.Instances, Move{From: entry.Addr, To: dest})
	}
	return line, nil
}

func (mv *mover) moveResource(from addrs.AbsResource, dst Target) (MoveLine, diags.Diagnostics) {
	if dst.Kind != TargetResource {
		return MoveLine{}, diags.Diagnostics{diags.Errorf("Invalid target address",
			"Cannot move %s to %s: the source is a whole resource (not a resource instance) so the target must also be a whole resource.", from, dst)}
	}
	to := dst.Resource()
	ds := validateResourceMove(from, to)
	if mv.state.Resource(to) != nil {
		ds = ds.Append(diags.Errorf("Invalid target address", "Cannot move to %s: there is already a resource at that address in the current state.", to))
	}
	res := mv.state.Resource(from)
	if res == nil {
		ds = ds.Append(diags.Errorf("Invalid source address", "The current state does not contain %s.", from))
	}
	if ds.HasErrors() {
		return MoveLine{}, ds
	}
	line := MoveLine{From: from.String(), To: to.String()}
	for _, key := range res.SortedInstanceKeys() {
		move := Move{From: from.Instance(key), To: to.Instance(key)}
		mv.relocate(move.From, move.To)
		line.Instances = append(line.Instances, move)
	}
	return line, nil
}

func (mv *mover) moveInstance(from addrs.AbsResourceInstance, dst Target, rawDst string) (MoveLine, diags.Diagnostics) {
	var to addrs.AbsResourceInstance
	switch dst.Kind {
	case TargetInstance, TargetResource:
		to = addrs.AbsResourceInstance{Module: dst.Module, Resource: dst.Instance}
	default:
		return MoveLine{}, diags.Diagnostics{diags.Errorf("Invalid target address", "Cannot move %s to %s: the target must also be a resource instance.", from, dst)}
	}
	ds := validateResourceMove(from.ContainingResource(), to.ContainingResource())
	if mv.state.ResourceInstance(to) != nil {
		ds = ds.Append(diags.Errorf("Invalid target address", "Cannot move to %s: there is already a resource instance at that address in the current state.", to))
	}
	if mv.state.ResourceInstance(from) == nil {
		ds = ds.Append(diags.Errorf("Invalid source address", "The current state does not contain %s.", from))
	}
	if ds.HasErrors() {
		return MoveLine{}, ds
	}
	mv.relocate(from, to)
	return MoveLine{From: from.String(), To: rawDst, Instances: []Move{{From: from, To: to}}}, nil
}

// relocate moves one instance, with its provider, within the copy.
func (mv *mover) relocate(from, to addrs.AbsResourceInstance) {
	res := mv.state.Resource(from.ContainingResource())
	inst := res.Instances[from.Resource.Key]
	provider := res.ProviderConfig
	if existing := mv.state.Resource(to.ContainingResource()); existing != nil {
		provider = existing.ProviderConfig
	}
	mv.state.RemoveResourceInstance(from)
	mv.state.SetResourceInstance(to, inst, provider)
	mv.touched[to.String()] = true
}

// dropDependencies forgets, in every object, a dependency on what moved:
// OpenTofu finds it again from the configuration at the next apply.
func (mv *mover) dropDependencies(moved Target) {
	for _, entry := range mv.state.AllResourceInstances() {
		obj := entry.Instance.Current
		if obj == nil {
			continue
		}
		for _, dep := range obj.Dependencies {
			if dependencyMoved(dep, moved) {
				obj.Dependencies = nil
				mv.touched[entry.Addr.String()] = true
				break
			}
		}
	}
}

// dependencyMoved is OpenTofu's test of a dependency against a moved
// address, both ways round.
func dependencyMoved(dep addrs.ConfigResource, moved Target) bool {
	switch moved.Kind {
	case TargetModule:
		// A module address contains a dependency's module only when no
		// step of it has a key.
		if len(dep.Module) < len(moved.Module) {
			return false
		}
		for i, step := range moved.Module {
			if step.Key != addrs.NoKey || step.Name != dep.Module[i] {
				return false
			}
		}
		return true
	default:
		return dep.String() == moved.Resource().Config().String()
	}
}

// changes turns the edited copy into record changes against snap.
func (mv *mover) changes(snap *recordstore.Snapshot) []recordstore.InstanceChange {
	var out []recordstore.InstanceChange
	for _, entry := range snap.State.AllResourceInstances() {
		if mv.state.ResourceInstance(entry.Addr) == nil {
			prior := snap.InstanceVersions[entry.Addr.String()]
			out = append(out, recordstore.InstanceChange{Addr: entry.Addr, ProviderConfig: entry.ProviderConfig, Prior: &prior})
		}
	}
	for _, entry := range mv.state.AllResourceInstances() {
		key := entry.Addr.String()
		change := recordstore.InstanceChange{Addr: entry.Addr, ProviderConfig: entry.ProviderConfig, Instance: entry.Instance}
		switch {
		case snap.State.ResourceInstance(entry.Addr) == nil:
			out = append(out, change)
		case mv.touched[key]:
			prior := snap.InstanceVersions[key]
			change.Prior = &prior
			out = append(out, change)
		}
	}
	return out
}

func validateResourceMove(from, to addrs.AbsResource) diags.Diagnostics {
	const summary = "Invalid state move request"
	var ds diags.Diagnostics
	if from.Resource.Mode == addrs.EphemeralResourceMode || to.Resource.Mode == addrs.EphemeralResourceMode {
		return ds.Append(diags.Errorf(summary, "Ephemeral resources cannot be used as sources or targets for the move action. Just update your configuration accordingly."))
	}
	if from.Resource.Mode != to.Resource.Mode {
		kind := map[addrs.ResourceMode]string{addrs.ManagedResourceMode: "managed", addrs.DataResourceMode: "data"}[from.Resource.Mode]
		ds = ds.Append(diags.Errorf(summary, "Cannot move %s to %s: a %s resource can be moved only to another %s resource address.", from, to, kind, kind))
	}
	if from.Resource.Type != to.Resource.Type {
		ds = ds.Append(diags.Errorf(summary, "Cannot move %s to %s: resource types don't match.", from, to))
	}
	return ds
}
