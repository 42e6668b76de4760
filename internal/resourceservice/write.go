package resourceservice

import (
	"context"
	"errors"
	"time"

	"github.com/oklog/ulid/v2"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// Write creates or updates a resource with seed 001's rules: the service sets
// Uid (on create) and Generation (when content changes); an empty Version
// writes over whatever is current, retrying lost races; a given Version is a
// single compare-and-swap (Aborted on mismatch); a given Uid must be the
// stored one (FailedPrecondition); status can only be written by
// WriteStatus and the owner never changes (InvalidArgument). A write that
// changes nothing returns the stored resource untouched. A write removing the
// last finalizer of a resource marked for deletion deletes it.
func (s *Service) Write(ctx context.Context, res *pbresource.Resource) (*pbresource.Resource, error) {
	input, reg, err := s.prepareInput(res)
	if err != nil {
		return nil, err
	}
	if err := reg.mutateAndValidate(ctx, input); err != nil {
		return nil, err
	}
	owners := ownerCache{}
	return retryCAS(ctx, unlessVersionGiven(input.GetVersion()), func() (*pbresource.Resource, error) {
		existing, err := s.readExisting(ctx, input.GetId())
		if err != nil {
			return nil, err
		}
		change, err := s.planWrite(ctx, reg, input, existing, owners)
		if err != nil || change.unchanged != nil {
			return change.unchanged, err
		}
		results, err := s.backend.Batch(ctx, change.ops)
		if err != nil {
			return nil, fromStore(unwrapBatch(err), "writing "+describeID(input.GetId()))
		}
		return change.result(results), nil
	})
}

// prepareInput validates what every write needs and returns a copy of res
// with defaulted tenancy, ready for hooks.
func (s *Service) prepareInput(res *pbresource.Resource) (*pbresource.Resource, Registration, error) {
	if res == nil {
		return nil, Registration{}, errorf(codes.InvalidArgument, "write: a resource is required")
	}
	id, err := normalizeID(res.GetId(), "write")
	if err != nil {
		return nil, Registration{}, err
	}
	if id.GetType().GetGroupVersion() == "" {
		return nil, Registration{}, errorf(codes.InvalidArgument, "write %s: the type's group version is required", describeID(id))
	}
	reg, err := s.registry.resolveWritable(id.GetType())
	if err != nil {
		return nil, reg, err
	}
	input := proto.Clone(res).(*pbresource.Resource)
	input.Id = id
	if res.GetOwner() != nil {
		if input.Owner, err = normalizeID(res.GetOwner(), "owner of "+describeID(id)); err != nil {
			return nil, reg, err
		}
	}
	return input, reg, nil
}

// readExisting returns the stored resource with id's name, or nil.
func (s *Service) readExisting(ctx context.Context, id *pbresource.ID) (*pbresource.Resource, error) {
	existing, err := s.backend.Read(ctx, store.EventualConsistency, id)
	var mismatch store.GroupVersionMismatchError
	switch {
	case err == nil:
		return existing, nil
	case errors.Is(err, store.ErrNotFound):
		return nil, nil
	case errors.As(err, &mismatch):
		// Writing under a new GroupVersion upgrades the stored resource.
		return mismatch.Stored, nil
	default:
		return nil, fromStore(err, "reading "+describeID(id))
	}
}

// plannedChange is what one write attempt does to the backend.
type plannedChange struct {
	ops         []store.Op
	resultIndex int
	// unchanged is set, and ops empty, when the write changes nothing.
	unchanged *pbresource.Resource
	// deleted is set when the write removed the last finalizer of a resource
	// marked for deletion, so ops delete it.
	deleted *pbresource.Resource
}

func (c plannedChange) result(stored []*pbresource.Resource) *pbresource.Resource {
	if c.deleted != nil {
		return c.deleted
	}
	return stored[c.resultIndex]
}

func (s *Service) planWrite(ctx context.Context, reg Registration, input, existing *pbresource.Resource, owners ownerCache) (plannedChange, error) {
	if existing == nil {
		return s.planCreate(ctx, input, owners)
	}
	return s.planUpdate(reg, input, existing)
}

func (s *Service) planCreate(ctx context.Context, input *pbresource.Resource, owners ownerCache) (plannedChange, error) {
	id := input.GetId()
	switch {
	case id.GetUid() != "":
		return plannedChange{}, &Error{Code: codes.FailedPrecondition, Err: store.ErrWrongUid,
			Message: "writing " + describeID(id) + ": the resource with uid " + id.GetUid() + " no longer exists; omit the uid to create a new one"}
	case len(input.GetStatus()) > 0:
		return plannedChange{}, errorf(codes.InvalidArgument, "writing %s: status can only be set with WriteStatus", describeID(id))
	case isMarkedForDeletion(input):
		return plannedChange{}, errorf(codes.InvalidArgument, "writing %s: metadata %q is set only by Delete", describeID(id), DeletionTimestampKey)
	}
	next := proto.Clone(input).(*pbresource.Resource)
	if input.GetOwner() != nil {
		owner, err := s.resolveOwner(ctx, input.GetOwner(), owners)
		if err != nil {
			return plannedChange{}, err
		}
		next.Owner = owner
	}
	next.Id.Uid = ulid.Make().String()
	next.Generation = ulid.Make().String()
	return plannedChange{ops: []store.Op{{Kind: store.OpWrite, Resource: next}}}, nil
}

func (s *Service) planUpdate(reg Registration, input, existing *pbresource.Resource) (plannedChange, error) {
	id := existing.GetId()
	switch {
	case input.GetId().GetUid() != "" && input.GetId().GetUid() != id.GetUid():
		return plannedChange{}, &Error{Code: codes.FailedPrecondition, Err: store.ErrWrongUid,
			Message: "writing " + describeID(id) + ": uid " + input.GetId().GetUid() + " is not the stored resource's (it was deleted and re-created); read it again"}
	case input.GetVersion() != "" && input.GetVersion() != existing.GetVersion():
		return plannedChange{}, casMismatch("writing", id, input.GetVersion())
	case input.GetOwner() != nil && !sameOwner(input.GetOwner(), existing.GetOwner()):
		return plannedChange{}, errorf(codes.InvalidArgument, "writing %s: the owner is set on creation and cannot be changed", describeID(id))
	case len(input.GetStatus()) > 0 && !sameStatus(input.GetStatus(), existing.GetStatus()):
		return plannedChange{}, errorf(codes.InvalidArgument, "writing %s: status can only be changed with WriteStatus", describeID(id))
	}
	if err := vetDeletionChange(input, existing); err != nil {
		return plannedChange{}, err
	}
	next := proto.Clone(input).(*pbresource.Resource)
	next.Id.Uid = id.GetUid()
	next.Owner = existing.GetOwner()
	next.Status = existing.GetStatus()
	next.Version = existing.GetVersion()
	if sameContent(next, existing) {
		return plannedChange{unchanged: existing}, nil
	}
	next.Generation = ulid.Make().String()
	if isMarkedForDeletion(next) && len(finalizers(next)) == 0 {
		return plannedChange{ops: s.deleteOps(reg, existing, existing.GetVersion()), deleted: next}, nil
	}
	return plannedChange{ops: []store.Op{{Kind: store.OpWrite, Resource: next}}}, nil
}

func casMismatch(verb string, id *pbresource.ID, version string) error {
	return &Error{Code: codes.Aborted, Err: store.ErrCASFailure,
		Message: verb + " " + describeID(id) + ": version " + version + " is not the stored version; read it again and retry"}
}

// ownerCache remembers resolved owners for the writes of one call.
type ownerCache map[string]*pbresource.ID

// resolveOwner returns the stored ID of an owner, Uid included. Owners must
// exist when their owned resources are created: an owned resource created
// after its owner was deleted would never be reaped.
func (s *Service) resolveOwner(ctx context.Context, owner *pbresource.ID, owners ownerCache) (*pbresource.ID, error) {
	key := describeID(owner) + "\x00" + owner.GetUid()
	if known, ok := owners[key]; ok {
		return known, nil
	}
	if reg, ok := s.registry.Resolve(owner.GetType()); ok && reg.Leaf {
		return nil, errorf(codes.InvalidArgument, "owner %s: resources of type %s cannot own other resources", describeID(owner), typeKey(owner.GetType()))
	}
	stored, err := s.backend.Read(ctx, store.EventualConsistency, owner)
	var mismatch store.GroupVersionMismatchError
	if errors.As(err, &mismatch) {
		stored, err = mismatch.Stored, nil
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, errorf(codes.InvalidArgument, "owner %s does not exist; create it first", describeID(owner))
	case err != nil:
		return nil, fromStore(err, "reading owner "+describeID(owner))
	case owner.GetUid() != "" && owner.GetUid() != stored.GetId().GetUid():
		return nil, errorf(codes.InvalidArgument, "owner %s with uid %s was deleted; it now has uid %s", describeID(owner), owner.GetUid(), stored.GetId().GetUid())
	}
	owners[key] = stored.GetId()
	return stored.GetId(), nil
}

// unwrapBatch returns the error of the failing operation of a batch.
func unwrapBatch(err error) error {
	var batchErr *store.BatchError
	if errors.As(err, &batchErr) {
		return batchErr.Err
	}
	return err
}

// WriteStatus sets one status key of the resource incarnation named by id
// (its Uid is required), leaving Generation alone. An empty version writes
// over whatever is current; a given one is a single compare-and-swap.
func (s *Service) WriteStatus(ctx context.Context, id *pbresource.ID, version, key string, st *pbresource.Status) (*pbresource.Resource, error) {
	id, err := normalizeID(id, "write status")
	if err != nil {
		return nil, err
	}
	if err := validateStatusRequest(id, key, st); err != nil {
		return nil, err
	}
	return retryCAS(ctx, unlessVersionGiven(version), func() (*pbresource.Resource, error) {
		existing, err := s.backend.Read(ctx, store.EventualConsistency, id)
		switch {
		case err != nil:
			return nil, fromStore(err, "writing status "+key+" of "+describeID(id))
		case existing.GetId().GetUid() != id.GetUid():
			return nil, &Error{Code: codes.FailedPrecondition, Err: store.ErrWrongUid,
				Message: "writing status " + key + " of " + describeID(id) + ": uid " + id.GetUid() + " is not the stored resource's; read it again"}
		case version != "" && version != existing.GetVersion():
			return nil, casMismatch("writing status of", id, version)
		}
		next := proto.Clone(existing).(*pbresource.Resource)
		if next.Status == nil {
			next.Status = map[string]*pbresource.Status{}
		}
		written := proto.Clone(st).(*pbresource.Status)
		written.UpdatedAt = timestamppb.New(time.Now())
		next.Status[key] = written
		stored, err := s.backend.WriteCAS(ctx, next)
		return stored, fromStore(err, "writing status "+key+" of "+describeID(id))
	})
}

func validateStatusRequest(id *pbresource.ID, key string, st *pbresource.Status) error {
	what := "write status of " + describeID(id)
	switch {
	case id.GetUid() == "":
		return errorf(codes.InvalidArgument, "%s: the resource's uid is required", what)
	case key == "":
		return errorf(codes.InvalidArgument, "%s: a status key is required", what)
	case st == nil:
		return errorf(codes.InvalidArgument, "%s: a status is required", what)
	case st.GetObservedGeneration() == "":
		return errorf(codes.InvalidArgument, "%s: observed_generation is required", what)
	}
	if _, err := ulid.ParseStrict(st.GetObservedGeneration()); err != nil {
		return errorf(codes.InvalidArgument, "%s: observed_generation %q is not a generation (ULID): %v", what, st.GetObservedGeneration(), err)
	}
	return nil
}
