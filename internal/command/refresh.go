package command

import (
	"context"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
)

// runRefresh is `terrane refresh`: `apply -refresh-only -auto-approve`,
// which updates the records to match the remote objects without changing
// any of them.
func runRefresh(streams views.Streams, args []string) int {
	opts, ds := arguments.ParseRefresh(args)
	return applyCommand(streams, refreshApproval, opts, ds)
}

var refreshApproval = approval{
	command:             "refresh",
	question:            refreshOnlyApproval.question,
	questionInWorkspace: refreshOnlyApproval.questionInWorkspace,
	detail:              refreshOnlyApproval.detail,
	cancelled:           "Refresh cancelled.",
	// OpenTofu's refresh reports the refreshed outputs and nothing of the
	// plan behind it (views.Refresh).
	outputsOnly: true,
}

// emptyStateWarning is OpenTofu's warning for a refresh of a state that
// tracks no managed object, or nothing when it tracks some.
func emptyStateWarning(op *operation) diags.Diagnostics {
	snap, err := op.Store.Load(context.Background())
	if err != nil {
		return nil
	}
	for _, entry := range snap.State.AllResourceInstances() {
		if entry.Addr.Resource.Resource.Mode == addrs.ManagedResourceMode && (entry.Instance.Current != nil || len(entry.Instance.Deposed) > 0) {
			return nil
		}
	}
	return diags.Diagnostics{diags.Warnf("Empty or non-existent state",
		"There are currently no remote objects tracked in the state, so there is nothing to refresh.")}
}
