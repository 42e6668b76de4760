package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/refactoring"
)

// verifyTargetedMoves refuses a plan whose -target options leave out, or
// whose -exclude options take in, either end of a move: the move must be
// planned whole.
func verifyTargetedMoves(moves refactoring.Results, targets, excludes []addrs.Targetable) diags.Diagnostics {
	list, option := targets, "target"
	if len(targets) == 0 {
		list, option = excludes, "exclude"
	}
	if len(list) == 0 {
		return nil
	}
	matched := func(addr addrs.AbsResourceInstance) bool {
		for _, t := range list {
			if t.TargetContains(addr) || t.TargetContains(addr.ContainingResource()) {
				return true
			}
		}
		return false
	}
	named := map[string]bool{}
	for _, m := range moves.Moves {
		for _, end := range []addrs.AbsResourceInstance{m.From, m.To} {
			if matched(end) != (option == "target") {
				named[end.ContainingResource().String()] = true
			}
		}
	}
	if len(named) == 0 {
		return nil
	}
	names := make([]string, 0, len(named))
	for name := range named {
		names = append(names, name)
	}
	sort.Strings(names)
	var options strings.Builder
	for _, name := range names {
		fmt.Fprintf(&options, "\n  -%s=%q", option, name)
	}
	const summary = "Moved resource instances excluded by targeting"
	if option == "exclude" {
		return diags.Diagnostics{diags.Errorf(summary,
			"Resource instances in your current state have moved to new addresses in the latest configuration. Terrane must include those resource instances while planning in order to ensure a correct result, but your -exclude=... options exclude some of those resource instances.\n\n"+
				"To create a valid plan, either remove your -exclude=... options altogether or just specifically remove the following options:%s\n\n"+
				"Note that removing these options may include further additional resource instances in your plan, in order to respect object dependencies.", options.String())}
	}
	return diags.Diagnostics{diags.Errorf(summary,
		"Resource instances in your current state have moved to new addresses in the latest configuration. Terrane must include those resource instances while planning in order to ensure a correct result, but your -target=... options do not fully cover all of those resource instances.\n\n"+
			"To create a valid plan, either remove your -target=... options altogether or add the following additional target options:%s\n\n"+
			"Note that adding these options may include further additional resource instances in your plan, in order to respect object dependencies.", options.String())}
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
