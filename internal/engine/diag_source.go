package engine

import (
	"github.com/terrane/terrane/internal/addrs"
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
	if res.Config == nil {
		out := make(diags.Diagnostics, len(ds))
		for i, d := range ds {
			if d.Subject == nil {
				d.Subject = res.DeclRange.Ptr()
			}
			out[i] = d
		}
		return out
	}
	return ds.InConfigBody(res.Config)
}

// instanceDiags places the diagnostics of planning or applying the
// instance addr of res as OpenTofu does: those without a source range (a
// provider's, about an attribute or the whole block) are placed in the
// block and name the instance ("with ..."); those the engine made about a
// place in the configuration stay as they are.
func instanceDiags(ds diags.Diagnostics, res *config.Resource, addr addrs.AbsResourceInstance) diags.Diagnostics {
	out := make(diags.Diagnostics, len(ds))
	for i, d := range ds {
		if d.Subject == nil && d.Address == "" && !d.Sourceless {
			d.Address = addr.String()
		}
		out[i] = d
	}
	return withResourceSource(out, res)
}
