package engine

import (
	"fmt"
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states"
)

// Data source results are kept as instance records, as Terraform's state
// keeps them (mode "data", the last value read): show, state list, state
// pull and terraform_remote_state see them, and a state moved to Terraform
// or OpenTofu and back keeps them. A result is written when an apply reads
// it, through the journal's group commit like any other result, and only
// when it differs from the one recorded; a data block the configuration no
// longer has (and every data source, on destroy) is removed after the walk.

// dataReadSet is the data source instances an apply walk expanded, read or
// not; the zero value is ready to use.
type dataReadSet struct {
	mu   sync.Mutex
	seen map[string]bool
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

// recordDataResult records what an apply read for a data source instance.
func (w *walker) recordDataResult(work *resourceWork, addr addrs.AbsResourceInstance, val cty.Value) diags.Diagnostics {
	obj := &states.ResourceInstanceObject{Value: val, Status: states.ObjectReady}
	src, err := obj.Encode(work.types.Value, uint64(work.schema.Version))
	if err != nil {
		return diags.Diagnostics{{Severity: diags.Error, Summary: "Cannot record a data source's result",
			Detail:  "The value read for " + addr.String() + " could not be encoded: " + err.Error() + ". Report this to the provider's developers.",
			Address: addr.String()}}
	}
	if inst := w.prior.ResourceInstance(addr); inst != nil && sameRecordedObject(inst.Current, src) {
		return nil
	}
	w.prior.SetResourceInstanceCurrent(addr, src, work.provider.addr)
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
// Its result is read again by every apply, so its record changing after a
// plan does not make the plan stale.
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
