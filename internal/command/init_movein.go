package command

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states/foreignstate"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// pendingState is a foreign state init may take in, with the workspace's
// records it would replace.
type pendingState struct {
	source *foreignstate.Source
	store  *recordstore.Store
	snap   *recordstore.Snapshot
}

// moveIn finds state Terraform or OpenTofu keep for this configuration (a
// terraform.tfstate, a backend "local" block's files, a backend "http"
// block's address) that the store has not taken in, and offers to take it
// in, as tofu init offers to migrate state to a newly configured backend:
// -force-copy answers yes. A workspace that already holds state is
// replaced only with -force-copy.
func (in *initializer) moveIn(ctx context.Context, root *config.Module, service *resourceservice.Service, project string, enc *encryption.Encryption) diags.Diagnostics {
	pending, ds := findPendingState(ctx, root, service, project, enc)
	if ds.HasErrors() || len(pending) == 0 {
		return ds
	}
	var occupied, described []string
	for _, p := range pending {
		described = append(described, fmt.Sprintf("%s (workspace %q: %d resource instances, %d outputs)",
			p.source.Where, p.source.Workspace, len(p.source.File.State.AllResourceInstances()), len(p.source.File.State.Outputs)))
		if !snapshotEmpty(p.snap) {
			occupied = append(occupied, p.source.Workspace)
		}
	}
	switch {
	case len(occupied) > 0 && !in.opts.ForceCopy:
		return ds.Append(diags.Errorf("State kept outside Terrane differs from the store's",
			"Terraform or OpenTofu keep state for this configuration that Terrane has not taken in:\n  %s\n\n"+
				"Workspace(s) %s of project %q in the store already hold state, which taking it in would replace. Nothing was changed.\n\n"+
				"To replace the store's state with it, run terrane init -force-copy. If that state is not this configuration's, move it away.",
			strings.Join(described, "\n  "), quoteList(occupied), project))
	case !in.opts.ForceCopy:
		takeIt, d := in.ask("Do you want to copy existing state to Terrane's store?", fmt.Sprintf(
			"Pre-existing state was found that Terraform or OpenTofu keep for this configuration:\n  %s\n"+
				"  Terrane keeps state in its own store, which holds none for it yet. Enter \"yes\" to copy this state there, "+
				"and \"no\" to leave it where it is (plan and apply then refuse to create objects while it is there, "+
				"since they would create duplicates).", strings.Join(described, "\n  ")))
		if d != nil {
			return ds.Append(*d)
		}
		if !takeIt {
			return ds.Append(diags.Warnf("State not taken in",
				"The state in %s stays where it is and Terrane's store holds none of it. Plans that would create objects refuse to run while it is there. Run terrane init again to take it in, or move it away if it is not this configuration's state.",
				pending[0].source.Where))
		}
	}
	for _, p := range pending {
		serial := int64(p.source.File.Serial) + 1
		if p.snap.Workspace != nil {
			serial = max(serial, p.snap.Workspace.Serial+1)
		}
		if _, more := takeInState(ctx, p.store, p.source.Workspace, p.snap, p.source.File, serial); more.HasErrors() {
			return ds.Append(more)
		}
		in.view.Progress("Took in %s as workspace %q: %d resource instances, %d outputs",
			p.source.Where, p.source.Workspace, len(p.source.File.State.AllResourceInstances()), len(p.source.File.State.Outputs))
	}
	return ds
}

func findPendingState(ctx context.Context, root *config.Module, service *resourceservice.Service, project string, enc *encryption.Encryption) ([]pendingState, diags.Diagnostics) {
	loc, ds := foreignstate.Locate(".", root.Backend, os.Environ())
	if ds.HasErrors() {
		return nil, ds
	}
	loc.Decrypt = run.DecryptForeignState(enc)
	sources, err := foreignstate.Find(ctx, ".", loc)
	if err != nil {
		return nil, ds.Append(diags.Errorf("Cannot read state kept outside Terrane", "%s.", diags.Capitalize(err.Error())))
	}
	var pending []pendingState
	for _, source := range sources {
		st := recordstore.New(service, project, source.Workspace)
		snap, err := st.Load(ctx)
		if err != nil {
			return nil, ds.Append(diags.Errorf("Failed to read the state", "Reading workspace %q: %s.", source.Workspace, err))
		}
		if !foreignstate.TakenIn(snap.Workspace, source.File) {
			pending = append(pending, pendingState{source: source, store: st, snap: snap})
		}
	}
	return pending, ds
}

func snapshotEmpty(snap *recordstore.Snapshot) bool {
	return len(snap.State.AllResourceInstances()) == 0 && len(snap.State.Outputs) == 0
}
