package resourceservice

import (
	"context"
	"time"

	"github.com/oklog/ulid/v2"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// DeleteOptions adjust a Delete.
type DeleteOptions struct {
	// Version, when set, makes the delete a single compare-and-swap.
	Version string
	// Force skips the type's GuardDelete (e.g. deleting a workspace that
	// still owns resource instances).
	Force bool
}

// Delete deletes a resource. Deleting an absent resource succeeds. A Uid in
// id must be the stored one (FailedPrecondition); a given Version must be the
// stored one (Aborted). A resource with finalizers is only marked with
// deletionTimestamp and deleted when its last finalizer is removed. Otherwise
// it is deleted together with a tombstone that makes the reaper delete the
// resources it owns.
func (s *Service) Delete(ctx context.Context, id *pbresource.ID, opts DeleteOptions) error {
	id, err := normalizeID(id, "delete")
	if err != nil {
		return err
	}
	reg, err := s.registry.resolveWritable(id.GetType())
	if err != nil {
		return err
	}
	_, err = retryCAS(ctx, unlessVersionGiven(opts.Version), func() (struct{}, error) {
		existing, err := s.readExisting(ctx, id)
		if err != nil || existing == nil {
			return struct{}{}, err
		}
		ops, err := s.planDelete(ctx, reg, id, existing, opts)
		if err != nil || len(ops) == 0 {
			return struct{}{}, err
		}
		_, err = s.backend.Batch(ctx, ops)
		return struct{}{}, fromStore(unwrapBatch(err), "deleting "+describeID(id))
	})
	return err
}

// planDelete returns the backend operations deleting (or marking) existing;
// none when it is already marked and waits for its finalizers.
func (s *Service) planDelete(ctx context.Context, reg Registration, id *pbresource.ID, existing *pbresource.Resource, opts DeleteOptions) ([]store.Op, error) {
	switch {
	case id.GetUid() != "" && id.GetUid() != existing.GetId().GetUid():
		return nil, &Error{Code: codes.FailedPrecondition, Err: store.ErrWrongUid,
			Message: "deleting " + describeID(id) + ": uid " + id.GetUid() + " is not the stored resource's (it was deleted and re-created); read it again"}
	case opts.Version != "" && opts.Version != existing.GetVersion():
		return nil, casMismatch("deleting", id, opts.Version)
	}
	if len(finalizers(existing)) > 0 {
		if isMarkedForDeletion(existing) {
			return nil, nil
		}
		marked := proto.Clone(existing).(*pbresource.Resource)
		marked.Metadata[DeletionTimestampKey] = time.Now().UTC().Format(time.RFC3339Nano)
		marked.Generation = ulid.Make().String()
		return []store.Op{{Kind: store.OpWrite, Resource: marked}}, nil
	}
	if reg.GuardDelete != nil && !opts.Force {
		owned, err := s.backend.ListByOwner(ctx, existing.GetId())
		if err != nil {
			return nil, fromStore(err, "listing resources owned by "+describeID(id))
		}
		if err := reg.GuardDelete(existing, owned); err != nil {
			return nil, errorf(codes.FailedPrecondition, "deleting %s: %v", describeID(id), err)
		}
	}
	return s.deleteOps(reg, existing, existing.GetVersion()), nil
}

// deleteOps deletes existing at version and, unless its type never owns
// anything, writes in the same batch the tombstone promising to delete what it
// owns — so a crash cannot leave owned resources without an owner or promise.
func (s *Service) deleteOps(reg Registration, existing *pbresource.Resource, version string) []store.Op {
	deleteOp := store.Op{Kind: store.OpDelete, ID: existing.GetId(), Version: version}
	if reg.Leaf {
		return []store.Op{deleteOp}
	}
	return []store.Op{{Kind: store.OpWrite, Resource: tombstoneFor(existing)}, deleteOp}
}

func tombstoneFor(res *pbresource.Resource) *pbresource.Resource {
	data, err := anypb.New(&pbresource.Tombstone{Owner: res.GetId()})
	if err != nil {
		// Marshalling a Tombstone of a valid ID cannot fail.
		panic(err)
	}
	return &pbresource.Resource{
		Id: &pbresource.ID{
			Type:    TombstoneType,
			Tenancy: res.GetId().GetTenancy(),
			Name:    "tombstone-" + res.GetId().GetUid(),
			Uid:     ulid.Make().String(),
		},
		Generation: ulid.Make().String(),
		Data:       data,
	}
}
