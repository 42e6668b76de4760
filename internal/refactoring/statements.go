package refactoring

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
)

// Statement is one moved block: every object at From (in each instance of
// the declaring module) is now tracked at To.
type Statement struct {
	// DeclModule is the module whose configuration holds the block.
	DeclModule addrs.Module
	From, To   Endpoint
	DeclRange  hcl.Range
	// Implied is set for a move no moved block states; see
	// ImpliedStatements. DeclRange is then the resource's count or
	// declaration.
	Implied bool
}

// String describes the move for messages.
func (s Statement) String() string {
	return fmt.Sprintf("%s to %s", s.absString(s.From), s.absString(s.To))
}

func (s Statement) absString(ep Endpoint) string {
	if len(s.DeclModule) == 0 {
		return ep.String()
	}
	return s.DeclModule.String() + "." + ep.String()
}

// CrossType reports whether the statement moves a resource to another
// resource type, which only the provider can do (MoveResourceState).
func (s Statement) CrossType() bool {
	return !s.From.isModule() && s.From.Resource.Resource.Type != s.To.Resource.Resource.Type
}

// FindStatements collects the moved blocks of every module in cfg and
// checks each on its own: both sides the same kind, not a no-op, and a
// source no longer declared in the configuration. Statements with errors are
// left out of the result.
func FindStatements(cfg *config.Config) ([]Statement, hcl.Diagnostics) {
	var out []Statement
	var diags hcl.Diagnostics
	cfg.DeepEach(func(c *config.Config) {
		for _, m := range c.Module.Moved {
			stmt, ds := statementFromBlock(c, m)
			diags = append(diags, ds...)
			if !ds.HasErrors() && stmt != nil {
				out = append(out, *stmt)
			}
		}
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].DeclRange.String() < out[j].DeclRange.String() })
	diags = append(diags, validateTogether(out)...)
	if diags.HasErrors() {
		return nil, diags
	}
	return out, diags
}

func statementFromBlock(c *config.Config, m *config.Moved) (*Statement, hcl.Diagnostics) {
	from, ds := parseEndpoint(m.From)
	to, moreDs := parseEndpoint(m.To)
	if ds = append(ds, moreDs...); ds.HasErrors() {
		return nil, ds
	}
	from, to, ok := unify(from, to)
	if !ok {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid \"moved\" addresses",
			Detail:  fmt.Sprintf("This block moves %s to %s, but a module can only move to a module and a resource to a resource. Change one side so that both name the same kind of object.", from, to),
			Subject: m.DeclRange.Ptr()}}
	}
	stmt := &Statement{DeclModule: c.Path, From: from, To: to, DeclRange: m.DeclRange}
	if from.String() == to.String() {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Redundant move statement",
			Detail:  fmt.Sprintf("This statement declares a move from %s to the same address, which is the same as not declaring this move at all.", stmt.absString(from)),
			Subject: m.DeclRange.Ptr()}}
	}
	if where := stillDeclared(c, from); where != nil {
		noun, shortNoun := from.nouns()
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Moved object still exists",
			Detail: fmt.Sprintf("This statement declares a move from %s, but that %s is still declared at %s.\n\nChange your configuration so that this %s will be declared as %s instead.",
				stmt.absString(from), noun, where.Filename+":"+fmt.Sprint(where.Start.Line)+","+fmt.Sprint(where.Start.Column), shortNoun, stmt.absString(to)),
			Subject: m.DeclRange.Ptr()}}
	}
	return stmt, ds
}

// nouns name what an endpoint is, as OpenTofu's messages about moves do:
// in full, and in short after the first mention.
func (ep Endpoint) nouns() (string, string) {
	switch ep.Kind {
	case ModuleCallEndpoint:
		return "module call", "call"
	case ModuleInstanceEndpoint:
		return "module instance", "instance"
	case ResourceInstanceEndpoint:
		return "resource instance", "instance"
	}
	return "resource", "resource"
}

