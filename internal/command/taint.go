package command

import (
	"context"
	"flag"
	"fmt"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// taintEdit is what taint and untaint share: the command's name and how it
// changes the status of an instance's current object.
type taintEdit struct {
	name string
	// apply changes obj's status; a diagnostic says why it cannot.
	apply func(addr addrs.AbsResourceInstance, obj *states.ResourceInstanceObjectSrc) *diags.Diagnostic
	done  string
}

// runTaint is `terrane taint [-allow-missing] ADDR`: the instance's current
// object is marked tainted, so the next plan replaces it, as `tofu taint`
// does. Nothing changes remotely.
func runTaint(streams views.Streams, args []string) int {
	return runTaintEdit(streams, args, taintEdit{
		name: "taint",
		apply: func(addr addrs.AbsResourceInstance, obj *states.ResourceInstanceObjectSrc) *diags.Diagnostic {
			obj.Status = states.ObjectTainted
			return nil
		},
		done: "Resource instance %s has been marked as tainted.",
	})
}

// runUntaint is `terrane untaint [-allow-missing] ADDR`: a tainted
// object is trusted again, so the next plan keeps it, as `tofu untaint`
// does.
func runUntaint(streams views.Streams, args []string) int {
	return runTaintEdit(streams, args, taintEdit{
		name: "untaint",
		apply: func(addr addrs.AbsResourceInstance, obj *states.ResourceInstanceObjectSrc) *diags.Diagnostic {
			if obj.Status != states.ObjectTainted {
				d := diags.Errorf("Resource instance is not tainted",
					"Resource instance %s is not currently tainted, and so it cannot be untainted.", addr)
				return &d
			}
			obj.Status = states.ObjectReady
			return nil
		},
		done: "Resource instance %s has been successfully untainted.",
	})
}

func runTaintEdit(streams views.Streams, args []string, edit taintEdit) int {
	var allowMissing *bool
	c, fs := parseStateFlags(streams, edit.name, args, func(fs *flag.FlagSet) {
		allowMissing = fs.Bool("allow-missing", false, "Succeed, with a warning, when the instance does not exist")
		addLockFlags(fs)
	})
	if c == nil {
		return 1
	}
	if fs.NArg() != 1 {
		return c.usageError(edit.name, diags.Errorf("Invalid arguments", "The %s command expects exactly one argument.", edit.name))
	}
	addr, hds := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if hds.HasErrors() {
		return c.usageError(edit.name, diags.FromHCL(hds[0]))
	}
	if addr.Resource.Resource.Mode != addrs.ManagedResourceMode && edit.name == "taint" {
		return c.usageError(edit.name, diags.Errorf("Invalid resource address", "Resource instance %s cannot be tainted", addr))
	}
	ctx := context.Background()
	snap, d := c.load(ctx)
	defer c.close()
	if d != nil {
		return c.fail(*d)
	}
	change, missing, d := taintChange(snap, addr, edit)
	if d != nil {
		if missing && *allowMissing {
			c.view.Diagnostics(diags.Diagnostics{missingAllowed(addr)})
			return 0
		}
		return c.fail(*d)
	}
	if d := c.commitEdit(ctx, []recordstore.InstanceChange{change}); d != nil {
		return c.fail(*d)
	}
	done := fmt.Sprintf(edit.done, addr)
	c.view.Info(done, done)
	return 0
}

// taintChange is the record change edit makes to addr's instance, or the
// diagnostic saying why there is none: no such instance (missing), no
// current object (only deposed ones), or an operation on it whose outcome
// is unknown.
func taintChange(snap *recordstore.Snapshot, addr addrs.AbsResourceInstance, edit taintEdit) (change recordstore.InstanceChange, missing bool, d *diags.Diagnostic) {
	fail := func(summary, format string, args ...any) (recordstore.InstanceChange, bool, *diags.Diagnostic) {
		// Sourceless, as OpenTofu's are: the address is in the detail.
		d := diags.Errorf(summary, format, args...)
		return recordstore.InstanceChange{}, false, &d
	}
	res := snap.State.Resource(addr.ContainingResource())
	inst := snap.State.ResourceInstance(addr)
	switch {
	case len(snap.State.AllResourceInstances()) == 0 && len(snap.State.Outputs) == 0:
		change, _, d = fail("No such resource instance", "The state currently contains no resource instances whatsoever. This may occur if the configuration has never been applied or if it has recently been destroyed.")
		return change, true, d
	case res == nil || inst == nil:
		change, _, d = fail("No such resource instance", "There is no resource instance in the state with the address %s. If the resource configuration has just been added, you must run \"terrane apply\" once to create the corresponding instance(s) before they can be tainted.", addr)
		return change, true, d
	case inst.Intent != nil:
		return fail("Operation in progress", "A %s of %s began in run %s and its outcome is not recorded yet, so it cannot be %sed now. Run \"terrane plan\" to resolve it first.", inst.Intent.Operation, addr, inst.Intent.RunID, edit.name)
	case inst.Current == nil && len(inst.Deposed) > 0:
		return fail("No such resource instance", "Resource instance %s is currently part-way through a create_before_destroy replacement action. Run \"terrane apply\" to complete its replacement before tainting it.", addr)
	case inst.Current == nil:
		return fail("No such resource instance", "Resource instance %s does not currently have a remote object associated with it, so it cannot be tainted.", addr)
	}
	next := inst.DeepCopy()
	if d := edit.apply(addr, next.Current); d != nil {
		return recordstore.InstanceChange{}, false, d
	}
	prior := snap.InstanceVersions[addr.String()]
	return recordstore.InstanceChange{Addr: addr, ProviderConfig: res.ProviderConfig, Instance: next, Prior: &prior}, false, nil
}

// missingAllowed is the warning -allow-missing turns a missing instance
// into, as OpenTofu words it.
func missingAllowed(addr addrs.AbsResourceInstance) diags.Diagnostic {
	return diags.Warnf("No such resource instance",
		"Resource instance %s was not found, but this is not an error because -allow-missing was set.", addr)
}
