package command

import (
	"context"
	"flag"
	"fmt"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/stateedit"
)

// runStateRm is `terrane state rm [-dry-run] ADDR...`: Terrane forgets the
// selected instances without destroying their remote objects. It also
// resolves an open create intent left by an interrupted run, for an object
// that does not exist or that will be imported again.
func runStateRm(streams Streams, args []string) int {
	var dryRun *bool
	c, fs := parseStateFlags(streams, "state rm", args, func(fs *flag.FlagSet) {
		dryRun = fs.Bool("dry-run", false, "Print what would be removed without changing the state")
	})
	if c == nil {
		return 1
	}
	if fs.NArg() == 0 {
		return c.fail(diags.Errorf("Address required",
			"terrane state rm takes the addresses of the resources, instances or modules to forget, such as: terrane state rm aws_instance.web[0]."))
	}
	targets, ds := parseTargets(fs.Args())
	if ds.HasErrors() {
		return c.fail(ds...)
	}
	ctx := context.Background()
	snap, d := c.load(ctx)
	defer c.close()
	if d != nil {
		return c.fail(*d)
	}
	removed, changes, err := stateedit.PlanRemove(snap, targets)
	if err != nil {
		return c.fail(diags.Errorf("Invalid target address", "In workspace %q, %s.", c.workspace, err))
	}
	verb := "Removed"
	if *dryRun {
		verb = "Would remove"
	}
	for _, addr := range removed {
		fmt.Fprintf(streams.Stdout, "%s %s\n", verb, addr)
	}
	if *dryRun {
		return 0
	}
	if d := c.commit(ctx, changes); d != nil {
		return c.fail(*d)
	}
	c.relocateComponentChildren(ctx, removedComponents(removed))
	fmt.Fprintf(streams.Stdout, "Successfully removed %d resource instance(s).\n", len(removed))
	return 0
}
