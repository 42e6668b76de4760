package command

import (
	"context"
	"flag"
	"fmt"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/stateedit"
)

// runStateReplaceProvider is `terrane state replace-provider [-auto-approve]
// FROM TO`: every resource managed by provider FROM is handed to TO, as
// when a provider moves to another namespace or registry.
func runStateReplaceProvider(streams views.Streams, args []string) int {
	var autoApprove *bool
	c, fs := parseStateFlags(streams, "state replace-provider", args, func(fs *flag.FlagSet) {
		autoApprove = fs.Bool("auto-approve", false, "Skip the interactive approval")
		addLockFlags(fs)
	})
	if c == nil {
		return 1
	}
	if fs.NArg() != 2 {
		return c.usageError("state replace-provider", diags.Errorf("Invalid number of arguments", "Exactly two arguments expected"))
	}
	var ds diags.Diagnostics
	from, fromErr := addrs.ParseProviderSource(fs.Arg(0))
	if fromErr != nil {
		ds = ds.Append(diags.Errorf(fmt.Sprintf(`Invalid "from" provider %q`, fs.Arg(0)), "%s", fromErr))
	}
	to, toErr := addrs.ParseProviderSource(fs.Arg(1))
	if toErr != nil {
		ds = ds.Append(diags.Errorf(fmt.Sprintf(`Invalid "to" provider %q`, fs.Arg(1)), "%s", toErr))
	}
	if ds.HasErrors() {
		return c.fail(ds...)
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
	resources, changes := stateedit.PlanReplaceProvider(snap, from, to)
	if len(resources) == 0 {
		fmt.Fprintln(streams.Stdout, "No matching resources found.")
		return 0
	}
	c.view.ReplaceProviderPlan(from, to, resources)
	if !*autoApprove && views.AskInput(streams, c.color, "\nDo you want to make these changes?", "Only 'yes' will be accepted to continue.") != "yes" {
		fmt.Fprintln(streams.Stdout, "Cancelled replacing providers.")
		return 0
	}
	if d := c.commitEdit(ctx, changes); d != nil {
		return c.fail(*d)
	}
	fmt.Fprintf(streams.Stdout, "Successfully replaced provider for %d resources.\n", len(resources))
	return 0
}
