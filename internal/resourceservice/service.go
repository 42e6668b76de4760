package resourceservice

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// Service applies seed 001's rules to the records of one backend. It is safe
// for concurrent use; any number of Services (in any number of processes)
// may share a backend, because every change is a compare-and-swap.
type Service struct {
	backend  store.Backend
	registry *Registry
}

// New returns a service storing records in backend and accepting writes of
// the types in registry.
func New(backend store.Backend, registry *Registry) *Service {
	return &Service{backend: backend, registry: registry}
}

// Registry returns the service's type registry.
func (s *Service) Registry() *Registry { return s.registry }

// Read returns the resource with the given ID. A Uid in the ID must match the
// stored resource's (FailedPrecondition otherwise). A resource stored under
// another GroupVersion is InvalidArgument wrapping store.GroupVersionMismatchError.
func (s *Service) Read(ctx context.Context, consistency store.ReadConsistency, id *pbresource.ID) (*pbresource.Resource, error) {
	id, err := normalizeID(id, "read")
	if err != nil {
		return nil, err
	}
	res, err := s.backend.Read(ctx, consistency, id)
	if err != nil {
		return nil, fromStore(err, "reading "+describeID(id))
	}
	if id.GetUid() != "" && id.GetUid() != res.GetId().GetUid() {
		return nil, errorf(codes.FailedPrecondition, "reading %s: the resource with uid %s was deleted and re-created since it was read", describeID(id), id.GetUid())
	}
	return res, nil
}

// ReadMany returns the stored resource for each ID, in the order of ids,
// with nil where none is stored, in one backend read (see
// store.Backend.ReadMany).
func (s *Service) ReadMany(ctx context.Context, consistency store.ReadConsistency, ids []*pbresource.ID) ([]*pbresource.Resource, error) {
	normalized := make([]*pbresource.ID, len(ids))
	for i, id := range ids {
		var err error
		if normalized[i], err = normalizeID(id, "read"); err != nil {
			return nil, err
		}
	}
	found, err := s.backend.ReadMany(ctx, consistency, normalized)
	if err != nil {
		return nil, fromStore(err, fmt.Sprintf("reading %d resources", len(ids)))
	}
	return found, nil
}

// List returns the resources of a type whose tenancy matches (units may be
// store.Wildcard) and whose name starts with namePrefix.
func (s *Service) List(ctx context.Context, consistency store.ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) ([]*pbresource.Resource, error) {
	if err := validateType(resType, "list"); err != nil {
		return nil, err
	}
	tenancy, err := normalizeTenancy(tenancy, true)
	if err != nil {
		return nil, err
	}
	list, err := s.backend.List(ctx, consistency, resType, tenancy, namePrefix)
	return list, fromStore(err, "listing "+typeKey(resType))
}

// ListEach hands the resources List would return to yield one at a time,
// stopping at the first error yield returns. Where the backend can read them
// one at a time (store.EachLister) the caller never holds them all; where
// it cannot, each is let go once yield has it, so the list shrinks while the
// caller's result grows.
func (s *Service) ListEach(ctx context.Context, consistency store.ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string, yield func(*pbresource.Resource) error) error {
	if err := validateType(resType, "list"); err != nil {
		return err
	}
	tenancy, err := normalizeTenancy(tenancy, true)
	if err != nil {
		return err
	}
	// An error of yield's is returned as it is, not as a store failure.
	var yieldErr error
	keep := func(res *pbresource.Resource) error {
		yieldErr = yield(res)
		return yieldErr
	}
	if each, ok := s.backend.(store.EachLister); ok {
		err = each.ListEach(ctx, consistency, resType, tenancy, namePrefix, keep)
	} else {
		var list []*pbresource.Resource
		if list, err = s.backend.List(ctx, consistency, resType, tenancy, namePrefix); err == nil {
			for i, res := range list {
				list[i] = nil
				if err = keep(res); err != nil {
					break
				}
			}
		}
	}
	if yieldErr != nil {
		return yieldErr
	}
	return fromStore(err, "listing "+typeKey(resType))
}

// ListByOwner returns the resources owned by the given incarnation of a
// resource; owner must carry a Uid.
func (s *Service) ListByOwner(ctx context.Context, owner *pbresource.ID) ([]*pbresource.Resource, error) {
	owner, err := normalizeID(owner, "list by owner")
	if err != nil {
		return nil, err
	}
	if owner.GetUid() == "" {
		return nil, errorf(codes.InvalidArgument, "list by owner %s: the owner's uid is required", describeID(owner))
	}
	list, err := s.backend.ListByOwner(ctx, owner)
	return list, fromStore(err, "listing resources owned by "+describeID(owner))
}

// WatchList streams the matching resources as upserts, one EndOfSnapshot
// event, then every later upsert and delete in the order they were applied.
func (s *Service) WatchList(ctx context.Context, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) (store.Watch, error) {
	if err := validateType(resType, "watch"); err != nil {
		return nil, err
	}
	tenancy, err := normalizeTenancy(tenancy, true)
	if err != nil {
		return nil, err
	}
	watch, err := s.backend.WatchList(ctx, resType, tenancy, namePrefix)
	return watch, fromStore(err, "watching "+typeKey(resType))
}

// MutateAndValidate returns res after its type's mutate hook, having checked
// it with the type's validate hook, without writing it.
func (s *Service) MutateAndValidate(ctx context.Context, res *pbresource.Resource) (*pbresource.Resource, error) {
	input, reg, err := s.prepareInput(res)
	if err != nil {
		return nil, err
	}
	if err := reg.mutateAndValidate(ctx, input); err != nil {
		return nil, err
	}
	return input, nil
}

// unlessVersionGiven is a retryCAS policy for a single change: retry only
// when the caller gave no version.
func unlessVersionGiven(version string) func(error) bool {
	return func(error) bool { return version == "" }
}

// casRetries bounds how often a write or delete without a caller-given
// Version re-reads and retries after losing a compare-and-swap race.
const casRetries = 8

// retryCAS runs attempt until it succeeds, fails otherwise, or loses
// casRetries compare-and-swap races; a lost race is retried only when
// mayRetry says the caller gave no version for what failed.
func retryCAS[T any](ctx context.Context, mayRetry func(error) bool, attempt func() (T, error)) (T, error) {
	for try := 0; ; try++ {
		result, err := attempt()
		if err == nil || try >= casRetries || !errors.Is(err, store.ErrCASFailure) || !mayRetry(err) {
			return result, err
		}
		backoff := time.Duration(1<<try)*time.Millisecond + rand.N(time.Millisecond)
		select {
		case <-ctx.Done():
			var zero T
			return zero, fromStore(ctx.Err(), "retrying a compare-and-swap")
		case <-time.After(backoff):
		}
	}
}
