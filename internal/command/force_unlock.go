package command

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine/journal"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/ui"
)

// runForceUnlock is `terrane force-unlock [-force] RUN_ID`. Terrane has no
// state lock: a run claims only the instances it is changing, each with an
// open intent naming the run, and gives each up as its provider call ends.
// A run that stopped for good on another host leaves claims other runs
// respect until they lapse (journal.DefaultClaimTTL). This releases them
// now: the run's open intents are marked released (journal.ReleasedHolder),
// so the next plan resolves them as any interrupted run's. The intents
// themselves stay until then: whether their calls happened is not known
// yet. A run whose process is still alive on this host is never released.
func runForceUnlock(streams views.Streams, args []string) int {
	fs := newFlagSet("force-unlock", streams)
	force := fs.Bool("force", false, "Do not ask for confirmation")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	if err := fs.Parse(args); err != nil {
		return flagParseError(streams.Stderr, err, ui.ColorEnabled(*noColor))
	}
	color := ui.ColorEnabled(*noColor)
	c := &stateCommand{streams: streams, color: color, view: views.NewState(streams, color, false)}
	if fs.NArg() != 1 {
		return c.fail(diags.Errorf("Run ID required",
			"terrane force-unlock takes the ID of the run whose claims to release, as the warning \"Another run is changing ...\" names it: terrane force-unlock RUN_ID."))
	}
	runID := fs.Arg(0)
	ctx := context.Background()
	snap, d := c.load(ctx)
	defer c.close()
	if d != nil {
		return c.fail(*d)
	}
	changes, holder := releaseChanges(snap, runID)
	if len(changes) == 0 {
		return c.fail(diags.Errorf("No claims to release",
			"Terrane has no global state lock to unlock: a run claims only the resource instances it is changing, with an open intent on each, and releases each as its provider call ends. Workspace %q has no open intent of run %q, so nothing holds it back. The warning \"Another run is changing ADDR\" names the run that holds an address.",
			c.workspace, runID))
	}
	if journal.RunningHere(holder) {
		return c.fail(diags.Errorf("Run still running",
			"Run %s is still running here, in process %s, so its claims stand: releasing them would let another run change the same objects at the same time. Let it finish, or stop that process first.",
			runID, holder))
	}
	addresses := make([]string, len(changes))
	for i, change := range changes {
		addresses[i] = change.Addr.String()
	}
	if !*force && !views.Confirm(streams, "Do you really want to force-unlock?",
		fmt.Sprintf("Terrane will release the claims of run %s on:\n    %s\n  Another run may then change these objects, even if run %s is in fact\n  still working on them.", runID, strings.Join(addresses, "\n    "), runID)) {
		fmt.Fprintln(streams.Stdout, "force-unlock cancelled.")
		return 1
	}
	if d := c.commit(ctx, changes); d != nil {
		return c.fail(*d)
	}
	fmt.Fprintf(streams.Stdout, "Released the claims of run %s on %d resource instance(s):\n", runID, len(changes))
	for _, address := range addresses {
		fmt.Fprintf(streams.Stdout, "  %s\n", address)
	}
	fmt.Fprintln(streams.Stdout, ui.WordWrap("\nOther runs can now change these objects. The next plan resolves each interrupted operation: updates and deletes are read back from the provider, and a create whose outcome is unknown is reported until it is imported or removed with \"terrane state rm\".", ui.Width(streams.Stdout)))
	return 0
}

// releaseChanges are the record changes that mark every open intent of
// run runID released, in address order, and the holder they named.
func releaseChanges(snap *recordstore.Snapshot, runID string) ([]recordstore.InstanceChange, string) {
	var changes []recordstore.InstanceChange
	holder := ""
	for _, entry := range snap.State.AllResourceInstances() {
		intent := entry.Instance.Intent
		if intent == nil || intent.RunID != runID || intent.Holder == journal.ReleasedHolder {
			continue
		}
		if holder == "" {
			holder = intent.Holder
		}
		next := entry.Instance.DeepCopy()
		next.Intent.Holder = journal.ReleasedHolder
		prior := snap.InstanceVersions[entry.Addr.String()]
		changes = append(changes, recordstore.InstanceChange{Addr: entry.Addr, ProviderConfig: entry.ProviderConfig, Instance: next, Prior: &prior})
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Addr.Less(changes[j].Addr) })
	return changes, holder
}
