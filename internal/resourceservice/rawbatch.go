package resourceservice

import (
	"context"
	"fmt"
	"maps"

	"github.com/oklog/ulid/v2"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// VetRawBatch checks a raw backend batch sent by a remote client (the
// BatchService a remote store uses) against every rule Write and Delete
// apply, since the client ran those rules itself and must not be trusted
// to have: each type registered and its data valid by the type's hooks;
// every tenancy touched, owners' included, granted by allowed; Uids,
// Generations, owners, status and deletion marks changed only as Write,
// WriteStatus and Delete change them; and the reserved Tombstone type
// written only beside the delete of the owner it names. A version that no
// longer matches is reported as store.ErrCASFailure inside a
// *store.BatchError, so the client reads again and retries; any other
// violation is InvalidArgument or PermissionDenied naming the operation.
func (s *Service) VetRawBatch(ctx context.Context, ops []store.Op, allowed func(*pbresource.Tenancy) error) error {
	ids := make([]*pbresource.ID, len(ops))
	deleted := map[string]*pbresource.ID{}
	for i, op := range ops {
		if op.Kind == store.OpWrite {
			ids[i] = op.Resource.GetId()
		} else {
			ids[i] = op.ID
			deleted[describeID(op.ID)] = op.ID
		}
		if err := vetRawID(ids[i], allowed); err != nil {
			return batchOpError(i, err)
		}
	}
	stored, err := s.backend.ReadMany(ctx, store.StrongConsistency, ids)
	if err != nil {
		return fromStore(err, "reading the resources of a batch")
	}
	owners := ownerCache{}
	// An operation is checked against what the operations before it in the
	// batch leave, as the backend applies them.
	current := map[string]*pbresource.Resource{}
	for i, op := range ops {
		key := describeID(ids[i])
		existing, changed := current[key]
		if !changed {
			existing = stored[i]
		}
		var err error
		if op.Kind == store.OpWrite {
			err = s.vetRawWrite(ctx, op.Resource, existing, deleted, allowed, owners)
			if err == nil && existing == nil {
				// An owner created earlier in the batch is as good as a
				// stored one for the operations after it.
				owners[describeID(op.Resource.GetId())+"\x00"] = op.Resource.GetId()
				owners[describeID(op.Resource.GetId())+"\x00"+op.Resource.GetId().GetUid()] = op.Resource.GetId()
			}
			current[key] = op.Resource
		} else {
			err = s.vetRawDelete(op, existing)
			current[key] = nil
		}
		if err != nil {
			return batchOpError(i, err)
		}
	}
	return nil
}

func vetRawID(id *pbresource.ID, allowed func(*pbresource.Tenancy) error) error {
	normalized, err := normalizeID(id, "batch operation")
	if err != nil {
		return err
	}
	return allowed(normalized.GetTenancy())
}

func (s *Service) vetRawWrite(ctx context.Context, res, existing *pbresource.Resource, deleted map[string]*pbresource.ID, allowed func(*pbresource.Tenancy) error, owners ownerCache) error {
	id := res.GetId()
	reg, ok := s.registry.Resolve(id.GetType())
	switch {
	case !ok:
		return errorf(codes.InvalidArgument, "resource type %s is not registered; this store accepts only known record types", typeKey(id.GetType()))
	case reg.internal:
		return vetTombstone(res, existing, deleted)
	}
	if res.GetOwner() != nil {
		if err := vetRawID(res.GetOwner(), allowed); err != nil {
			return err
		}
	}
	// The hooks must accept the resource as it is: Mutate has nothing left
	// to change in a resource the client's service already prepared.
	checked := proto.Clone(res).(*pbresource.Resource)
	if err := reg.mutateAndValidate(ctx, checked); err != nil {
		return err
	}
	if !proto.Equal(checked, res) {
		return errorf(codes.InvalidArgument, "%s is not in the form the type's hooks give it; write it through the ResourceService", describeID(id))
	}
	if _, err := ulid.ParseStrict(res.GetGeneration()); err != nil {
		return errorf(codes.InvalidArgument, "%s: generation %q is not a ULID", describeID(id), res.GetGeneration())
	}
	if existing == nil {
		return s.vetRawCreate(ctx, res, owners)
	}
	return vetRawUpdate(res, existing)
}

func (s *Service) vetRawCreate(ctx context.Context, res *pbresource.Resource, owners ownerCache) error {
	id := res.GetId()
	switch {
	case res.GetVersion() != "":
		return &Error{Code: codes.Aborted, Err: store.ErrCASFailure, Message: describeID(id) + " no longer exists; read it again"}
	case len(res.GetStatus()) > 0:
		return errorf(codes.InvalidArgument, "writing %s: status can only be set with WriteStatus", describeID(id))
	case isMarkedForDeletion(res):
		return errorf(codes.InvalidArgument, "writing %s: metadata %q is set only by Delete", describeID(id), DeletionTimestampKey)
	}
	if _, err := ulid.ParseStrict(id.GetUid()); err != nil {
		return errorf(codes.InvalidArgument, "creating %s: uid %q is not a ULID", describeID(id), id.GetUid())
	}
	if res.GetOwner() == nil {
		return nil
	}
	owner, err := s.resolveOwner(ctx, res.GetOwner(), owners)
	if err != nil {
		return err
	}
	if !proto.Equal(owner, res.GetOwner()) {
		return errorf(codes.InvalidArgument, "creating %s: owner %s must name the stored owner with its uid %s", describeID(id), describeID(res.GetOwner()), owner.GetUid())
	}
	return nil
}

// vetRawUpdate allows the changes Write, WriteStatus and Delete make to a
// stored resource, and nothing else.
func vetRawUpdate(res, existing *pbresource.Resource) error {
	id := res.GetId()
	contentSame := sameContent(res, existing)
	switch {
	case res.GetVersion() != existing.GetVersion():
		return casMismatch("writing", id, res.GetVersion())
	case id.GetUid() != existing.GetId().GetUid():
		return &Error{Code: codes.FailedPrecondition, Err: store.ErrWrongUid,
			Message: "writing " + describeID(id) + ": uid " + id.GetUid() + " is not the stored resource's (it was deleted and re-created); read it again"}
	case !proto.Equal(res.GetOwner(), existing.GetOwner()):
		return errorf(codes.InvalidArgument, "writing %s: the owner is set on creation and cannot be changed", describeID(id))
	case !sameStatus(res.GetStatus(), existing.GetStatus()) && (!contentSame || res.GetGeneration() != existing.GetGeneration()):
		return errorf(codes.InvalidArgument, "writing %s: status can only be changed with WriteStatus, which changes nothing else", describeID(id))
	case contentSame && res.GetGeneration() != existing.GetGeneration():
		return errorf(codes.InvalidArgument, "writing %s: the generation changes only with the content", describeID(id))
	case !contentSame && res.GetGeneration() == existing.GetGeneration():
		return errorf(codes.InvalidArgument, "writing %s: changed content needs a new generation", describeID(id))
	}
	if isMarkedForDeletion(res) && !isMarkedForDeletion(existing) {
		// Delete marks a resource that has finalizers, changing nothing else.
		marked := maps.Clone(existing.GetMetadata())
		if marked == nil {
			marked = map[string]string{}
		}
		marked[DeletionTimestampKey] = res.GetMetadata()[DeletionTimestampKey]
		if len(finalizers(existing)) == 0 || !maps.Equal(marked, res.GetMetadata()) || !proto.Equal(res.GetData(), existing.GetData()) {
			return errorf(codes.InvalidArgument, "writing %s: metadata %q is set only by Delete, on a resource with finalizers", describeID(id), DeletionTimestampKey)
		}
		return nil
	}
	return vetDeletionChange(res, existing)
}

// vetTombstone allows a tombstone only as Delete writes one: new, in the
// deleted owner's tenancy, named for it, beside the delete of exactly that
// owner in the same batch. Anything else would have the reaper delete what
// some other resource owns.
func vetTombstone(res, existing *pbresource.Resource, deleted map[string]*pbresource.ID) error {
	id := res.GetId()
	tombstone := &pbresource.Tombstone{}
	if err := res.GetData().UnmarshalTo(tombstone); err != nil {
		return errorf(codes.InvalidArgument, "%s: data must hold a Tombstone: %v", describeID(id), err)
	}
	owner := tombstone.GetOwner()
	victim, ok := deleted[describeID(owner)]
	switch {
	case existing != nil || res.GetVersion() != "":
		return errorf(codes.InvalidArgument, "%s: a tombstone is written once, by Delete", describeID(id))
	case owner == nil || !ok || victim.GetUid() != owner.GetUid() || owner.GetUid() == "":
		return errorf(codes.InvalidArgument, "%s: resource type %s is written only by the service itself, beside the delete of the resource it names", describeID(id), typeKey(id.GetType()))
	case !proto.Equal(id.GetTenancy(), owner.GetTenancy()) || id.GetName() != "tombstone-"+owner.GetUid() || res.GetOwner() != nil:
		return errorf(codes.InvalidArgument, "%s: a tombstone lives in the tenancy of the resource it names, under the name %q", describeID(id), fmt.Sprintf("tombstone-%s", owner.GetUid()))
	}
	return nil
}

// vetRawDelete allows deleting a registered type, tombstones included (the
// reaper deletes them once their promise is kept), and checks the Uid a
// delete names, as Delete does.
func (s *Service) vetRawDelete(op store.Op, existing *pbresource.Resource) error {
	if _, ok := s.registry.Resolve(op.ID.GetType()); !ok {
		return errorf(codes.InvalidArgument, "resource type %s is not registered; this store accepts only known record types", typeKey(op.ID.GetType()))
	}
	switch {
	case existing == nil:
		return nil
	case op.ID.GetUid() != "" && op.ID.GetUid() != existing.GetId().GetUid():
		return &Error{Code: codes.FailedPrecondition, Err: store.ErrWrongUid,
			Message: "deleting " + describeID(op.ID) + ": uid " + op.ID.GetUid() + " is not the stored resource's"}
	case op.Version != "" && op.Version != existing.GetVersion():
		return casMismatch("deleting", op.ID, op.Version)
	}
	return nil
}
