package command

import (
	"context"
	"os"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/foreignstate"
	"github.com/terrane/terrane/internal/states/stateedit"
)

// refuseUntakenState stops a plan that could create objects while
// Terraform or OpenTofu keep state for this configuration and workspace
// that the store has not taken in: every object in it would be planned as
// new, and applying that would create duplicates. Destroy and refresh-only
// plans create nothing, so they may run.
func (op *operation) refuseUntakenState(ctx context.Context, opts arguments.Operation) diags.Diagnostics {
	if opts.Destroy || opts.RefreshOnly {
		return nil
	}
	loc, ds := foreignstate.Locate(op.dir, op.config.Module.Backend, os.Environ())
	if ds.HasErrors() {
		return ds
	}
	loc.Decrypt = decryptForeignState(op.encryption)
	source, err := foreignstate.ForWorkspace(ctx, op.dir, loc, op.workspace)
	if err != nil {
		return ds.Append(diags.Errorf("Cannot read state kept outside Terrane",
			"%s. Terrane checks it so as not to plan creating objects that state already tracks; fix the cause, or remove the backend block or file if it is not this configuration's state.",
			capitalizeFirst(err.Error())))
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
	ws, err := op.store.EnsureWorkspace(ctx)
	if err != nil {
		return ds.Append(diags.Errorf("Failed to read the state", "Reading workspace %q: %s.", op.workspace, err))
	}
	if foreignstate.TakenIn(ws, source.File) {
		return ds
	}
	return ds.Append(diags.Errorf("State kept outside Terrane has not been taken in",
		"%s holds the state of %d resource instance(s) of workspace %q, such as %s, that Terraform or OpenTofu manage "+
			"(lineage %s, serial %d), and Terrane's store has not taken it in. Planning now would propose to create each of them again, "+
			"and applying that would make duplicates.\n\n"+
			"Take the state in with terrane init (it asks first; -force-copy takes it without asking). If it is not this configuration's state, move it away.",
		source.Where, len(managed), op.workspace, stateedit.AddressList(managed), source.File.Lineage, source.File.Serial))
}
