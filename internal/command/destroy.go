package command

import (
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
)

// runDestroy is `terrane destroy`: apply in destroy mode, which plans to
// delete every object the workspace's records hold.
func runDestroy(streams views.Streams, args []string) int {
	opts, ds := arguments.ParseDestroy(args)
	return applyCommand(streams, destroyApproval, opts, ds)
}

var destroyApproval = approval{
	command:             "destroy",
	question:            "Do you really want to destroy all resources?",
	questionInWorkspace: "Do you really want to destroy all resources in workspace %q?",
	detail:              "Terrane will destroy all your managed infrastructure, as shown above.\nThere is no undo. Only 'yes' will be accepted to confirm.",
	cancelled:           "Destroy cancelled.",
}
