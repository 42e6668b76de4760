package run

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/errored"
	"github.com/terrane/terrane/internal/states/foreignstate"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/stateedit"
)

// UnrecordedSummary heads the report of results a run could not record,
// in the run that failed and in every later one until they are taken in.
const UnrecordedSummary = "Results not recorded in the state store"

// checkUnrecorded refuses to plan while errored.tfstate beside the
// configuration holds results of this workspace that its records still
// lack: planning then would show those objects as unfinished creates or
// stale updates, and what the earlier run said to do would no longer be
// what this run says. A file whose results are all taken in already, or
// that holds a whole state (OpenTofu writes one of the same name), is left
// alone; one that cannot be read or decrypted stops the plan, since it may
// hold results.
func (r *Run) checkUnrecorded(ctx context.Context) diags.Diagnostics {
	path := filepath.Join(r.Dir, errored.FileName)
	file, err := errored.Read(path, ErroredSealing(r.Encryption))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errored.ErrWholeState) {
		return nil
	}
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot read "+errored.FileName,
			"%s. It may hold the results of an earlier run that the store refused, so planning stops here. If it is encrypted, give the encryption configuration it was written with; if it is not Terrane's, move it away.", diags.Capitalize(err.Error()))}
	}
	if file.Workspace != r.Workspace {
		return nil
	}
	snap, err := readInstancesOf(ctx, r.Store, file.Entries())
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to read the state", "Comparing %s with the records of workspace %q: %s.", DisplayPath(path), r.Workspace, err)}
	}
	pending := file.Compare(snap).Pending
	if len(pending) == 0 {
		return nil
	}
	return diags.Diagnostics{diags.Errorf(UnrecordedSummary,
		"An earlier run's provider calls finished, but the store refused %d of their results:\n%s\n\n%s",
		len(pending), errored.Describe(pending), errored.Advice(DisplayPath(path)))}
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

// refuseUntakenState stops a plan that could create objects while
// Terraform or OpenTofu keep state for this configuration and workspace
// that the store has not taken in: every object in it would be planned as
// new, and applying that would create duplicates.
func (r *Run) refuseUntakenState(ctx context.Context, environ []string) diags.Diagnostics {
	loc, ds := foreignstate.Locate(r.Dir, r.Config.Module.Backend, environ)
	if ds.HasErrors() {
		return ds
	}
	loc.Decrypt = DecryptForeignState(r.Encryption)
	source, err := foreignstate.ForWorkspace(ctx, r.Dir, loc, r.Workspace)
	if err != nil {
		return ds.Append(diags.Errorf("Cannot read state kept outside Terrane",
			"%s. Terrane checks it so as not to plan creating objects that state already tracks; fix the cause, or remove the backend block or file if it is not this configuration's state.",
			diags.Capitalize(err.Error())))
	}
	if source == nil {
		return ds
	}
	var managed []addrs.AbsResourceInstance
	for _, entry := range source.File.State.AllResourceInstances() {
		if entry.Addr.Resource.Resource.Mode == addrs.ManagedResourceMode {
			managed = append(managed, entry.Addr)
		}
	}
	if len(managed) == 0 {
		return ds
	}
	ws, err := r.Store.EnsureWorkspace(ctx)
	if err != nil {
		return ds.Append(diags.Errorf("Failed to read the state", "Reading workspace %q: %s.", r.Workspace, err))
	}
	if foreignstate.TakenIn(ws, source.File) {
		return ds
	}
	return ds.Append(diags.Errorf("State kept outside Terrane has not been taken in",
		"%s holds the state of %d resource instance(s) of workspace %q, such as %s, that Terraform or OpenTofu manage "+
			"(lineage %s, serial %d), and Terrane's store has not taken it in. Planning now would propose to create each of them again, "+
			"and applying that would make duplicates.\n\n"+
			"Take the state in with terrane init (it asks first; -force-copy takes it without asking). If it is not this configuration's state, move it away.",
		source.Where, len(managed), r.Workspace, stateedit.AddressList(managed), source.File.Lineage, source.File.Serial))
}

// DisplayPath shows path as the user would type it from the process's
// working directory.
func DisplayPath(path string) string {
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
