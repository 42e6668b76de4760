package engine

import (
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plans/objchange"
)

// A data block nested in a check block belongs to the check. As in
// OpenTofu, a read that fails fails the check, not the run: its
// diagnostics become warnings, the check is recorded as failed with the
// error as its message, and its assertions are not evaluated. And because
// a check verifies the infrastructure as applied, a normal plan reads the
// data source again during apply (ReadBecauseCheckNested).

// checkAddrs are the configuration and object addresses of the check
// block a scoped data source instance belongs to.
func checkAddrs(work *resourceWork, addr addrs.AbsResourceInstance) (configAddr, objectAddr string) {
	name := "check." + work.v.resource.ScopedToCheck
	objectAddr = name
	if !addr.Module.IsRoot() {
		objectAddr = addr.Module.String() + "." + name
	}
	return modulePrefix(work.v.module.Path) + name, objectAddr
}

// settleCheckScopedRead turns the outcome of reading a scoped data source
// into the check's: warnings for the diagnostics and, when the read
// failed, a failed check and a value whose computed attributes are
// unknown, so assertions reading it wait instead of failing again.
func (w *walker) settleCheckScopedRead(work *resourceWork, addr addrs.AbsResourceInstance, cfgVal, val cty.Value, rds diags.Diagnostics) (cty.Value, diags.Diagnostics, bool) {
	warnings := make(diags.Diagnostics, 0, len(rds))
	var messages []string
	configAddr, objectAddr := checkAddrs(work, addr)
	for _, d := range rds {
		if d.Severity == diags.Error {
			messages = append(messages, d.Summary+": "+d.Detail)
			d.DemotedError = true
		}
		d.Severity, d.FromCheckBlock, d.Object = diags.Warning, true, objectAddr
		warnings = append(warnings, d)
	}
	if len(messages) == 0 {
		return val, warnings, false
	}
	w.recordCheckObject(plans.CheckableCheck, configAddr,
		plans.CheckObjectResult{ObjectAddr: objectAddr, Status: plans.CheckFail, FailureMessages: []string{strings.Join(messages, "\n")}})
	return objchange.PlannedDataResourceObject(work.schema.Block, cfgVal), warnings, true
}

// planCheckScopedRead finishes planning a scoped data source read during
// planning: its value for the check's assertions, and, in a normal plan,
// the read again during apply.
func (w *walker) planCheckScopedRead(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition, cfgVal cty.Value, cfgMarks []cty.PathValueMarks, val cty.Value, rds diags.Diagnostics) diags.Diagnostics {
	val, ds, failed := w.settleCheckScopedRead(work, addr, cfgVal, val, rds)
	val = val.MarkWithPaths(cfgMarks)
	w.values.set(w.values.instances, addr.String(), val)
	if !failed {
		ds = ds.Append(w.keepPlannedDataResult(work, addr, val))
	}
	if w.planOpts.Mode == plans.NormalMode {
		change := &plans.ResourceInstanceChange{
			ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr,
				ProviderAddr: work.provider.instanceAddr(), ActionReason: plans.ReadBecauseCheckNested},
			Change: plans.Change{Action: plans.Read, Before: cty.NullVal(work.types.Value), After: val},
		}
		ds = ds.Append(w.addChange(change, work.types))
	}
	return ds.Append(w.checkPostconditions(work, addr, rep))
}

// checkFailedByData reports whether a check object already failed because
// its scoped data source could not be read.
func (w *walker) checkFailedByData(configAddr, objectAddr string) bool {
	w.results.mu.Lock()
	defer w.results.mu.Unlock()
	obj := w.results.checks.objects[configAddr][objectAddr]
	return obj != nil && obj.Status == plans.CheckFail
}
