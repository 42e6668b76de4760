package ui

import (
	"fmt"
	"strings"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
)

// legendOrder is the order actions are listed in the symbols legend.
var legendOrder = []plans.Action{
	plans.Create, plans.Update, plans.Delete, plans.DeleteThenCreate, plans.CreateThenDelete,
	plans.Read, plans.CreateThenForget, plans.Forget,
}

func (r *planRenderer) legendLine(action plans.Action) string {
	descriptions := map[plans.Action]string{
		plans.Create:           "create",
		plans.Update:           "update in-place (current -> planned)",
		plans.Delete:           "destroy",
		plans.DeleteThenCreate: "destroy and then create replacement",
		plans.CreateThenDelete: "create replacement and then destroy",
		plans.Read:             "read (data resources)",
		plans.CreateThenForget: "create replacement and then forget",
		plans.Forget:           "forget",
	}
	return actionSymbol(action, r.pal) + " " + descriptions[action]
}

// shownChange reports whether the plan lists a resource change: every real
// change, and no-op changes that move or import an object. Destroying a
// data source's result is no news to anyone. It looks only at the change's
// header, so changes that are not shown are never decoded.
func shownChange(src *plans.ResourceInstanceChangeSrc) bool {
	if src.Action == plans.NoOp && !src.Moved() && src.Importing == nil {
		return false
	}
	return src.Action != plans.Delete || src.Addr.Resource.Resource.Mode != addrs.DataResourceMode
}

// isEmpty reports whether the plan proposes nothing to show.
func (r *planRenderer) isEmpty() bool {
	for _, src := range r.plan.Changes.Resources {
		if src.Action != plans.NoOp || src.Moved() {
			return false
		}
	}
	for _, o := range r.outputs {
		if o.node.action != plans.NoOp {
			return false
		}
	}
	return true
}

func (r *planRenderer) render() {
	mode := r.plan.UIMode
	haveDrift := r.renderDrift()
	changes := r.changes
	counts := map[plans.Action]int{}
	importing, forgetting := 0, 0
	for _, src := range changes {
		if src.Importing != nil {
			importing++
		}
		if src.Action == plans.Forget || src.Action == plans.CreateThenForget {
			forgetting++
		}
		if src.Action != plans.NoOp {
			counts[src.Action]++
		}
	}
	outputs := r.renderOutputs()

	if len(changes) == 0 && outputs == "" {
		// Nothing else can follow: no legend, no diffs, no outputs.
		r.renderNoChanges(mode, haveDrift)
		return
	}
	if haveDrift {
		r.out.WriteString(r.horizontalRule())
	}
	if len(counts) > 0 {
		r.out.WriteString(r.wrap("\n"+productName+" used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:") + "\n")
		for _, action := range legendOrder {
			if counts[action] > 0 {
				r.out.WriteString(r.legendLine(action) + "\n")
			}
		}
	}
	if len(changes) > 0 {
		if r.plan.Errored {
			r.out.WriteString("\n" + productName + " planned the following actions, but then encountered a problem:\n")
		} else {
			r.out.WriteString("\n" + productName + " will perform the following actions:\n")
		}
		for _, src := range changes {
			// Each diff is dropped once written, so memory holds one.
			if d, ok := r.diffResource(src, false); ok {
				r.out.WriteString("\n" + r.renderResource(d, false) + "\n")
			}
		}
		r.out.WriteString(r.summary(counts, importing, forgetting))
	}
	if outputs != "" {
		r.out.WriteString("\nChanges to Outputs:\n" + outputs + "\n")
		if len(counts) == 0 {
			r.out.WriteString(r.wrap("\nYou can apply this plan to save these new output values to the "+productName+" state, without changing any real infrastructure.") + "\n")
		}
	}
}

func (r *planRenderer) summary(counts map[plans.Action]int, importing, forgetting int) string {
	toAdd := counts[plans.Create] + counts[plans.DeleteThenCreate] + counts[plans.CreateThenDelete] + counts[plans.CreateThenForget]
	toDestroy := counts[plans.Delete] + counts[plans.DeleteThenCreate] + counts[plans.CreateThenDelete]
	var parts []string
	if importing > 0 {
		parts = append(parts, fmt.Sprintf("%d to import", importing))
	}
	parts = append(parts, fmt.Sprintf("%d to add", toAdd), fmt.Sprintf("%d to change", counts[plans.Update]), fmt.Sprintf("%d to destroy", toDestroy))
	if forgetting > 0 {
		parts = append(parts, fmt.Sprintf("%d to forget", forgetting))
	}
	return "\n" + r.pal.bold("Plan:") + " " + strings.Join(parts, ", ") + ".\n"
}

