package errored

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// Comparison sorts a file's entries by what the workspace's records hold.
type Comparison struct {
	// Pending are the results still to take in: the record holds the
	// intent of the run that wrote the file, or is missing.
	Pending []Entry
	// Recorded are the results the records hold already.
	Recorded []Entry
	// Changed are the entries whose records were changed otherwise since,
	// by another run or by hand: taking the file in there would overwrite
	// that.
	Changed []Entry
}

// Compare compares f's entries with the records of snap.
func (f *File) Compare(snap *recordstore.Snapshot) Comparison {
	var c Comparison
	for _, e := range f.Entries() {
		switch f.outcome(snap, e) {
		case pending:
			c.Pending = append(c.Pending, e)
		case recorded:
			c.Recorded = append(c.Recorded, e)
		default:
			c.Changed = append(c.Changed, e)
		}
	}
	return c
}

type outcome int

const (
	pending outcome = iota
	recorded
	changed
)

func (f *File) outcome(snap *recordstore.Snapshot, e Entry) outcome {
	rec := snap.State.ResourceInstance(e.Addr)
	switch {
	case rec == nil && e.Deleted:
		return recorded
	case rec == nil:
		// Missing: the create's intent was never written, or the user
		// forgot the attempt; either way the object exists.
		return pending
	case rec.Intent != nil && slices.Contains(f.RunIDs, rec.Intent.RunID):
		return pending
	case rec.Intent == nil && !e.Deleted && sameObjects(rec, f.State.ResourceInstance(e.Addr)):
		return recorded
	}
	return changed
}

// Merge returns the changes that take f's pending results into the
// records, each compare-and-swap on the version snap read, and the entries
// they take in. With force, entries whose records changed otherwise since
// are overwritten too.
func (f *File) Merge(snap *recordstore.Snapshot, force bool) ([]recordstore.InstanceChange, []Entry) {
	var changes []recordstore.InstanceChange
	var taken []Entry
	for _, e := range f.Entries() {
		switch f.outcome(snap, e) {
		case recorded:
			continue
		case changed:
			if !force {
				continue
			}
		}
		var prior *recordstore.RecordVersion
		if v, ok := snap.InstanceVersions[e.Addr.String()]; ok {
			prior = &v
		}
		change := recordstore.InstanceChange{Addr: e.Addr, Prior: prior}
		if res := f.State.Resource(e.Addr.ContainingResource()); res != nil && !e.Deleted {
			change.ProviderConfig = res.ProviderConfig
			change.Instance = f.State.ResourceInstance(e.Addr)
		} else if res := snap.State.Resource(e.Addr.ContainingResource()); res != nil {
			change.ProviderConfig = res.ProviderConfig
		}
		changes = append(changes, change)
		taken = append(taken, e)
	}
	return changes, taken
}

// sameObjects reports whether a record holds the objects a file does,
// comparing attribute values, not their encoding.
func sameObjects(rec, file *states.ResourceInstance) bool {
	if rec == nil || file == nil || len(rec.Deposed) != len(file.Deposed) || !sameObject(rec.Current, file.Current) {
		return false
	}
	for key, obj := range file.Deposed {
		if !sameObject(rec.Deposed[key], obj) {
			return false
		}
	}
	return true
}

func sameObject(a, b *states.ResourceInstanceObjectSrc) bool {
	if a == nil || b == nil {
		return a == b
	}
	var va, vb any
	if json.Unmarshal(a.AttrsJSON, &va) != nil || json.Unmarshal(b.AttrsJSON, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}
