package recordstore

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// Settlement is what reading a change's record back found.
type Settlement struct {
	// Applied is true when the record holds what the change wrote (or is
	// gone, for a delete): the commit that carried it took effect.
	Applied bool
	// Version is the record's version when Applied and it was written.
	Version *RecordVersion
}

// Settled reads back the records of changes whose commit has an unknown
// outcome — the store stopped answering while it ran, so it may or may not
// have been applied — and tells, for each, whether it was. A change not
// applied must be committed again; committing an applied one again would
// fail its compare-and-swap against its own write.
func (s *Store) Settled(ctx context.Context, changes []InstanceChange) ([]Settlement, error) {
	ids := make([]*pbresource.ID, len(changes))
	for i, change := range changes {
		ids[i] = records.InstanceID(s.project, s.workspace, change.Addr.String())
	}
	stored, err := s.service.ReadMany(ctx, store.StrongConsistency, ids)
	if err != nil {
		return nil, fmt.Errorf("reading back the records of an interrupted commit: %w", err)
	}
	out := make([]Settlement, len(changes))
	for i, change := range changes {
		applied, err := holds(stored[i], change)
		if err != nil {
			return nil, err
		}
		out[i].Applied = applied
		if applied && stored[i] != nil {
			version := versionOf(stored[i])
			out[i].Version = &version
		}
	}
	return out, nil
}

// holds reports whether res, as stored now, is the outcome of change.
func holds(res *pbresource.Resource, change InstanceChange) (bool, error) {
	if change.Instance.IsEmpty() {
		return res == nil, nil
	}
	if res == nil || (change.Prior != nil && res.GetVersion() == change.Prior.Version) {
		return false, nil
	}
	want, err := InstanceToRecord(change.Addr, change.ProviderConfig, change.Instance)
	if err != nil {
		return false, err
	}
	var got recordsv1.ResourceInstance
	if err := res.GetData().UnmarshalTo(&got); err != nil {
		return false, nil // not a record this change could have written
	}
	return proto.Equal(want, &got), nil
}