// renderNoChanges says why there is nothing to do, in the words that fit
// the planning mode and what refreshing found.
func (r *planRenderer) renderNoChanges(mode plans.Mode, haveDrift bool) {
	if r.plan.Errored {
		if haveDrift {
			r.out.WriteString(r.horizontalRule() + "\n")
		}
		r.out.WriteString("\n" + r.pal.boldRed("Planning failed.") + r.pal.bold(" "+productName+" encountered an error while generating this plan.") + "\n\n")
		return
	}
	switch mode {
	case plans.RefreshOnlyMode:
		if haveDrift {
			return
		}
		r.out.WriteString("\n" + r.pal.boldGreen("No changes.") + r.pal.bold(" Your infrastructure still matches the configuration.") + "\n\n")
		r.out.WriteString(r.wrap(productName+" has checked that the real remote objects still match the result of your most recent changes, and found no differences.") + "\n")
	case plans.DestroyMode:
		if haveDrift {
			r.out.WriteString(r.horizontalRule() + "\n")
		}
		r.out.WriteString("\n" + r.pal.boldGreen("No changes.") + r.pal.bold(" No objects need to be destroyed.") + "\n\n")
		r.out.WriteString(r.wrap("Either you have not created any objects yet or the existing objects were already deleted outside of "+productName+".") + "\n")
	default:
		if haveDrift {
			r.out.WriteString(r.horizontalRule() + "\n")
		}
		r.out.WriteString("\n" + r.pal.boldGreen("No changes.") + r.pal.bold(" Your infrastructure matches the configuration.") + "\n\n")
		if haveDrift {
			r.out.WriteString(r.wrap("Your configuration already matches the changes detected above, so applying this plan will only update the state to include the changes detected above and won't change any real infrastructure.") + "\n")
			return
		}
		r.out.WriteString(r.wrap(productName+" has compared your real infrastructure against your configuration and found no differences, so no changes are needed.") + "\n")
	}
}

// renderDrift reports the objects that changed outside Terrane since the
// last apply, and returns whether it reported any. Drift is diffed twice:
// once to learn whether any is worth showing (stopping at the first), then
// again as each is written, so no more than one diff is held at a time.
func (r *planRenderer) renderDrift() bool {
	if r.isEmpty() && r.plan.UIMode != plans.RefreshOnlyMode {
		return false
	}
	shown := func(d resourceDiff) bool {
		return r.plan.UIMode == plans.RefreshOnlyMode || d.node.action != plans.NoOp
	}
	found := false
	for _, src := range r.drift {
		if d, ok := r.diffResourceQuietly(src); ok && shown(d) {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	r.out.WriteString("\n" + r.pal.bold(r.pal.cyan("Note:")) + r.pal.bold(" Objects have changed outside of "+productName) + "\n\n")
	r.out.WriteString(r.wrap(productName + " detected the following changes made outside of " + productName + " since the last \"terrane apply\" which may have affected this plan:\n"))
	for _, src := range r.drift {
		if d, ok := r.diffResource(src, true); ok && shown(d) {
			r.out.WriteString("\n" + r.renderResource(d, true) + "\n")
		}
	}
	if r.plan.UIMode == plans.RefreshOnlyMode {
		r.out.WriteString(r.wrap("\n\nThis is a refresh-only plan, so "+productName+" will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the "+productName+" state without changing any remote objects.") + "\n")
	} else {
		r.out.WriteString(r.wrap("\n\nUnless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes.") + "\n")
	}
	return true
}

// diffResourceQuietly is diffResource for drift without reporting a change
// it cannot decode: the pass that writes the drift reports it once.
func (r *planRenderer) diffResourceQuietly(src *plans.ResourceInstanceChangeSrc) (resourceDiff, bool) {
	reported := len(r.diags)
	d, ok := r.diffResource(src, true)
	r.diags = r.diags[:reported]
	return d, ok
}

// renderOutputs renders the changed root module outputs, names aligned
// over every output the plan knows, changed or not.
func (r *planRenderer) renderOutputs() string {
	width := 0
	for _, o := range r.outputs {
		width = max(width, len(attributeName(o.name)))
	}
	opts := renderOpts{pal: r.pal, showSensitive: r.showSensitive}
	var lines []string
	for _, o := range r.outputs {
		if o.node.action == plans.NoOp {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s %-*s = %s", actionSymbol(o.node.action, r.pal), width, attributeName(o.name), o.node.render(0, opts)))
	}
	return strings.Join(lines, "\n")
}
