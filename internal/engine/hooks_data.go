package engine

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
)

// hookDataRead reports a data source read to the hooks as an apply of
// action read, when it starts and (through the returned function) when it
// ends, as Terraform reports reads made while planning and while applying.
func (w *walker) hookDataRead(addr addrs.AbsResourceInstance, objectType cty.Type) func(cty.Value, diags.Diagnostics) {
	none := cty.NullVal(objectType)
	for _, h := range w.e.opts.Hooks {
		h.PreApply(addr, addrs.NotDeposed, plans.Read, none, none)
	}
	return func(val cty.Value, ds diags.Diagnostics) {
		w.hooksPostApply(addr, addrs.NotDeposed, val, ds.Err())
	}
}
