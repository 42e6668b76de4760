package command

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/errored"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// unrecordedSummary heads the report of results a run could not record,
// in the run that failed and in every later one until they are taken in.
const unrecordedSummary = "Results not recorded in the state store"

// keepUnrecorded writes the results the apply could not record to
// errored.tfstate beside the configuration and says so, naming each
// address and its object's ID. aborted says the run was stopped while
// those results still waited for the store, rather than refused by it.
// When even that file cannot be written, the results are printed instead:
// that is then their only copy. Both are encrypted as the state is.
func (op *operation) keepUnrecorded(aborted bool) diags.Diagnostics {
	return keepResults(op.engine.Unrecorded(), op.dir, erroredSealing(op.encryption), aborted)
}

func keepResults(results *errored.Results, dir string, sealing errored.Sealing, aborted bool) diags.Diagnostics {
	if results.Len() == 0 {
		return nil
	}
	entries := results.Entries()
	why := "the store refused their results"
	if aborted {
		why = "the run was stopped before the store had their results"
	}
	path, err := results.WriteFile(dir, sealing)
	if err == nil {
		return diags.Diagnostics{diags.Errorf(unrecordedSummary,
			"%d provider call(s) of this run finished, but %s:\n%s\n\n%s",
			len(entries), why, errored.Describe(entries), errored.Advice(displayPath(path)))}
	}
	// Results that cannot be encrypted are not printed plain: the
	// addresses and IDs above are then all that is left of them, as
	// OpenTofu prints nothing when it cannot encrypt its state dump.
	src, encodeErr := results.Encode(sealing)
	if encodeErr != nil {
		src = []byte(fmt.Sprintf("(the results could not be encoded either: %s)", encodeErr))
	}
	return diags.Diagnostics{diags.Errorf(unrecordedSummary,
		"%d provider call(s) of this run finished, but %s:\n%s\n\n"+
			"Writing them to %s failed too: %s. Their only copy is below: save it, from the first { to the last } inclusive, as %s in this directory, then, once the store can be written again, run:\n    terrane state push %s\n\n%s",
		len(entries), why, errored.Describe(entries), errored.FileName, err, errored.FileName, errored.FileName, src)}
}

// checkUnrecorded refuses to plan while errored.tfstate beside the
// configuration holds results of this workspace that its records still
// lack: planning then would show those objects as unfinished creates or
// stale updates, and what the earlier run said to do would no longer be
// what this run says. A file whose results are all taken in already, or
// that holds a whole state (OpenTofu writes one of the same name), is left
// alone; one that cannot be read or decrypted stops the plan, since it may
// hold results.
func (op *operation) checkUnrecorded() diags.Diagnostics {
	path := filepath.Join(op.dir, errored.FileName)
	file, err := errored.Read(path, erroredSealing(op.encryption))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errored.ErrWholeState) {
		return nil
	}
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot read "+errored.FileName,
			"%s. It may hold the results of an earlier run that the store refused, so planning stops here. If it is encrypted, give the encryption configuration it was written with; if it is not Terrane's, move it away.", capitalizeFirst(err.Error()))}
	}
	if file.Workspace != op.workspace {
		return nil
	}
	snap, err := readInstancesOf(context.Background(), op.store, file.Entries())
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to read the state", "Comparing %s with the records of workspace %q: %s.", displayPath(path), op.workspace, err)}
	}
	pending := file.Compare(snap).Pending
	if len(pending) == 0 {
		return nil
	}
	return diags.Diagnostics{diags.Errorf(unrecordedSummary,
		"An earlier run's provider calls finished, but the store refused %d of their results:\n%s\n\n%s",
		len(pending), errored.Describe(pending), errored.Advice(displayPath(path)))}
}

// readInstancesOf reads the records of entries' addresses into a snapshot
// that holds only those.
func readInstancesOf(ctx context.Context, store *recordstore.Store, entries []errored.Entry) (*recordstore.Snapshot, error) {
	snap := &recordstore.Snapshot{State: states.NewState(), InstanceVersions: map[string]recordstore.RecordVersion{}}
	for _, e := range entries {
		rec, err := store.ReadInstance(ctx, e.Addr)
		if err != nil {
			return nil, err
		}
		if rec != nil {
			snap.State.SetResourceInstance(rec.Addr, rec.Instance, rec.ProviderConfig)
			snap.InstanceVersions[rec.Addr.String()] = rec.Record
		}
	}
	return snap, nil
}

// displayPath shows path as the user would type it from the working
// directory.
func displayPath(path string) string {
	base := "."
	if filepath.IsAbs(path) {
		wd, err := os.Getwd()
		if err != nil {
			return path
		}
		base = wd
	}
	if rel, err := filepath.Rel(base, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
