package command

import (
	"context"
	"flag"
	"fmt"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/stateedit"
)

// runStateMv is `terrane state mv [-dry-run] SOURCE DESTINATION`: the
// instances at SOURCE move to DESTINATION in one commit, so that a renamed
// resource or module keeps its remote objects instead of being replaced.
func runStateMv(streams Streams, args []string) int {
	var dryRun *bool
	c, fs := parseStateFlags(streams, "state mv", args, func(fs *flag.FlagSet) {
		dryRun = fs.Bool("dry-run", false, "Print what would move without changing the state")
	})
	if c == nil {
		return 1
	}
	if fs.NArg() != 2 {
		return c.fail(diags.Errorf("Source and destination required",
			"terrane state mv takes two addresses, the source and the destination, such as: terrane state mv aws_instance.old aws_instance.new; got %d arguments.", fs.NArg()))
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
	moves, changes, err := stateedit.PlanMove(snap, targets[0], targets[1])
	if err != nil {
		return c.fail(diags.Errorf("Invalid state move", "In workspace %q, %s.", c.workspace, err))
	}
	verb := "Move"
	if *dryRun {
		verb = "Would move"
	}
	for _, move := range moves {
		fmt.Fprintf(streams.Stdout, "%s %q to %q\n", verb, move.From.String(), move.To.String())
	}
	if *dryRun {
		return 0
	}
	if d := c.commit(ctx, changes); d != nil {
		return c.fail(*d)
	}
	c.relocateComponentChildren(ctx, movedComponents(moves))
	fmt.Fprintf(streams.Stdout, "Successfully moved %d object(s).\n", len(moves))
	return 0
}
