package engine

import (
	"fmt"
	"strings"

	"github.com/terrane/terrane/internal/diags"
)

// The summaries of the diagnostics that report conflicts with other runs;
// Conflict recognises them.
const (
	staleSummary = "Saved plan is stale"
	// changedUnderRunSummary is staleSummary for a plan the run made
	// itself: no saved plan was given, another run changed the state
	// between this run's plan and its apply.
	changedUnderRunSummary = "State changed since this run planned"
	changedSummary         = "Another run changed this resource instance"
	// claimPrefix starts the journal's warning about an instance another
	// live run holds an intent on.
	claimPrefix = "Another run is changing "
)

// ConflictError says a run met another run's changes to the same records.
// Terrane takes no lock (docs/architecture.md, "No global lock"): runs find out about
// each other through compare-and-swap writes, plan generations and open
// intents, and a command may wait and plan again when that happens.
type ConflictError struct {
	// Stale are the records a saved plan was made from that changed since.
	Stale []string
	// Changed are the records another run wrote while this one applied.
	Changed []string
	// Claimed are instances another live run is changing; a plan leaves
	// them out.
	Claimed []string
	// OnlyConflicts is true when the conflicts are the only errors: the
	// run did nothing else wrong, so planning again once the other run has
	// finished can succeed.
	OnlyConflicts bool
}

func (e *ConflictError) Error() string {
	var parts []string
	for _, group := range []struct {
		what  string
		addrs []string
	}{{"changed since the plan was made", e.Stale}, {"changed by another run during this one", e.Changed}, {"is being changed by another run", e.Claimed}} {
		if len(group.addrs) > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", strings.Join(group.addrs, ", "), group.what))
		}
	}
	return strings.Join(parts, "; ")
}

// Conflict returns a *ConflictError naming what ds reports as conflicts
// with other runs (a stale saved plan, a record another run wrote first,
// an instance another live run is changing), or nil when it reports none.
// Check it with errors.As.
func Conflict(ds diags.Diagnostics) error {
	conflict := &ConflictError{OnlyConflicts: true}
	for _, d := range ds {
		switch {
		case d.Severity == diags.Error && (d.Summary == staleSummary || d.Summary == changedUnderRunSummary):
			conflict.Stale = append(conflict.Stale, d.Address)
		case d.Severity == diags.Error && d.Summary == changedSummary:
			conflict.Changed = append(conflict.Changed, d.Address)
		case strings.HasPrefix(d.Summary, claimPrefix):
			conflict.Claimed = append(conflict.Claimed, d.Address)
		case d.Severity == diags.Error:
			conflict.OnlyConflicts = false
		}
	}
	if len(conflict.Stale)+len(conflict.Changed)+len(conflict.Claimed) == 0 {
		return nil
	}
	return conflict
}
