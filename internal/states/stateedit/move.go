package stateedit

import (
	"fmt"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// Move is one instance moving from one address to another.
type Move struct {
	From, To addrs.AbsResourceInstance
}

// PlanMove works out what moving src to dst means for the state in snap,
// as Terraform's state mv does: a module instance moves with everything
// in it; a resource moves with all its instances, into another resource or
// into a module; an instance moves to another instance, which may change
// its key between count and for_each. Nothing may land on an address that
// already holds an instance. The changes delete each source record and
// create its destination in one commit.
func PlanMove(snap *recordstore.Snapshot, src, dst Target) ([]Move, []recordstore.InstanceChange, error) {
	moves, err := moveAddresses(snap.State, src, dst)
	if err != nil {
		return nil, nil, err
	}
	if len(moves) == 0 {
		if keyed := Select(snap.State, []Target{src}); len(keyed) > 0 {
			return nil, nil, fmt.Errorf("the state has no instance at exactly %s, but has instances such as %s; name the module or resource instance with its key", src, keyed[0].Addr)
		}
		return nil, nil, fmt.Errorf("the state has no resource instance at %s; run \"terrane state list\" to see the addresses it has", src)
	}
	if err := checkDestinations(snap.State, moves); err != nil {
		return nil, nil, err
	}
	changes := make([]recordstore.InstanceChange, 0, 2*len(moves))
	for _, move := range moves {
		res := snap.State.Resource(move.From.ContainingResource())
		inst := res.Instances[move.From.Resource.Key]
		prior := snap.InstanceVersions[move.From.String()]
		changes = append(changes,
			recordstore.InstanceChange{Addr: move.From, ProviderConfig: res.ProviderConfig, Prior: &prior},
			recordstore.InstanceChange{Addr: move.To, ProviderConfig: res.ProviderConfig, Instance: inst.DeepCopy()},
		)
	}
	return moves, changes, nil
}

func moveAddresses(state *states.State, src, dst Target) ([]Move, error) {
	switch src.Kind {
	case TargetModule:
		if dst.Kind != TargetModule {
			return nil, fmt.Errorf("cannot move module %s to %s: a module instance moves only to another module instance address, such as module.new", src, dst)
		}
		return moduleMoves(state, src.Module, dst.Module), nil
	case TargetResource:
		return resourceMoves(state, src, dst)
	default:
		return instanceMoves(state, src, dst)
	}
}

func moduleMoves(state *states.State, from, to addrs.ModuleInstance) []Move {
	var moves []Move
	for _, entry := range state.AllResourceInstances() {
		if !exactModulePrefix(from, entry.Addr.Module) {
			continue
		}
		newModule := append(append(addrs.ModuleInstance{}, to...), entry.Addr.Module[len(from):]...)
		moves = append(moves, Move{From: entry.Addr, To: addrs.AbsResourceInstance{Module: newModule, Resource: entry.Addr.Resource}})
	}
	return moves
}

func exactModulePrefix(prefix, inner addrs.ModuleInstance) bool {
	return len(inner) >= len(prefix) && inner[:len(prefix)].Equal(prefix)
}

func resourceMoves(state *states.State, src, dst Target) ([]Move, error) {
	res := state.Resource(src.Resource())
	if res == nil {
		return nil, nil
	}
	var toResource addrs.AbsResource
	switch dst.Kind {
	case TargetModule:
		toResource = addrs.AbsResource{Module: dst.Module, Resource: src.Instance.Resource}
	case TargetResource:
		toResource = dst.Resource()
	default:
		// A resource with one unkeyed instance may move to a keyed
		// instance: adding count or for_each to a single resource.
		if len(res.Instances) != 1 || res.Instances[addrs.NoKey] == nil {
			return nil, fmt.Errorf("cannot move all %d instances of %s to the single instance %s; move them one at a time, or move the resource to another resource address", len(res.Instances), src, dst)
		}
		return instanceMoves(state, Target{Kind: TargetInstance, Module: src.Module, Instance: src.Instance}, dst)
	}
	if err := sameKind(src.Instance.Resource, toResource.Resource); err != nil {
		return nil, err
	}
	if state.Resource(toResource) != nil {
		return nil, fmt.Errorf("cannot move %s to %s: the state already has instances of %s; remove or move them first", src, toResource, toResource)
	}
	var moves []Move
	for _, key := range res.SortedInstanceKeys() {
		moves = append(moves, Move{From: res.Addr.Instance(key), To: toResource.Instance(key)})
	}
	return moves, nil
}

func instanceMoves(state *states.State, src, dst Target) ([]Move, error) {
	from := addrs.AbsResourceInstance{Module: src.Module, Resource: src.Instance}
	if state.ResourceInstance(from) == nil {
		return nil, nil
	}
	to := addrs.AbsResourceInstance{Module: dst.Module, Resource: dst.Instance}
	if dst.Kind == TargetModule {
		to = addrs.AbsResourceInstance{Module: dst.Module, Resource: src.Instance}
	}
	if err := sameKind(from.Resource.Resource, to.Resource.Resource); err != nil {
		return nil, err
	}
	return []Move{{From: from, To: to}}, nil
}

// sameKind refuses moves between modes or types: the object's attributes
// follow its type's schema, so only the provider could convert them (with
// a moved block and MoveResourceState), not an edit of the state.
func sameKind(from, to addrs.Resource) error {
	if from.Mode != to.Mode {
		return fmt.Errorf("cannot move %s to %s: a managed resource and a data resource are different kinds of object", from, to)
	}
	if from.Type != to.Type {
		return fmt.Errorf("cannot move %s to %s: the resource types differ; an object keeps its type (use a moved block if the provider supports moving between types)", from, to)
	}
	return nil
}

// checkDestinations refuses moves onto existing instances and moves that
// would give one resource both integer and string keys (count and
// for_each at once), which no configuration can express.
func checkDestinations(state *states.State, moves []Move) error {
	leaving := map[string]bool{}
	for _, move := range moves {
		leaving[move.From.String()] = true
	}
	keyKinds := map[string]map[string]bool{}
	for _, move := range moves {
		if move.From.String() == move.To.String() {
			return fmt.Errorf("cannot move %s onto itself", move.From)
		}
		if state.ResourceInstance(move.To) != nil && !leaving[move.To.String()] {
			return fmt.Errorf("cannot move %s to %s: the state already has an instance at %s; remove it first with \"terrane state rm\" if it should be forgotten", move.From, move.To, move.To)
		}
		resource := move.To.ContainingResource().String()
		if keyKinds[resource] == nil {
			keyKinds[resource] = map[string]bool{}
			if existing := state.Resource(move.To.ContainingResource()); existing != nil {
				for key := range existing.Instances {
					if !leaving[existing.Addr.Instance(key).String()] {
						keyKinds[resource][keyKind(key)] = true
					}
				}
			}
		}
		keyKinds[resource][keyKind(move.To.Resource.Key)] = true
		if len(keyKinds[resource]) > 1 {
			return fmt.Errorf("cannot move %s to %s: %s would then have instances keyed in different ways (no key, count indexes, for_each keys); move the other instances too", move.From, move.To, resource)
		}
	}
	return nil
}

func keyKind(key addrs.InstanceKey) string {
	switch key.(type) {
	case addrs.IntKey:
		return "count"
	case addrs.StringKey:
		return "for_each"
	default:
		return "none"
	}
}
