package engine

import (
	"github.com/terrane/terrane/internal/addrs"
)

// ImportHook is the part of a Hook that hears about import blocks: an
// object about to be imported while planning, and an imported object being
// recorded while applying. id is the import ID the block gave. Hooks that
// do not implement it hear nothing of imports.
type ImportHook interface {
	PrePlanImport(addr addrs.AbsResourceInstance, id string)
	PreApplyImport(addr addrs.AbsResourceInstance, id string)
	PostApplyImport(addr addrs.AbsResourceInstance, id string)
}

func (e *Engine) importHooks(each func(ImportHook)) {
	for _, h := range e.opts.Hooks {
		if ih, ok := h.(ImportHook); ok {
			each(ih)
		}
	}
}
