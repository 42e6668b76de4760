package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
)

// renderResource renders one resource instance change: the comment lines
// saying what happens and why, then the resource block with its diff.
func (r *planRenderer) renderResource(d resourceDiff, drift bool) string {
	action := d.action()
	opts := renderOpts{pal: r.pal, showUnchanged: d.change.Importing != nil, showSensitive: r.showSensitive}
	if action == plans.Forget {
		// A forgotten object is shown whole, as it goes from the state, but
		// without the symbols and "-> null" of a destroy: it stays where
		// it is.
		opts.hideSymbols, opts.noNullSuffix = true, true
	}
	mode := "resource"
	if d.isData() {
		mode = "data"
	}
	resource := d.header.Addr.Resource.Resource
	return fmt.Sprintf("%s%s %s %q %q %s", r.changeComment(d, drift), actionSymbol(action, r.pal), mode, resource.Type, resource.Name, d.node.render(0, opts))
}

// changeComment is the "# addr will be …" line and the lines under it that
// give the reason, the previous address and the import source.
func (r *planRenderer) changeComment(d resourceDiff, drift bool) string {
	var b strings.Builder
	name := d.header.ObjectName()
	subject := r.pal.bold("  # " + name)
	movedShown := false
	switch action := d.action(); action {
	case plans.Create:
		b.WriteString(subject + " will be created")
	case plans.Read:
		b.WriteString(subject + " will be read during apply")
		b.WriteString(readReason(d.header.ActionReason))
	case plans.Update:
		if drift {
			b.WriteString(subject + " has changed")
		} else {
			b.WriteString(subject + " will be updated in-place")
		}
	case plans.DeleteThenCreate, plans.CreateThenDelete, plans.CreateThenForget, plans.ForgetThenCreate:
		b.WriteString(subject + r.replaceReason(d.header.ActionReason))
		if action == plans.CreateThenForget || action == plans.ForgetThenCreate {
			b.WriteString(" - " + r.pal.yellow("older instance will ") + r.pal.style(ansiBold+ansiYellow, "not") + r.pal.yellow(" be destroyed ") +
				"(" + r.pal.bold("lifecycle.destroy = false") + ")")
		}
		b.WriteString(leftOver(d.header))
	case plans.Delete:
		if drift {
			b.WriteString(subject + " has been deleted")
		} else {
			b.WriteString(subject + " will be " + r.pal.boldRed("destroyed"))
		}
		b.WriteString(deleteReason(d.header))
		b.WriteString(leftOver(d.header))
	case plans.Forget:
		b.WriteString(subject + " will be removed from the " + productName + " state " + r.pal.boldRed("but will not be destroyed"))
		switch d.header.ActionReason {
		case plans.ForgotBecauseLifecycleDestroyInState:
			b.WriteString(" \n (because " + r.pal.bold("lifecycle.destroy = false") + " was configured before this resource was removed from the configuration)")
		case plans.ForgotBecauseLifecycleDestroyInConfig:
			b.WriteString(" \n (because " + r.pal.bold("lifecycle.destroy = false") + " is set in the configuration)")
		}
		b.WriteString(leftOver(d.header))
	default: // NoOp: shown only for moves and imports
		switch {
		case d.header.Moved():
			b.WriteString(r.pal.bold("  # "+d.header.PrevRunAddr.String()) + " has moved to " + r.pal.bold(name))
			movedShown = true
		case d.change.Importing != nil:
			b.WriteString(subject + " will be imported")
			if d.change.GeneratedConfig != "" {
				b.WriteString("\n  # (config will be generated)")
			}
		}
	}
	b.WriteString("\n")
	if d.header.Moved() && !movedShown {
		fmt.Fprintf(&b, "  # (moved from %s)\n", d.header.PrevRunAddr)
	}
	if importing := d.change.Importing; importing != nil {
		b.WriteString(importSource(importing))
		if d.action().IsReplace() {
			b.WriteString("  # " + r.pal.yellow("Warning: this will destroy the imported resource") + "\n")
		}
	}
	return b.String()
}

func (r *planRenderer) replaceReason(reason plans.ActionReason) string {
	replaced := r.pal.boldRed("replaced")
	switch reason {
	case plans.ReplaceBecauseTainted:
		return " is tainted, so it must be " + replaced
	case plans.ReplaceByRequest:
		return " will be " + replaced + ", as requested"
	case plans.ReplaceByTriggers:
		return " will be " + replaced + " due to changes in replace_triggered_by"
	default:
		return " must be " + replaced
	}
}

func readReason(reason plans.ActionReason) string {
	switch reason {
	case plans.ReadBecauseConfigUnknown:
		return "\n  # (config refers to values not yet known)"
	case plans.ReadBecauseDependencyPending:
		return "\n  # (depends on a resource or a module with changes pending)"
	case plans.ReadBecauseCheckNested:
		return "\n  # (config will be reloaded to verify a check block)"
	}
	return ""
}

// deleteReason explains a destroy on its own line, so the "will be
// destroyed" line reads the same in every case and is easy to spot.
func deleteReason(h plans.ResourceInstanceChangeHeader) string {
	resource := h.Addr.Resource
	switch h.ActionReason {
	case plans.DeleteBecauseNoResourceConfig:
		return fmt.Sprintf("\n  # (because %s is not in configuration)", resource.Resource)
	case plans.DeleteBecauseNoMoveTarget:
		return fmt.Sprintf("\n  # (because %s was moved to %s, which is not in configuration)", h.PrevRunAddr, h.Addr)
	case plans.DeleteBecauseNoModule:
		return fmt.Sprintf("\n  # (because %s is not in configuration)", h.Addr.Module)
	case plans.DeleteBecauseEnabledFalse:
		return "\n  # (because enabled is false)"
	case plans.DeleteBecauseWrongRepetition:
		switch resource.Key.(type) {
		case addrs.IntKey:
			return "\n  # (because resource does not use count)"
		case addrs.StringKey:
			return "\n  # (because resource does not use for_each)"
		default:
			return "\n  # (because resource uses count or for_each)"
		}
	case plans.DeleteBecauseCountIndex:
		return fmt.Sprintf("\n  # (because index %s is out of range for count)", resource.Key)
	case plans.DeleteBecauseEachKey:
		return fmt.Sprintf("\n  # (because key %s is not in for_each map)", resource.Key)
	}
	return ""
}

// leftOver explains a deposed object: one kept from a create-before-destroy
// replacement that failed part way.
func leftOver(h plans.ResourceInstanceChangeHeader) string {
	if h.DeposedKey == addrs.NotDeposed {
		return ""
	}
	return "\n  # (left over from a partially-failed replacement of this instance)"
}

// importSource says what an imported object is found by.
func importSource(importing *plans.Importing) string {
	switch {
	case importing.ID != "":
		return fmt.Sprintf("  # (imported from %q)\n", importing.ID)
	case importing.Identity != cty.NilVal && !importing.Identity.IsNull() && importing.Identity.IsWhollyKnown():
		encoded, err := ctyjson.Marshal(importing.Identity, importing.Identity.Type())
		var indented bytes.Buffer
		if err == nil && json.Indent(&indented, encoded, "  # ", "  ") == nil {
			return "  # imported using resource identity: " + indented.String() + "\n"
		}
		return "  # imported using resource identity\n"
	default:
		return "  # (will be imported first)\n"
	}
}
