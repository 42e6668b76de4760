package engine

import (
	"sort"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// plannedDependencies gives each prior record of a managed instance the
// plan has a change for the dependencies OpenTofu's refresh gives its
// object (node_resource_plan_instance.go): the configuration's merged with
// the recorded ones, or the configuration's alone when the plan leaves the
// object as it is. show -json prints them in prior_state. Records of
// objects the configuration no longer has, and a refresh-skipping plan's
// changed objects, keep what was recorded. state is the plan's state after
// moved blocks moved objects.
func (w *walker) plannedDependencies(g *graph, plan *plans.Plan, state *states.State) {
	changes := make(map[string]*plans.ResourceInstanceChangeSrc, len(plan.Changes.Resources))
	for _, c := range plan.Changes.Resources {
		if c.DeposedKey == addrs.NotDeposed && c.Addr.Resource.Resource.Mode == addrs.ManagedResourceMode {
			// Records are named where the previous run left their objects.
			changes[c.PrevRunAddr.String()] = c
		}
	}
	if len(changes) == 0 {
		return
	}
	closure := newResourceClosure(g)
	for i := range plan.PriorRecords {
		record := &plan.PriorRecords[i]
		change := changes[record.Name]
		if change == nil || (w.planOpts.SkipRefresh && change.Action != plans.NoOp) {
			continue
		}
		key := change.Addr.ContainingResource().Config().String()
		if _, configured := g.vertices[key].(*resourceVertex); !configured {
			continue
		}
		deps := map[string]bool{}
		for k := range closure.of(key) {
			if dependable(g.vertices[k]) {
				deps[k] = true
			}
		}
		if change.Action != plans.NoOp {
			if inst := state.ResourceInstance(change.Addr); inst != nil && inst.Current != nil {
				for _, dep := range inst.Current.Dependencies {
					deps[dep.String()] = true
				}
			}
		}
		record.PlannedDependencies = make([]string, 0, len(deps))
		for dep := range deps {
			record.PlannedDependencies = append(record.PlannedDependencies, dep)
		}
		sort.Strings(record.PlannedDependencies)
		record.DependenciesPlanned = true
	}
}
