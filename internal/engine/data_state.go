package engine

import (
	"fmt"
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// Data source results are kept as instance records, as Terraform's state
// keeps them (mode "data", the last value read): show, state list, state
// pull and terraform_remote_state see them, and a state moved to Terraform
// or OpenTofu and back keeps them. A plan carries what it read (see
// recordPlannedDataResults); an apply records that, or what it reads
// itself for the reads planned for apply time, through the journal's
// group commit like any other result, and only when it differs from the
// one recorded. A data block the configuration no longer has (and every
// data source, on destroy) is removed after the walk.

// dataReadSet is the data source instances an apply walk expanded, read or
// not, and the results a plan walk read; the zero value is ready to use.
type dataReadSet struct {
	mu      sync.Mutex
	seen    map[string]bool
	planned []plannedDataResult
	// priorRecords indexes an apply's plan's prior records by name, once
	// a data source asks for one.
	priorRecords map[string]plans.PriorRecord
}

// plannedDataResult is a data source result a plan read.
type plannedDataResult struct {
	addr     addrs.AbsResourceInstance
	provider addrs.AbsProviderConfig
	object   *states.ResourceInstanceObjectSrc
}

func (s *dataReadSet) add(addr addrs.AbsResourceInstance) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[addr.String()] = true
}

func (s *dataReadSet) has(addr addrs.AbsResourceInstance) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[addr.String()]
}

// keepPlannedDataResult keeps what a plan read for a data source
// instance, for recordPlannedDataResults.
func (w *walker) keepPlannedDataResult(work *resourceWork, addr addrs.AbsResourceInstance, val cty.Value) diags.Diagnostics {
	src, ds := encodeDataResult(work, addr, val)
	if src == nil {
		return ds
	}
	w.dataRead.mu.Lock()
	defer w.dataRead.mu.Unlock()
	w.dataRead.planned = append(w.dataRead.planned, plannedDataResult{addr: addr, provider: work.provider.addr, object: src})
	return nil
}

// recordPlannedDataResults puts what the plan walk read into the state the
// plan was made from, once the walk is over, as Terraform's plan carries
// its refreshed state: the plan's prior records then hold each data source
// as read while planning, show -json reports them in prior_state, and the
// apply uses them instead of reading again (see dataResult).
func (w *walker) recordPlannedDataResults(state *states.State) {
	w.dataRead.mu.Lock()
	defer w.dataRead.mu.Unlock()
	for _, result := range w.dataRead.planned {
		state.SetResourceInstanceCurrent(result.addr, result.object, result.provider)
	}
}

// dataResult is a data source instance's value for an apply: the result
// the plan read, when the plan has one and plans no read at apply, or else
// a new read.
func (w *walker) dataResult(work *resourceWork, addr addrs.AbsResourceInstance, cfgVal cty.Value, cfgMarks []cty.PathValueMarks) (cty.Value, diags.Diagnostics) {
	if val, ok := w.plannedDataValue(work, addr); ok {
		return val, nil
	}
	return w.readData(work, addr, cfgVal, cfgMarks)
}

// plannedDataValue decodes the result the apply's plan read for addr.
func (w *walker) plannedDataValue(work *resourceWork, addr addrs.AbsResourceInstance) (cty.Value, bool) {
	plan := w.applier.plan
	if w.applier.changes[addr.String()] != nil {
		return cty.NilVal, false // planned to be read at apply
	}
	w.dataRead.mu.Lock()
	if w.dataRead.priorRecords == nil {
		w.dataRead.priorRecords = make(map[string]plans.PriorRecord, len(plan.PriorRecords))
		for _, record := range plan.PriorRecords {
			w.dataRead.priorRecords[record.Name] = record
		}
	}
	record, ok := w.dataRead.priorRecords[addr.String()]
	w.dataRead.mu.Unlock()
	if !ok || record.Kind != records.ResourceInstanceType.GetKind() {
		return cty.NilVal, false
	}
	data, err := plan.PriorRecordContent(record)
	if err != nil || data == nil {
		return cty.NilVal, false
	}
	var rec recordsv1.ResourceInstance
	if err := data.UnmarshalTo(&rec); err != nil {
		return cty.NilVal, false
	}
	_, _, inst, err := recordstore.InstanceFromRecord(&rec)
	if err != nil || inst == nil || inst.Current == nil || inst.Current.SchemaVersion != uint64(work.schema.Version) {
		return cty.NilVal, false
	}
	obj, err := inst.Current.Decode(work.types.Value, cty.NilType)
	if err != nil {
		return cty.NilVal, false
	}
	return obj.Value, true
}

