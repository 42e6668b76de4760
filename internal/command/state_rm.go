package command

import (
	"context"
	"flag"
	"fmt"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/stateedit"
)

// runStateRm is `terrane state rm [-dry-run] ADDR...`: Terrane forgets the
// selected instances without destroying their remote objects. It also
// resolves an open create intent left by an interrupted run, for an object
// that does not exist or that will be imported again.
func runStateRm(streams views.Streams, args []string) int {
	var dryRun *bool
	c, fs := parseStateFlags(streams, "state rm", args, func(fs *flag.FlagSet) {
		dryRun = fs.Bool("dry-run", false, "Print what would be removed without changing the state")
		addLockFlags(fs)
	})
	if c == nil {
		return 1
	}
	if fs.NArg() == 0 {
		return c.usageError("state rm", diags.Errorf("Invalid number of arguments", "At least one address is required"))
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
	// As in OpenTofu, addresses that match nothing are not errors one by
	// one; only when nothing at all matched.
	targets, ds := parseTargets(fs.Args())
	found, lookupDiags := stateedit.LookupAll(snap.State, targets, true)
	if ds = ds.Append(lookupDiags); ds.HasErrors() {
		return c.fail(ds...)
	}
	verb := "Removed"
	if *dryRun {
		verb = "Would remove"
	}
	for _, addr := range found {
		text := fmt.Sprintf("%s %s", verb, addr)
		c.view.Info(text, text)
	}
	if *dryRun {
		if len(found) == 0 {
			c.view.Info("Would have removed nothing.", "Would have removed nothing")
		}
		return 0
	}
	if len(found) == 0 {
		return c.fail(append(ds, diags.Errorf("Invalid target address",
			`No matching objects found. To view the available instances, use "terrane state list". Please modify the address to reference a specific instance.`))...)
	}
	if d := c.commitEdit(ctx, removals(snap, found)); d != nil {
		return c.fail(*d)
	}
	c.relocateComponentChildren(ctx, removedComponents(found))
	c.view.Diagnostics(ds)
	c.view.Info(fmt.Sprintf("Successfully removed %d resource instance(s).", len(found)), fmt.Sprintf("Successfully removed %d resource instance(s)", len(found)))
	return 0
}

// removals deletes the records of the instances found, each once.
func removals(snap *recordstore.Snapshot, found []addrs.AbsResourceInstance) []recordstore.InstanceChange {
	seen := map[string]bool{}
	var changes []recordstore.InstanceChange
	for _, addr := range found {
		key := addr.String()
		if seen[key] {
			continue
		}
		seen[key] = true
		prior := snap.InstanceVersions[key]
		res := snap.State.Resource(addr.ContainingResource())
		changes = append(changes, recordstore.InstanceChange{Addr: addr, ProviderConfig: res.ProviderConfig, Prior: &prior})
	}
	return changes
}
