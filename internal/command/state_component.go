package command

import (
	"context"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/stateedit"
	"github.com/terrane/terrane/internal/ui"
)

// showComponentChildren lists, after a component resource's object, the
// resources the component created (its ComponentChild records). They are
// the provider's resources, not Terraform resources, so they appear only
// here: state list, state pull and show leave them out.
func (c *stateCommand) showComponentChildren(ctx context.Context, addr addrs.AbsResourceInstance) diags.Diagnostics {
	children, err := c.store.ComponentChildren(ctx, addr.String())
	if err != nil {
		return diags.Diagnostics{diags.Warnf("Cannot list the component's children", "Reading the children of %s: %s.", addr, err)}
	}
	c.view.ComponentChildren(addr, children)
	return nil
}

// relocateComponentChildren makes the child records of components follow
// a state rm or mv (moved maps an old address to the new one, or to ""
// when removed). The instances are already written, so a failure is a
// warning: the records are informational, and the component's next apply
// rewrites them.
func (c *stateCommand) relocateComponentChildren(ctx context.Context, moved map[string]string) {
	if err := c.store.RelocateComponentChildren(ctx, moved); err != nil {
		ui.WriteDiagnostics(c.streams.Stderr, diags.Diagnostics{diags.Warnf("Component children not moved",
			"The state was changed, but the records of the components' children could not follow: %s.", err)}, nil, c.color)
	}
}

func removedComponents(removed []addrs.AbsResourceInstance) map[string]string {
	moved := make(map[string]string, len(removed))
	for _, addr := range removed {
		moved[addr.String()] = ""
	}
	return moved
}

func movedComponents(moves []stateedit.Move) map[string]string {
	moved := make(map[string]string, len(moves))
	for _, move := range moves {
		moved[move.From.String()] = move.To.String()
	}
	return moved
}
