package command

import (
	"context"
	"flag"
	"fmt"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/stateedit"
)

// runStateMv is `terrane state mv [-dry-run] SOURCE DESTINATION`: what
// SOURCE selects moves to DESTINATION in one commit, so that a renamed
// resource or module keeps its remote objects instead of being replaced.
func runStateMv(streams views.Streams, args []string) int {
	var dryRun *bool
	c, fs := parseStateFlags(streams, "state mv", args, func(fs *flag.FlagSet) {
		dryRun = fs.Bool("dry-run", false, "Print what would move without changing the state")
		addLockFlags(fs)
	})
	if c == nil {
		return 1
	}
	if fs.NArg() != 2 {
		return c.usageError("state mv", diags.Errorf("Invalid number of arguments", "Exactly two arguments expected"))
	}
	if c.versionRefused() {
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
		text := fmt.Sprintf("%s %q to %q", verb, line.From, line.To)
		c.view.Info(text, text)
		moves = append(moves, line.Instances...)
	}
	if *dryRun {
		if len(lines) == 0 {
			c.view.Info("Would have moved nothing.", "Would have moved nothing")
		}
		return 0
	}
	if d := c.commitEdit(ctx, changes); d != nil {
		return c.fail(*d)
	}
	c.relocateComponentChildren(ctx, movedComponents(moves))
	c.view.Diagnostics(ds)
	if len(lines) == 0 {
		c.view.Info("No matching objects found.", "No matching objects found")
		return 0
	}
	c.view.Info(fmt.Sprintf("Successfully moved %d object(s).", len(lines)), fmt.Sprintf("Successfully moved %d object(s)", len(lines)))
	return 0
}
