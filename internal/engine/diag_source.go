package engine

import (
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// withResourceSource gives a provider's diagnostics about a resource the
// source range OpenTofu gives them: the place in the resource's
// configuration their attribute path leads to (diags.InConfigBody).
// Diagnostics that already have a range keep it.
func withResourceSource(ds diags.Diagnostics, res *config.Resource) diags.Diagnostics {
	if res == nil || len(ds) == 0 {
		return ds
	}
	if kept, rest := splitSourceless(ds); len(kept) > 0 {
		return append(kept, withResourceSource(rest, res)...)
	}
	if res.Config == nil {
		out := make(diags.Diagnostics, len(ds))
		for i, d := range ds {
			if d.Subject == nil && !d.Standalone {
				d.Subject = res.DeclRange.Ptr()
			}
			out[i] = d
		}
		return out
	}
	return ds.InConfigBody(res.Config)
}

// withAddress gives the diagnostics that have no address addr, except
// those OpenTofu reports without one.
func withAddress(ds diags.Diagnostics, addr string) diags.Diagnostics {
	kept, rest := splitSourceless(ds)
	return append(kept, rest.WithAddress(addr)...)
}

// splitSourceless separates the diagnostics marked Sourceless from the
// others, keeping each group's order.
func splitSourceless(ds diags.Diagnostics) (sourceless, rest diags.Diagnostics) {
	for _, d := range ds {
		if d.Sourceless {
			sourceless = append(sourceless, d)
		} else {
			rest = append(rest, d)
		}
	}
	return sourceless, rest
}
