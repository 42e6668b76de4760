package refactoring

import (
	"fmt"
	"sort"
	"strings"

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

// FindStatements collects the moved blocks of every module in cfg, each
// module's in the order they are written. Whether they hold together is
// for ValidateMoves, after planning, as OpenTofu checks them.
func FindStatements(cfg *config.Config) ([]Statement, hcl.Diagnostics) {
	var out []Statement
	var diags hcl.Diagnostics
	cfg.DeepEach(func(c *config.Config) {
		blocks := append([]*config.Moved{}, c.Module.Moved...)
		sort.SliceStable(blocks, func(i, j int) bool { return rangeLess(blocks[i].DeclRange, blocks[j].DeclRange) })
		for _, m := range blocks {
			stmt, ds := statementFromBlock(c, m)
			diags = append(diags, ds...)
			if !ds.HasErrors() && stmt != nil {
				out = append(out, *stmt)
			}
		}
	})
	if diags.HasErrors() {
		return nil, diags
	}
	return out, diags
}

func rangeLess(a, b hcl.Range) bool {
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	return a.Start.Byte < b.Start.Byte
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
			Detail:  "The \"from\" and \"to\" addresses must either both refer to resources or both refer to modules.",
			Subject: m.DeclRange.Ptr()}}
	}
	return &Statement{DeclModule: c.Path, From: from, To: to, DeclRange: m.DeclRange}, ds
}

// ValidateMoves checks the statements as OpenTofu does once a plan is
// made: none moves an object to where it is, or from where the
// configuration still declares one; no two disagree about where an object
// went or where one came from; and, when all that holds, no chain of them
// comes back to where it started.
func ValidateMoves(cfg *config.Config, stmts []Statement) hcl.Diagnostics {
	var diags hcl.Diagnostics
	type endpoint struct {
		other string
		at    hcl.Range
	}
	byFrom, byTo := map[string]endpoint{}, map[string]endpoint{}
	for _, s := range stmts {
		if s.Implied {
			continue
		}
		from, to := s.absString(s.From), s.absString(s.To)
		noun, short := nouns(s.From)
		if from == to {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Redundant move statement",
				Detail:  fmt.Sprintf("This statement declares a move from %s to the same address, which is the same as not declaring this move at all.", from),
				Subject: s.DeclRange.Ptr()})
			continue
		}
		if where, declared := stillDeclared(configFor(cfg, s.DeclModule), s.From); declared {
			at := ""
			if where != nil {
				at = " at " + startString(*where)
			}
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Moved object still exists",
				Detail: fmt.Sprintf("This statement declares a move from %s, but that %s is still declared%s.\n\nChange your configuration so that this %s will be declared as %s instead.",
					from, noun, at, short, to),
				Subject: s.DeclRange.Ptr()})
		}
		if other, ok := byFrom[from]; !ok {
			byFrom[from] = endpoint{to, s.DeclRange}
		} else if other.other != to {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Ambiguous move statements",
				Detail: fmt.Sprintf("A statement at %s declared that %s moved to %s, but this statement instead declares that it moved to %s.\n\nEach %s can move to only one destination %s.",
					startString(other.at), from, other.other, to, noun, short),
				Subject: s.DeclRange.Ptr()})
		}
		if other, ok := byTo[to]; !ok {
			byTo[to] = endpoint{from, s.DeclRange}
		} else if other.other != from {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Ambiguous move statements",
				Detail: fmt.Sprintf("A statement at %s declared that %s moved to %s, but this statement instead declares that %s moved there.\n\nEach %s can have moved from only one source %s.",
					startString(other.at), other.other, to, from, noun, short),
				Subject: s.DeclRange.Ptr()})
		}
	}
	if diags.HasErrors() {
		return diags
	}
	return append(diags, cycleDiags(stmts)...)
}