// stillDeclared returns where the configuration still declares a move's
// source, or nil when it does not. Instance keys are judged by the kind of
// repetition the resource or module call uses (no key: neither count nor
// for_each; a number: count; a string: for_each), as count and for_each
// values may be known only while planning.
func stillDeclared(c *config.Config, from Endpoint) *hcl.Range {
	steps := from.Module
	owner := c
	last := len(steps)
	if from.isModule() {
		last--
	}
	for i := 0; i < last; i++ {
		call := owner.Module.ModuleCalls[steps[i].Name]
		if call == nil || !keyFits(steps[i].Key, call.Count, call.ForEach) {
			return nil
		}
		if owner = owner.Children[steps[i].Name]; owner == nil {
			return nil
		}
	}
	switch from.Kind {
	case ModuleCallEndpoint, ModuleInstanceEndpoint:
		call := owner.Module.ModuleCalls[steps[last].Name]
		if call == nil || from.Kind == ModuleInstanceEndpoint && !keyFits(steps[last].Key, call.Count, call.ForEach) {
			return nil
		}
		return &call.DeclRange
	}
	res := owner.Module.Resources[from.Resource.Resource]
	if res == nil || from.Kind == ResourceInstanceEndpoint && !keyFits(from.Resource.Key, res.Count, res.ForEach) {
		return nil
	}
	return &res.DeclRange
}

func keyFits(key addrs.InstanceKey, count, forEach hcl.Expression) bool {
	switch key.(type) {
	case addrs.IntKey:
		return count != nil
	case addrs.StringKey:
		return forEach != nil
	}
	return count == nil && forEach == nil
}

// validateTogether reports statements that contradict each other: one
// source moved to two places, two sources moved to one place, and chains
// that return to where they started.
func validateTogether(stmts []Statement) hcl.Diagnostics {
	var diags hcl.Diagnostics
	byFrom := map[string]Statement{}
	byTo := map[string]Statement{}
	for _, s := range stmts {
		from, to := s.absString(s.From), s.absString(s.To)
		if other, ok := byFrom[from]; ok && other.absString(other.To) != to {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Ambiguous move statements",
				Detail: fmt.Sprintf("The moved block at %s declared that %s moved to %s, but this one says it moved to %s. An object can move to only one new address; remove one of the blocks.",
					other.DeclRange, from, other.absString(other.To), to),
				Subject: s.DeclRange.Ptr()})
			continue
		}
		if other, ok := byTo[to]; ok && other.absString(other.From) != from {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Ambiguous move statements",
				Detail: fmt.Sprintf("The moved block at %s declared that %s moved from %s, but this one says it moved from %s. An object can have moved from only one address; remove one of the blocks.",
					other.DeclRange, to, other.absString(other.From), from),
				Subject: s.DeclRange.Ptr()})
			continue
		}
		byFrom[from], byTo[to] = s, s
	}
	if diags.HasErrors() {
		return diags
	}
	return append(diags, cycleDiags(stmts)...)
}

// cycleDiags reports chains of moves that come back to their start
// (a to b, b to a), which would leave no object anywhere.
func cycleDiags(stmts []Statement) hcl.Diagnostics {
	next := map[string]Statement{}
	for _, s := range stmts {
		next[s.absString(s.From)] = s
	}
	var diags hcl.Diagnostics
	reported := map[string]bool{}
	for _, start := range stmts {
		at := start.absString(start.To)
		chain := []string{start.absString(start.From), at}
		for steps := 0; steps < len(stmts); steps++ {
			s, ok := next[at]
			if !ok {
				break
			}
			at = s.absString(s.To)
			chain = append(chain, at)
			if at != chain[0] {
				continue
			}
			key := minString(chain)
			if !reported[key] {
				reported[key] = true
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cyclic dependency in move statements",
					Detail:  fmt.Sprintf("These moved blocks form a cycle: %s. An object cannot move back to where it started; remove one of the blocks.", joinArrows(chain)),
					Subject: start.DeclRange.Ptr()})
			}
			break
		}
	}
	return diags
}

func minString(xs []string) string {
	m := xs[0]
	for _, x := range xs {
		if x < m {
			m = x
		}
	}
	return m
}

func joinArrows(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += " → "
		}
		out += x
	}
	return out
}
