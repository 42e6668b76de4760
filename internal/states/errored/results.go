package errored

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
)

// FileName is the name of the file, in the configuration's directory, that
// holds what a run could not record. OpenTofu uses the same name for the
// state its backend refused.
const FileName = "errored.tfstate"

// Results gathers the results a run could not record. It is safe for
// concurrent use; the zero value is not usable, use NewResults.
type Results struct {
	workspace, lineage string
	runID              string

	mu      sync.Mutex
	state   *states.State
	deleted map[string]addrs.AbsResourceInstance
}

// NewResults returns an empty collection for a run of workspace (whose
// lineage is lineage, empty if unknown).
func NewResults(workspace, lineage, runID string) *Results {
	return &Results{workspace: workspace, lineage: lineage, runID: runID, state: states.NewState(), deleted: map[string]addrs.AbsResourceInstance{}}
}

// Add keeps the instance at addr as the run last had it, after a provider
// call whose result could not be written. A nil or empty instance means
// the call deleted its last object, so the record must go. A later Add of
// the same address replaces an earlier one.
func (r *Results) Add(addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig, inst *states.ResourceInstance) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := addr.String()
	if inst == nil || inst.IsEmpty() {
		r.state.RemoveResourceInstance(addr)
		r.deleted[key] = addr
		return
	}
	delete(r.deleted, key)
	kept := inst.DeepCopy()
	kept.Intent = nil
	r.state.SetResourceInstance(addr, kept, provider)
}

// Forget drops what is kept for addr: its result has been recorded.
func (r *Results) Forget(addr addrs.AbsResourceInstance) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.state.RemoveResourceInstance(addr)
	delete(r.deleted, addr.String())
}

// Len is how many instances are kept.
func (r *Results) Len() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.state.AllResourceInstances()) + len(r.deleted)
}

// Entries lists what is kept, ordered by address.
func (r *Results) Entries() []Entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	return entriesOf(r.state, slices.Collect(maps.Values(r.deleted)))
}

// Entry is one instance whose result was not recorded.
type Entry struct {
	Addr addrs.AbsResourceInstance
	// ID is the current object's "id" attribute, or its Pulumi ID; empty
	// when it has neither.
	ID string
	// Deleted is true when the run deleted the instance's last object.
	Deleted bool
}

// String describes the entry on one line, as every message about the file
// lists it.
func (e Entry) String() string {
	switch {
	case e.Deleted:
		return fmt.Sprintf("%s (deleted)", e.Addr)
	case e.ID != "":
		return fmt.Sprintf("%s (id = %s)", e.Addr, e.ID)
	}
	return fmt.Sprintf("%s (no id attribute)", e.Addr)
}

func entriesOf(state *states.State, deleted []addrs.AbsResourceInstance) []Entry {
	var out []Entry
	for _, entry := range state.AllResourceInstances() {
		out = append(out, Entry{Addr: entry.Addr, ID: ObjectID(entry.Instance.Current)})
	}
	for _, addr := range deleted {
		out = append(out, Entry{Addr: addr, Deleted: true})
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Addr.String(), b.Addr.String()) })
	return out
}

// ObjectID is what a user would import obj by: its "id" attribute, as
// most providers have, or its Pulumi ID.
func ObjectID(obj *states.ResourceInstanceObjectSrc) string {
	if obj == nil {
		return ""
	}
	if obj.Pulumi != nil && obj.Pulumi.ID != "" {
		return obj.Pulumi.ID
	}
	var attrs struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(obj.AttrsJSON, &attrs) != nil || attrs.ID == nil {
		return ""
	}
	if id, ok := attrs.ID.(string); ok {
		return id
	}
	return fmt.Sprint(attrs.ID)
}

// Describe lists entries one per line, indented, for a diagnostic.
func Describe(entries []Entry) string {
	lines := make([]string, len(entries))
	for i, e := range entries {
		lines[i] = "  " + e.String()
	}
	return strings.Join(lines, "\n")
}

// Advice is what to do about results kept in the file at path. The run
// that wrote the file and every run that finds it say the same.
func Advice(path string) string {
	return fmt.Sprintf("Their objects exist, and %s holds what the store could not. Once the store can be written again (free disk space, make the state directory writable, or bring the store back), take them into the state with:\n    terrane state push %s\nUntil then plan and apply in this workspace stop here, so nothing is created twice.", path, path)
}