// encodeDataResult encodes a data source's value for its record.
func encodeDataResult(work *resourceWork, addr addrs.AbsResourceInstance, val cty.Value) (*states.ResourceInstanceObjectSrc, diags.Diagnostics) {
	obj := &states.ResourceInstanceObject{Value: val, Status: states.ObjectReady}
	src, err := work.encode(obj)
	if err != nil {
		return nil, diags.Diagnostics{{Severity: diags.Error, Summary: "Cannot record a data source's result",
			Detail:  "The value read for " + addr.String() + " could not be encoded: " + err.Error() + ". Report this to the provider's developers.",
			Address: addr.String()}}
	}
	return src, nil
}

// recordDataResult records what an apply read for a data source instance.
func (w *walker) recordDataResult(work *resourceWork, addr addrs.AbsResourceInstance, val cty.Value) diags.Diagnostics {
	src, ds := encodeDataResult(work, addr, val)
	if src == nil {
		return ds
	}
	if inst := w.prior.ResourceInstance(addr); inst != nil && sameRecordedObject(inst.Current, src) {
		return nil
	}
	w.prior.SetResourceInstanceCurrent(addr, src, work.provider.addr)
	w.prior.SetResourceInstanceProviderKey(addr, work.provider.key)
	return asDataResultWarnings(w.writeInstance(addr, work.provider.addr, recordRefresh))
}

// asDataResultWarnings turns the failure to record a data source's result
// into a warning: the read itself succeeded and the next run reads it
// again, and a run that lost the record to another run's newer read of the
// same data source has nothing to regret.
func asDataResultWarnings(ds diags.Diagnostics) diags.Diagnostics {
	out := make(diags.Diagnostics, len(ds))
	for i, d := range ds {
		if d.Severity == diags.Error {
			d.Detail = fmt.Sprintf("The result read for %s could not be written to the store (%s). The read succeeded, and the next run reads it again.",
				d.Address, strings.ToLower(d.Summary))
			d.Severity, d.Summary = diags.Warning, "Data source result not recorded"
		}
		out[i] = d
	}
	return out
}

// isDataRecord reports whether a record name is a data source instance's.
// An apply works with its plan's result or reads the data source again,
// never with the record, so the record changing after a plan does not make
// the plan stale.
func isDataRecord(name string) bool {
	addr, hd := addrs.ParseAbsResourceInstanceStr(name)
	return !hd.HasErrors() && addr.Resource.Resource.Mode == addrs.DataResourceMode
}

// sameRecordedObject reports whether recording src would change nothing.
func sameRecordedObject(recorded, src *states.ResourceInstanceObjectSrc) bool {
	if recorded == nil || recorded.SchemaVersion != src.SchemaVersion || string(recorded.AttrsJSON) != string(src.AttrsJSON) ||
		len(recorded.SensitivePaths) != len(src.SensitivePaths) || len(recorded.Dependencies) > 0 {
		return false
	}
	for i, path := range recorded.SensitivePaths {
		if !path.Equals(src.SensitivePaths[i]) {
			return false
		}
	}
	return true
}

// dropUnreadDataResults removes the recorded results of data source
// instances the apply walk did not expand: their blocks, or those
// instances, are gone from the configuration, or the run is a destroy.
// Nothing is removed after a failed walk, which may not have expanded
// everything it would have. The removals are submitted together, so they
// share the journal's group commits.
func (w *walker) dropUnreadDataResults() diags.Diagnostics {
	var mu sync.Mutex
	var ds diags.Diagnostics
	var wg sync.WaitGroup
	for _, addr := range w.prior.ResourceInstanceAddrs() {
		if addr.Resource.Resource.Mode != addrs.DataResourceMode || w.dataRead.has(addr) {
			continue
		}
		provider, ok := w.prior.ResourceProvider(addr.ContainingResource())
		if !ok {
			continue
		}
		w.prior.RemoveResourceInstance(addr)
		wg.Go(func() {
			wds := asDataResultWarnings(w.writeInstance(addr, provider, recordRefresh))
			mu.Lock()
			defer mu.Unlock()
			ds = ds.Append(wds)
		})
	}
	wg.Wait()
	return ds
}
