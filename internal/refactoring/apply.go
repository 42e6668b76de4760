package refactoring

import (
	"sort"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
)

// Move is where one instance went.
type Move struct {
	// From is where the previous run tracked the instance, To where it is
	// now.
	From, To addrs.AbsResourceInstance
	// CrossType is set when the resource type changed on the way, so the
	// object must be converted by the provider of the new type.
	CrossType bool
	// Statements are the moved blocks that carried it, in order.
	Statements []Statement
}

// Blocked is a move that did not happen because an object already exists
// at its destination.
type Blocked struct {
	From, To  addrs.AbsResourceInstance
	Statement Statement
}

// Results are what applying the moves did to a state.
type Results struct {
	// Moves are keyed by the instance's new address string.
	Moves   map[string]*Move
	Blocked []Blocked
}

// PrevRunAddr returns where the previous run tracked the instance now at
// addr: addr itself unless a move brought it there.
func (r Results) PrevRunAddr(addr addrs.AbsResourceInstance) addrs.AbsResourceInstance {
	if m := r.Moves[addr.String()]; m != nil {
		return m.From
	}
	return addr
}

// ApplyMoves moves the instances of state (changed in place) as stmts say,
// chains in order (a to b before b to c), and returns what moved. A move
// onto an address that already has an object is not made; it is reported in
// Results.Blocked and the object stays where it was.
func ApplyMoves(stmts []Statement, state *states.State) Results {
	results := Results{Moves: map[string]*Move{}}
	for _, stmt := range chainOrder(stmts) {
		for _, entry := range state.AllResourceInstances() {
			to, ok := destination(stmt, entry.Addr)
			if !ok {
				continue
			}
			if state.ResourceInstance(to) != nil {
				results.Blocked = append(results.Blocked, Blocked{From: entry.Addr, To: to, Statement: stmt})
				continue
			}
			state.RemoveResourceInstance(entry.Addr)
			state.SetResourceInstance(to, entry.Instance, movedProvider(entry.ProviderConfig, entry.Addr, to))
			if res := state.Resource(to.ContainingResource()); res != nil {
				res.EachMode = eachModeOf(to.Resource.Key, res.EachMode)
			}
			move := results.Moves[entry.Addr.String()]
			delete(results.Moves, entry.Addr.String())
			if move == nil {
				move = &Move{From: entry.Addr}
			}
			move.To = to
			move.CrossType = move.CrossType || stmt.CrossType()
			move.Statements = append(move.Statements, stmt)
			results.Moves[to.String()] = move
		}
	}
	return results
}

// chainOrder sorts statements so that each runs after the statements that
// move objects onto its source.
func chainOrder(stmts []Statement) []Statement {
	byTo := map[string]Statement{}
	for _, s := range stmts {
		byTo[s.absString(s.To)] = s
	}
	depth := func(s Statement) int {
		n := 0
		for at := s.absString(s.From); n <= len(stmts); n++ {
			prev, ok := byTo[at]
			if !ok {
				break
			}
			at = prev.absString(prev.From)
		}
		return n
	}
	out := append([]Statement(nil), stmts...)
	sort.SliceStable(out, func(i, j int) bool { return depth(out[i]) < depth(out[j]) })
	return out
}

// destination returns where stmt moves the instance at addr, if it does.
func destination(stmt Statement, addr addrs.AbsResourceInstance) (addrs.AbsResourceInstance, bool) {
	mi := addr.Module
	n := len(stmt.DeclModule)
	if len(mi) < n || !samePath(mi[:n], stmt.DeclModule) {
		return addr, false
	}
	base, rel := mi[:n], mi[n:]
	from, to := stmt.From, stmt.To
	switch from.Kind {
	case ResourceInstanceEndpoint, ResourceEndpoint:
		if !sameInstancePath(rel, from.Module) || addr.Resource.Resource != from.Resource.Resource {
			return addr, false
		}
		key := addr.Resource.Key
		if from.Kind == ResourceInstanceEndpoint {
			if addr.Resource.Key != from.Resource.Key {
				return addr, false
			}
			key = to.Resource.Key
		}
		return addrs.AbsResourceInstance{Module: join(base, to.Module), Resource: to.Resource.Resource.Instance(key)}, true
	}
	k := len(from.Module)
	if len(rel) < k || !sameInstancePath(rel[:k-1], from.Module[:k-1]) || rel[k-1].Name != from.Module[k-1].Name {
		return addr, false
	}
	target := append(addrs.ModuleInstance{}, to.Module...)
	if from.Kind == ModuleInstanceEndpoint {
		if rel[k-1].Key != from.Module[k-1].Key {
			return addr, false
		}
	} else {
		target[len(target)-1].Key = rel[k-1].Key
	}
	return addrs.AbsResourceInstance{Module: join(join(base, target), rel[k:]), Resource: addr.Resource}, true
}

func join(a, b addrs.ModuleInstance) addrs.ModuleInstance {
	out := make(addrs.ModuleInstance, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

func samePath(mi addrs.ModuleInstance, m addrs.Module) bool {
	for i := range m {
		if mi[i].Name != m[i] {
			return false
		}
	}
	return true
}

func sameInstancePath(a, b addrs.ModuleInstance) bool {
	return len(a) == len(b) && (len(a) == 0 || a.String() == b.String())
}

// movedProvider keeps the instance's provider configuration, following it
// into the new module when it was the old module's own.
func movedProvider(p addrs.AbsProviderConfig, from, to addrs.AbsResourceInstance) addrs.AbsProviderConfig {
	if p.Module.String() == from.Module.Module().String() {
		p.Module = to.Module.Module()
	}
	return p
}

func eachModeOf(key addrs.InstanceKey, current states.EachMode) states.EachMode {
	switch key.(type) {
	case addrs.IntKey:
		return states.EachList
	case addrs.StringKey:
		return states.EachMap
	}
	return current
}
