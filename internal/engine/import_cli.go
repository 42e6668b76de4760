package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/version"
)

// ImportedObject is what ImportInstance recorded.
type ImportedObject struct {
	Addr   addrs.AbsResourceInstance
	ID     string
	Object *states.ResourceInstanceObjectSrc
}

// ImportInstance adopts the existing remote object with the given ID at
// addr, as `terraform import` does: the resource block must exist, the
// address must have no object yet, and the provider, configured from the
// configuration and variables, imports the object (ImportResourceState)
// and reads it (ReadResource). The object is recorded with a create-only
// write, so a run that created the address meanwhile wins and the import
// fails. Nothing else is planned or changed.
func (e *Engine) ImportInstance(ctx context.Context, addr addrs.AbsResourceInstance, id string) (*ImportedObject, diags.Diagnostics) {
	if d := e.checkImportTargetDeclared(addr); d != nil {
		return nil, diags.Diagnostics{*d}
	}
	target := &importTarget{addr: addr, id: id}
	plan, ds := e.plan(ctx, PlanOpts{Targets: []addrs.Targetable{addr}, SkipRefresh: true, commandLineImport: target})
	ds = withoutTargetingWarning(ds, addr)
	if ds.HasErrors() {
		return nil, ds
	}
	var adopted *plans.ResourceInstanceChangeSrc
	for _, c := range plan.Changes.Resources {
		if c.Importing != nil && c.DeposedKey == addrs.NotDeposed && c.Addr.String() == addr.String() {
			adopted = c
		}
	}
	if adopted == nil {
		return nil, ds.Append(diags.Errorf("Nothing imported",
			"Planning the import of %s with ID %q brought in no object. Check that %s is declared without count or for_each, or give the instance key its count or for_each calls for.", addr, id, addr))
	}
	// The object recorded is the one imported and read, as OpenTofu's
	// import records it, not the plan's (whose private data is the
	// provider's plan for the configuration).
	obj := target.imported
	if obj == nil {
		var ods diags.Diagnostics
		obj, ods = objectFromChange(adopted, &providerSet{schemas: e.Schemas()})
		if ds = ds.Append(ods); ods.HasErrors() {
			return nil, ds
		}
	}
	change := recordstore.InstanceChange{Addr: addr, ProviderConfig: adopted.ProviderAddr.Config, Instance: &states.ResourceInstance{Current: obj}}
	if _, err := e.opts.State.Commit(ctx, []recordstore.InstanceChange{change}); err != nil {
		var conflict *recordstore.ConflictError
		if errors.As(err, &conflict) {
			return nil, ds.Append(alreadyManagedDiag(addr))
		}
		return nil, ds.Append(diags.Errorf("Cannot record the imported object",
			"The object with ID %q was imported, but recording it at %s failed: %s. Nothing was recorded; run the import again.", id, addr, err))
	}
	if err := e.settleAfterImport(ctx); err != nil {
		return nil, ds.Append(diags.Errorf("Cannot record the imported object", "The object with ID %q was recorded at %s, but updating workspace %q failed: %s.", id, addr, e.opts.Workspace, err))
	}
	// Written, the state moves to its next serial, as OpenTofu's does.
	if _, err := e.opts.State.BeginRun(ctx, version.Version); err != nil {
		return nil, ds.Append(diags.Errorf("Cannot record the imported object", "The object with ID %q was recorded at %s, but updating workspace %q failed: %s.", id, addr, e.opts.Workspace, err))
	}
	return &ImportedObject{Addr: addr, ID: id, Object: obj}, ds
}

// settleAfterImport leaves the workspace as OpenTofu's import leaves its
// state, which is the outcome of a walk over the whole configuration: that
// walk starts a new set of check results and records none, so the last
// apply's are discarded, and it removes the root outputs the configuration
// no longer declares.
func (e *Engine) settleAfterImport(ctx context.Context) error {
	if err := e.opts.State.SetCheckResults(ctx, nil); err != nil {
		return err
	}
	snap, err := e.opts.State.Load(ctx)
	if err != nil {
		return err
	}
	declared := e.opts.Config.Module.Outputs
	kept := make(map[string]*states.OutputValue, len(snap.State.Outputs))
	for name, output := range snap.State.Outputs {
		if declared[name] != nil {
			kept[name] = output
		}
	}
	if len(kept) == len(snap.State.Outputs) {
		return nil
	}
	return e.opts.State.WriteOutputs(ctx, kept)
}

// checkImportTargetDeclared refuses an address whose resource block is
// missing, with Terraform's advice to write one.
func (e *Engine) checkImportTargetDeclared(addr addrs.AbsResourceInstance) *diags.Diagnostic {
	if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		d := diags.Errorf("Invalid import address", "%s is a data resource; only managed resources can be imported.", addr)
		return &d
	}
	module := e.opts.Config.Descendant(addr.Module.Module())
	if module != nil && module.Module.Resources[addr.Resource.Resource] != nil {
		return nil
	}
	res := addr.Resource.Resource
	where := "the root module"
	if len(addr.Module) > 0 {
		where = fmt.Sprintf("module %s", addr.Module.Module())
	}
	d := diags.Errorf(fmt.Sprintf("resource address %q does not exist in the configuration.", addr.String()),
		"Before importing this resource, please create its configuration in %s. For example:\n\nresource %q %q {\n  # (resource arguments)\n}", where, res.Type, res.Name)
	return &d
}

func alreadyManagedDiag(addr addrs.AbsResourceInstance) diags.Diagnostic {
	d := diags.Errorf("Resource already managed by Terrane",
		"Terrane is already managing a remote object for %s. To import to this address you must first remove the existing object from the state.", addr)
	d.Sourceless = true
	return d
}

// importOverExisting is `terrane import` to an address that has an object
// already: as in OpenTofu, the provider imports first and the conflict is
// found with what it returned.
func (w *walker) importOverExisting(work *resourceWork, addr addrs.AbsResourceInstance, id string) diags.Diagnostics {
	w.importHooks(func(h ImportHook) { h.PreImport(addr, id, true) })
	var resp providers.ImportResourceStateResponse
	if err := w.providerCall(func(ctx context.Context) {
		resp = work.provider.iface.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: addr.Resource.Resource.Type, ID: id})
	}); err != nil {
		return diags.Diagnostics{}.Append(err)
	}
	if resp.Diagnostics.HasErrors() {
		return resp.Diagnostics
	}
	typeNames := make([]string, len(resp.ImportedResources))
	for i, r := range resp.ImportedResources {
		typeNames[i] = r.TypeName
	}
	w.importHooks(func(h ImportHook) { h.PostImport(addr, typeNames, true) })
	return resp.Diagnostics.Append(alreadyManagedDiag(addr))
}

// withoutTargetingWarning drops the warning every targeted plan carries:
// an import plans only its own address by design.
func withoutTargetingWarning(ds diags.Diagnostics, addr addrs.AbsResourceInstance) diags.Diagnostics {
	targeting := partialPlanWarning(PlanOpts{Targets: []addrs.Targetable{addr}})
	out := make(diags.Diagnostics, 0, len(ds))
	for _, d := range ds {
		if d.Severity == diags.Warning && d.Summary == targeting.Summary {
			continue
		}
		out = append(out, d)
	}
	return out
}
