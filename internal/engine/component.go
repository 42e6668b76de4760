package engine

import (
	"context"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// recordComponentChildren writes the records of a component's children
// (see providers.ComponentChild) after the component's apply or delete,
// replacing the ones it had; children is nil for every other object. The
// records show what the component consists of; the provider works from the
// component's own record, so a failure here is a warning: the component's
// next apply writes them again.
func (w *walker) recordComponentChildren(addr addrs.AbsResourceInstance, children []providers.ComponentChild) diags.Diagnostics {
	if children == nil || w.e.opts.State == nil {
		return nil
	}
	records := make([]recordstore.ComponentChild, len(children))
	for i, child := range children {
		records[i] = recordstore.ComponentChild{Type: child.TypeToken, Name: child.Name, URN: child.URN, ID: child.ID, OutputsJSON: child.OutputsJSON}
	}
	if err := w.e.opts.State.WriteComponentChildren(context.WithoutCancel(w.ctx), addr.String(), records); err != nil {
		return diags.Diagnostics{diags.Warnf("Cannot record the component's children",
			"The component %s was recorded, but the records of its children could not be written: %s. Its next apply writes them again.", addr, err)}
	}
	return nil
}
