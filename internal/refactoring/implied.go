package refactoring

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/states"
)

// ImpliedStatements are the moves OpenTofu makes without a moved block:
// a resource that gained count keeps its object as instance [0], and one
// that lost count and for_each keeps instance [0]'s object as its single
// instance. Without them the object would be destroyed and created again.
// A resource some explicit statement names (either side) gets none, since
// its moved block may keep another instance than [0].
func ImpliedStatements(cfg *config.Config, state *states.State, explicit []Statement) []Statement {
	var out []Statement
	seen := map[string]bool{}
	for _, res := range state.SortedResources() {
		c := cfg.Descendant(res.Addr.Module.Module())
		if c == nil {
			continue
		}
		rc := c.Module.Resources[res.Addr.Resource]
		if rc == nil {
			continue
		}
		var from, to addrs.InstanceKey
		rng := rc.DeclRange
		switch {
		case rc.Count != nil && res.Instances[addrs.NoKey] != nil:
			from, to, rng = addrs.NoKey, addrs.IntKey(0), rc.Count.Range()
		case rc.Count == nil && rc.ForEach == nil && res.Instances[addrs.IntKey(0)] != nil:
			from, to = addrs.IntKey(0), addrs.NoKey
		default:
			continue
		}
		// One statement serves every instance of the module: which
		// instances it moves depends only on the configuration.
		stmt := Statement{DeclModule: c.Path, DeclRange: rng, Implied: true,
			From: impliedEndpoint(res.Addr.Resource.Instance(from), rng), To: impliedEndpoint(res.Addr.Resource.Instance(to), rng)}
		if key := stmt.String(); !seen[key] && !namedByStatement(res.Addr, explicit) {
			seen[key] = true
			out = append(out, stmt)
		}
	}
	return out
}

func impliedEndpoint(inst addrs.ResourceInstance, rng hcl.Range) Endpoint {
	return Endpoint{Kind: ResourceInstanceEndpoint, Resource: inst, Range: rng}
}

// namedByStatement reports whether a statement moves from or to (an
// instance of) the resource at addr.
func namedByStatement(addr addrs.AbsResource, stmts []Statement) bool {
	for _, s := range stmts {
		for _, ep := range []Endpoint{s.From, s.To} {
			if ep.isModule() {
				continue
			}
			probe := Statement{DeclModule: s.DeclModule, From: ep, To: ep}
			if _, ok := destination(probe, addr.Instance(ep.Resource.Key)); ok {
				return true
			}
		}
	}
	return false
}
