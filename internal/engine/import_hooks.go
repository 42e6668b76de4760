package engine

import "github.com/terrane/terrane/internal/addrs"

// ImportHook is the part of a Hook that hears about imports: of an import
// block while planning and applying, and of `terrane import`, which says
// it in other words.
type ImportHook interface {
	// PreImport comes before the provider's ImportResourceState.
	PreImport(addr addrs.AbsResourceInstance, id string, commandLine bool)
	// PostImport comes after it, with the types of the objects returned.
	PostImport(addr addrs.AbsResourceInstance, typeNames []string, commandLine bool)
	// PreApplyImport and PostApplyImport frame the recording of an
	// imported object while applying.
	PreApplyImport(addr addrs.AbsResourceInstance, id string)
	PostApplyImport(addr addrs.AbsResourceInstance, id string)
}

func (w *walker) importHooks(f func(ImportHook)) {
	for _, h := range w.e.opts.Hooks {
		if ih, ok := h.(ImportHook); ok {
			f(ih)
		}
	}
}

// justImported reports whether this plan imported addr's object.
func (w *walker) justImported(addr addrs.AbsResourceInstance) bool {
	if w.refactor == nil {
		return false
	}
	w.refactor.mu.Lock()
	defer w.refactor.mu.Unlock()
	return w.refactor.imported[addr.String()] != nil
}
