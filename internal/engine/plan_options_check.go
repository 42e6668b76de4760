package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/refactoring"
)

// verifyTargetedMoves refuses a plan whose -target options leave out an
// end of a pending move, as OpenTofu does: planning only one end would
// leave the state and the configuration disagreeing about where the
// object is. The suggestion names whole resources, as OpenTofu's does.
func verifyTargetedMoves(moves refactoring.Results, targets []addrs.Targetable) diags.Diagnostics {
	if len(targets) == 0 {
		return nil
	}
	covered := func(addr addrs.AbsResourceInstance) bool {
		for _, t := range targets {
			if t.TargetContains(addr) || t.TargetContains(addr.ContainingResource()) {
				return true
			}
		}
		return false
	}
	missing := map[string]bool{}
	for _, m := range moves.Moves {
		for _, end := range []addrs.AbsResourceInstance{m.From, m.To} {
			if !covered(end) {
				missing[end.ContainingResource().String()] = true
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	names := make([]string, 0, len(missing))
	for name := range missing {
		names = append(names, name)
	}
	sort.Strings(names)
	var list strings.Builder
	for _, name := range names {
		fmt.Fprintf(&list, "\n  -target=%q", name)
	}
	return diags.Diagnostics{diags.Errorf("Moved resource instances excluded by targeting",
		"Resource instances in your current state have moved to new addresses in the latest configuration. Terrane must include those resource instances while planning in order to ensure a correct result, but your -target=... options do not fully cover all of those resource instances.\n\n"+
			"To create a valid plan, either remove your -target=... options altogether or add the following additional target options:%s\n\n"+
			"Note that adding these options may include further additional resource instances in your plan, in order to respect object dependencies.", list.String())}
}

// forceReplaceWarnings warns about a -replace address without an instance
// key naming a resource whose instances have keys, or none: it replaces
// nothing, as OpenTofu warns, and the warning lists what would.
func forceReplaceWarnings(abs addrs.AbsResource, exp *expansion, forceReplace []addrs.AbsResourceInstance) diags.Diagnostics {
	var ds diags.Diagnostics
	if len(exp.keys) == 1 && exp.keys[0] == addrs.NoKey {
		return nil
	}
	for _, addr := range forceReplace {
		if addr.Resource.Key != addrs.NoKey || addr.ContainingResource().String() != abs.String() {
			continue
		}
		detail := fmt.Sprintf("Your force-replace request for %s doesn't match any resource instances because this resource doesn't have any instances.", addr)
		switch len(exp.keys) {
		case 0:
		case 1:
			detail = fmt.Sprintf("Your force-replace request for %s doesn't match any resource instances because it lacks an instance key.\n\nTo force replacement of the single declared instance, use the following option instead:\n  -replace=%q", addr, abs.Instance(exp.keys[0]).String())
		default:
			var options strings.Builder
			for _, key := range exp.keys {
				fmt.Fprintf(&options, "\n  -replace=%q", abs.Instance(key).String())
			}
			detail = fmt.Sprintf("Your force-replace request for %s doesn't match any resource instances because it lacks an instance key.\n\nTo force replacement of particular instances, use one or more of the following options instead:%s", addr, options.String())
		}
		ds = ds.Append(diags.Warnf("Incompletely-matched force-replace resource instance", "%s", detail))
	}
	return ds
}
