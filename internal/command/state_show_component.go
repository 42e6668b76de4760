package command

import (
	"context"
	"fmt"
	"io"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
)

// showComponentChildren lists, after a component resource's object, the
// resources the component created (its ComponentChild records). They are
// the provider's resources, not Terraform resources, so they appear only
// here: state list, state pull and show leave them out.
func (c *stateCommand) showComponentChildren(ctx context.Context, w io.Writer, addr addrs.AbsResourceInstance) diags.Diagnostics {
	children, err := c.store.ComponentChildren(ctx, addr.String())
	if err != nil {
		return diags.Diagnostics{diags.Warnf("Cannot list the component's children", "Reading the children of %s: %s.", addr, err)}
	}
	if len(children) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\n# Children of %s (created by the component):\n", addr)
	for _, child := range children {
		fmt.Fprintf(w, "#   %s %q\n#     id      = %q\n#     urn     = %q\n#     outputs = %s\n", child.Type, child.Name, child.ID, child.URN, child.OutputsJSON)
	}
	return nil
}
