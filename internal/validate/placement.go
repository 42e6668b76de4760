package validate

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/diags"
)

// This file places provider diagnostics, which carry attribute paths, on
// the configuration text they are about.

// placeProviderDiags gives a provider's diagnostics about a configuration
// body the place in it OpenTofu gives them (diags.InConfigBody) and the
// address of what they are about.
func placeProviderDiags(ds diags.Diagnostics, body hcl.Body, addr string) diags.Diagnostics {
	if len(ds) == 0 {
		return nil
	}
	out := ds.InConfigBody(body)
	for i := range out {
		if out[i].Address == "" {
			out[i].Address = addr
		}
	}
	return out
}

// isEmptyBody reports whether a block body sets nothing.
func isEmptyBody(body hcl.Body) bool {
	if body == nil {
		return true
	}
	_, diags := body.Content(&hcl.BodySchema{})
	return !diags.HasErrors()
}