// nouns name what an endpoint is, at length and briefly, as OpenTofu's
// messages do.
func nouns(ep Endpoint) (string, string) {
	switch ep.Kind {
	case ModuleInstanceEndpoint:
		return "module instance", "instance"
	case ModuleCallEndpoint:
		return "module call", "call"
	case ResourceInstanceEndpoint:
		return "resource instance", "instance"
	}
	return "resource", "resource"
}

// startString is where a range starts, as FILE:LINE,COLUMN.
func startString(r hcl.Range) string {
	return fmt.Sprintf("%s:%d,%d", r.Filename, r.Start.Line, r.Start.Column)
}

// configFor is the configuration of the module at path, or nil.
func configFor(cfg *config.Config, path addrs.Module) *config.Config {
	return cfg.Descendant(path)
}

// stillDeclared reports whether the configuration still declares a
// move's source, and where: a resource or module call at its block, an
// instance at its resource's or call's count or for_each (or block when it
// has neither). Instance keys are judged by the kind of repetition used (no
// key: neither count nor for_each; a number: count; a string: for_each),
// as count and for_each values may be known only while planning.
func stillDeclared(c *config.Config, from Endpoint) (*hcl.Range, bool) {
	if c == nil {
		return nil, false
	}
	steps := from.Module
	owner := c
	last := len(steps)
	if from.isModule() {
		last--
	}
	for i := 0; i < last; i++ {
		call := owner.Module.ModuleCalls[steps[i].Name]
		if call == nil || !keyFits(steps[i].Key, call.Count, call.ForEach) {
			return nil, false
		}
		if owner = owner.Children[steps[i].Name]; owner == nil {
			return nil, false
		}
	}
	switch from.Kind {
	case ModuleCallEndpoint, ModuleInstanceEndpoint:
		call := owner.Module.ModuleCalls[steps[last].Name]
		if call == nil || from.Kind == ModuleInstanceEndpoint && !keyFits(steps[last].Key, call.Count, call.ForEach) {
			return nil, false
		}
		if from.Kind == ModuleInstanceEndpoint {
			return repetitionRange(call.ForEach, call.Count, call.DeclRange), true
		}
		return &call.DeclRange, true
	}
	res := owner.Module.Resources[from.Resource.Resource]
	if res == nil || from.Kind == ResourceInstanceEndpoint && !keyFits(from.Resource.Key, res.Count, res.ForEach) {
		return nil, false
	}
	if from.Kind == ResourceInstanceEndpoint {
		return repetitionRange(res.ForEach, res.Count, res.DeclRange), true
	}
	return &res.DeclRange, true
}

func repetitionRange(forEach, count hcl.Expression, decl hcl.Range) *hcl.Range {
	switch {
	case forEach != nil:
		return forEach.Range().Ptr()
	case count != nil:
		return count.Range().Ptr()
	}
	return &decl
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

// cycleDiags reports chains of moves that come back to their start
// (a to b, b to a), which leave no final address, as OpenTofu words it:
// without a source range, listing the statements of each cycle.
func cycleDiags(stmts []Statement) hcl.Diagnostics {
	next := map[string]Statement{}
	for _, s := range stmts {
		next[s.absString(s.From)] = s
	}
	var diags hcl.Diagnostics
	reported := map[string]bool{}
	for _, start := range stmts {
		cycle := []Statement{start}
		at := start.absString(start.To)
		for steps := 0; steps < len(stmts); steps++ {
			s, ok := next[at]
			if !ok {
				break
			}
			if s.absString(s.From) == start.absString(start.From) {
				lines := make([]string, len(cycle))
				for i, c := range cycle {
					lines[i] = fmt.Sprintf("\n  - %s: %s → %s", startString(c.DeclRange), c.From, c.To)
				}
				sort.Strings(lines)
				key := strings.Join(lines, "")
				if !reported[key] {
					reported[key] = true
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cyclic dependency in move statements",
						Detail: "The following chained move statements form a cycle, and so there is no final location to move objects to:" + key +
							"\n\nA chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration."})
				}
				break
			}
			cycle = append(cycle, s)
			at = s.absString(s.To)
		}
	}
	return diags
}
