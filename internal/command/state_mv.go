package command

import (
	"context"
	"flag"
	"fmt"

	"github.com/terrane/terrane/internal/states/stateedit"
)

// runStateMv is `terrane state mv [-dry-run] SOURCE DESTINATION`: what
// SOURCE selects moves to DESTINATION in one commit, so that a renamed
// resource or module keeps its remote objects instead of being replaced.
func runStateMv(streams Streams, args []string) int {
	var dryRun *bool
	c, fs := parseStateFlags(streams, "state mv", args, func(fs *flag.FlagSet) {
		dryRun = fs.Bool("dry-run", false, "Print what would move without changing the state")
		addLockFlags(fs)
	})
	if c == nil {
		return 1
	}
	ctx := context.Background()
	snap, d := c.load(ctx)
	defer c.close()
	if d != nil {
		return c.fail(*d)
	}
	if !stateExists(snap) {
		return c.fail(errStateNotFound())
	}
	targets, ds := parseTargets(fs.Args())
	if ds.HasErrors() {
		return c.fail(ds...)
	}
	lines, changes, ds := stateedit.Mv(snap, targets[0], targets[1], fs.Arg(1))
	if ds.HasErrors() {
		return c.fail(ds...)
	}
	verb := "Move"
	if *dryRun {
		verb = "Would move"
	}
	var moves []stateedit.Move
	for _, line := range lines {
		fmt.Fprintf(streams.Stdout, "%s %q to %q\n", verb, line.From, line.To)
		moves = append(moves, line.Instances...)
	}
	if *dryRun {
		if len(lines) == 0 {
			fmt.Fprintln(streams.Stdout, "Would have moved nothing.")
		}
		return 0
	}
	if d := c.commitEdit(ctx, changes); d != nil {
		return c.fail(*d)
	}
	c.relocateComponentChildren(ctx, movedComponents(moves))
	writeLegacyDiagnostics(streams.Stderr, ds, c.color)
	if len(lines) == 0 {
		fmt.Fprintln(streams.Stdout, "No matching objects found.")
		return 0
	}
	fmt.Fprintf(streams.Stdout, "Successfully moved %d object(s).\n", len(lines))
	return 0
}
