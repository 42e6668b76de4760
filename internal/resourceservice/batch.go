package resourceservice

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// BatchOp is one change of an atomic batch: a Write of Resource, or a Delete
// of ID with DeleteOptions.
type BatchOp struct {
	Write  *pbresource.Resource
	Delete *pbresource.ID
	// CreateOnly makes a Write fail with Aborted (wrapping
	// store.ErrCASFailure) when the resource already exists, atomically:
	// a concurrent create between the read and the commit fails the batch
	// too. The engine creates instance records this way so that two runs
	// never both believe they created the same object.
	CreateOnly bool
	// DeleteOptions apply to a Delete.
	DeleteOptions DeleteOptions
}

// Batch applies every change or none, each with the rules of Write and Delete
// (Uid, Generation, owner, status, finalizers, tombstones), in one backend
// batch — one durable commit however many records change. Results are in the
// order of ops; deletes have nil. A failure is an *Error wrapping a
// *store.BatchError whose Index names the failing op. Changes without a
// caller-given version are re-read and retried when a concurrent writer wins a
// race on them; a change with a version fails the batch with Aborted.
func (s *Service) Batch(ctx context.Context, ops []BatchOp) ([]*pbresource.Resource, error) {
	prepared, err := s.prepareBatch(ctx, ops)
	if err != nil {
		return nil, err
	}
	mayRetry := func(err error) bool {
		var batchErr *store.BatchError
		return errors.As(err, &batchErr) && prepared[batchErr.Index].version() == ""
	}
	owners := ownerCache{}
	return retryCAS(ctx, mayRetry, func() ([]*pbresource.Resource, error) {
		return s.attemptBatch(ctx, prepared, owners)
	})
}

// preparedOp is a validated, mutated BatchOp.
type preparedOp struct {
	write      *pbresource.Resource
	delete     *pbresource.ID
	opts       DeleteOptions
	reg        Registration
	createOnly bool
}

func (p preparedOp) id() *pbresource.ID {
	if p.write != nil {
		return p.write.GetId()
	}
	return p.delete
}

func (p preparedOp) version() string {
	if p.write != nil {
		return p.write.GetVersion()
	}
	return p.opts.Version
}

func (s *Service) prepareBatch(ctx context.Context, ops []BatchOp) ([]preparedOp, error) {
	prepared := make([]preparedOp, len(ops))
	seen := make(map[string]int, len(ops))
	for i, op := range ops {
		p, err := s.prepareOp(ctx, op)
		if err != nil {
			return nil, batchOpError(i, err)
		}
		key := describeID(p.id())
		if first, dup := seen[key]; dup {
			return nil, batchOpError(i, errorf(codes.InvalidArgument, "%s is also changed by operation %d; a batch changes each resource once", key, first))
		}
		seen[key] = i
		prepared[i] = p
	}
	return prepared, nil
}

func (s *Service) prepareOp(ctx context.Context, op BatchOp) (preparedOp, error) {
	switch {
	case (op.Write == nil) == (op.Delete == nil):
		return preparedOp{}, errorf(codes.InvalidArgument, "a batch operation must set exactly one of Write and Delete")
	case op.Write != nil:
		input, reg, err := s.prepareInput(op.Write)
		if err == nil {
			err = reg.mutateAndValidate(ctx, input)
		}
		return preparedOp{write: input, reg: reg, createOnly: op.CreateOnly}, err
	default:
		id, err := normalizeID(op.Delete, "delete")
		if err != nil {
			return preparedOp{}, err
		}
		reg, err := s.registry.resolveWritable(id.GetType())
		return preparedOp{delete: id, opts: op.DeleteOptions, reg: reg}, err
	}
}

// attemptBatch reads every resource, plans every change and commits them.
func (s *Service) attemptBatch(ctx context.Context, prepared []preparedOp, owners ownerCache) ([]*pbresource.Resource, error) {
	stored, err := s.readBatch(ctx, prepared)
	if err != nil {
		return nil, err
	}
	results := make([]*pbresource.Resource, len(prepared))
	var backendOps []store.Op
	var origin []int // origin[i] is the prepared op behind backendOps[i]
	var written []writtenAt
	for i, p := range prepared {
		existing := stored[i]
		if p.createOnly && existing != nil {
			return nil, batchOpError(i, &Error{Code: codes.Aborted, Err: store.ErrCASFailure,
				Message: describeID(p.id()) + " already exists; another run created it first"})
		}
		ops, change, err := s.planBatchOp(ctx, p, existing, owners)
		if err != nil {
			return nil, batchOpError(i, err)
		}
		switch {
		case change.unchanged != nil:
			results[i] = change.unchanged
		case change.deleted != nil:
			results[i] = change.deleted
		case p.write != nil:
			written = append(written, writtenAt{op: i, backendIndex: len(backendOps) + change.resultIndex})
		}
		for range ops {
			origin = append(origin, i)
		}
		backendOps = append(backendOps, ops...)
	}
	if len(backendOps) == 0 {
		return results, nil
	}
	stored, err = s.backend.Batch(ctx, backendOps)
	if err != nil {
		var batchErr *store.BatchError
		if errors.As(err, &batchErr) && batchErr.Index >= 0 && batchErr.Index < len(origin) {
			callerIndex := origin[batchErr.Index]
			return nil, batchOpError(callerIndex, fromStore(batchErr.Err, "changing "+describeID(prepared[callerIndex].id())))
		}
		return nil, fromStore(err, "applying a batch")
	}
	for _, w := range written {
		results[w.op] = stored[w.backendIndex]
	}
	return results, nil
}

type writtenAt struct{ op, backendIndex int }

// readBatch returns what is stored under each op's name (nil if nothing) in
// one backend read rather than one per op. A resource stored under another
// GroupVersion is returned as stored: writing it under the new one upgrades
// it, as Write does.
func (s *Service) readBatch(ctx context.Context, prepared []preparedOp) ([]*pbresource.Resource, error) {
	ids := make([]*pbresource.ID, len(prepared))
	for i, p := range prepared {
		ids[i] = p.id()
	}
	stored, err := s.backend.ReadMany(ctx, store.EventualConsistency, ids)
	if err != nil {
		return nil, fromStore(err, fmt.Sprintf("reading the %d resources of a batch", len(ids)))
	}
	return stored, nil
}

func (s *Service) planBatchOp(ctx context.Context, p preparedOp, existing *pbresource.Resource, owners ownerCache) ([]store.Op, plannedChange, error) {
	if p.write != nil {
		change, err := s.planWrite(ctx, p.reg, p.write, existing, owners)
		return change.ops, change, err
	}
	if existing == nil {
		return nil, plannedChange{}, nil
	}
	ops, err := s.planDelete(ctx, p.reg, p.delete, existing, p.opts)
	return ops, plannedChange{}, err
}

// batchOpError names the failing operation of a batch, keeping the code.
func batchOpError(index int, err error) error {
	code := codes.Internal
	var svcErr *Error
	if errors.As(err, &svcErr) {
		code = svcErr.Code
	}
	inner := err
	if svcErr != nil && svcErr.Err != nil {
		inner = svcErr.Err
	}
	return &Error{Code: code, Message: fmt.Sprintf("batch operation %d: %v", index, err),
		Err: &store.BatchError{Index: index, Err: inner}}
}
