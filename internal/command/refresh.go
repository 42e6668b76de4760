package command

import "github.com/terrane/terrane/internal/command/arguments"

// runRefresh is `terrane refresh`: `apply -refresh-only -auto-approve`,
// which updates the records to match the remote objects without changing
// any of them.
func runRefresh(streams Streams, args []string) int {
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
