package command

import (
	"strings"

	"github.com/terrane/terrane/internal/diags"
)

// claimSummaryPrefix starts the warning the engine gives for an instance
// another live run holds an intent on (engine.Conflict recognises it too).
const claimSummaryPrefix = "Another run is changing "

// claimsLeftAlone turns the warnings about instances another run is
// changing into errors, once each, for an apply: the apply left those
// instances alone, so it did not do all it was asked to, and its exit
// status must say so (there is no lock to fail on first, as in OpenTofu;
// the rest of the plan was applied). The plan and the apply both meet a
// claim, so it is reported once.
func claimsLeftAlone(ds diags.Diagnostics) diags.Diagnostics {
	out := make(diags.Diagnostics, 0, len(ds))
	seen := map[string]bool{}
	for _, d := range ds {
		if !strings.HasPrefix(d.Summary, claimSummaryPrefix) {
			out = append(out, d)
			continue
		}
		if seen[d.Address] {
			continue
		}
		seen[d.Address] = true
		d.Severity = diags.Error
		d.Detail += " This apply did not change it: run it again once that run has finished, or give -lock-timeout=DURATION to wait for it."
		out = append(out, d)
	}
	return out
}
