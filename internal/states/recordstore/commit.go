package recordstore

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// InstanceChange is one instance write of a Commit.
type InstanceChange struct {
	Addr           addrs.AbsResourceInstance
	ProviderConfig addrs.AbsProviderConfig
	// Instance is the instance's new content; nil or empty deletes it.
	Instance *states.ResourceInstance
	// Prior is the record version the change was based on; nil means the
	// instance must not exist yet (create-if-absent).
	Prior *RecordVersion
}

// ConflictError reports that an instance changed in the store since the
// change to it was prepared: another run got there first.
type ConflictError struct {
	Addr   addrs.AbsResourceInstance
	Detail string
	Err    error
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s: %s; read the state again (plan again) before changing it", e.Addr, e.Detail)
}

func (e *ConflictError) Unwrap() error { return e.Err }

// Commit writes every change or none, in one durable commit, and returns
// the new record version of each instance written (keyed by address
// string; deleted instances have none). Changes with a Prior are
// compare-and-swap on its Version; changes without one create the record
// with the service's create-only write and fail with a *ConflictError if
// it exists — atomically, so two runs never both create one address.
func (s *Store) Commit(ctx context.Context, changes []InstanceChange) (map[string]RecordVersion, error) {
	if len(changes) == 0 {
		return map[string]RecordVersion{}, nil
	}
	ops := make([]resourceservice.BatchOp, len(changes))
	for i, change := range changes {
		op, err := s.batchOp(change)
		if err != nil {
			return nil, err
		}
		ops[i] = op
	}
	results, err := s.commitTolerantOfStatus(ctx, changes, ops)
	if err != nil {
		return nil, s.explainBatchError(changes, err)
	}
	versions := make(map[string]RecordVersion, len(changes))
	for i, res := range results {
		if res != nil && ops[i].Write != nil {
			versions[changes[i].Addr.String()] = versionOf(res)
		}
	}
	return versions, nil
}

func (s *Store) batchOp(change InstanceChange) (resourceservice.BatchOp, error) {
	id := records.InstanceID(s.project, s.workspace, change.Addr.String())
	version := ""
	if change.Prior != nil {
		version = change.Prior.Version
	}
	if change.Instance.IsEmpty() {
		if change.Prior == nil {
			// Nothing was read, so there is nothing to compare against:
			// deleting an absent record succeeds, as the service's Delete
			// does.
			return resourceservice.BatchOp{Delete: id}, nil
		}
		return resourceservice.BatchOp{Delete: id, DeleteOptions: resourceservice.DeleteOptions{Version: version}}, nil
	}
	rec, err := InstanceToRecord(change.Addr, change.ProviderConfig, change.Instance)
	if err != nil {
		return resourceservice.BatchOp{}, err
	}
	res, err := s.marshalRecord(id, rec, version)
	if err != nil {
		return resourceservice.BatchOp{}, fmt.Errorf("%s: %w", change.Addr, err)
	}
	return resourceservice.BatchOp{Write: res, CreateOnly: change.Prior == nil}, nil
}

// statusRetries bounds how often one Commit follows records whose status
// alone changed under it.
const statusRetries = 16

// commitTolerantOfStatus commits ops as one batch. A compare-and-swap lost
// to a write that changed only a record's status (a controller's
// WriteStatus: Version moves, Generation does not) is no conflict: seed 001
// keeps status apart from content, and the reconciler's status writes must
// never stop an apply. The op is based on the record's new Version and the
// batch committed again; a change of content still fails it.
func (s *Store) commitTolerantOfStatus(ctx context.Context, changes []InstanceChange, ops []resourceservice.BatchOp) ([]*pbresource.Resource, error) {
	for try := 0; ; try++ {
		results, err := s.service.Batch(ctx, ops)
		if err == nil || try >= statusRetries {
			return results, err
		}
		var batchErr *store.BatchError
		if !errors.As(err, &batchErr) || batchErr.Index < 0 || batchErr.Index >= len(changes) ||
			(status.Code(err) != codes.Aborted && !errors.Is(err, store.ErrCASFailure)) {
			return nil, err
		}
		prior := changes[batchErr.Index].Prior
		if prior == nil {
			return nil, err
		}
		id := records.InstanceID(s.project, s.workspace, changes[batchErr.Index].Addr.String())
		stored, readErr := s.service.Read(ctx, store.StrongConsistency, id)
		if readErr != nil || stored.GetId().GetUid() != prior.Uid || stored.GetGeneration() != prior.Generation || stored.GetVersion() == prior.Version {
			return nil, err
		}
		ops[batchErr.Index] = withVersion(ops[batchErr.Index], stored.GetVersion())
	}
}

// withVersion returns op comparing against version instead.
func withVersion(op resourceservice.BatchOp, version string) resourceservice.BatchOp {
	if op.Write != nil {
		write := proto.Clone(op.Write).(*pbresource.Resource)
		write.Version = version
		op.Write = write
		return op
	}
	op.DeleteOptions.Version = version
	return op
}

// explainBatchError names the instance whose compare-and-swap failed.
func (s *Store) explainBatchError(changes []InstanceChange, err error) error {
	var batchErr *store.BatchError
	if !errors.As(err, &batchErr) || batchErr.Index < 0 || batchErr.Index >= len(changes) {
		return fmt.Errorf("writing the state of workspace %q: %w", s.workspace, err)
	}
	addr := changes[batchErr.Index].Addr
	if status.Code(err) == codes.Aborted || errors.Is(err, store.ErrCASFailure) {
		return &ConflictError{Addr: addr, Detail: "it was changed by another run since this one read it", Err: err}
	}
	return fmt.Errorf("writing %s: %w", addr, err)
}

// WriteOutputs makes the workspace's output records hold exactly outputs,
// writing changed ones and deleting the rest, in one commit.
func (s *Store) WriteOutputs(ctx context.Context, outputs map[string]*states.OutputValue) error {
	tenancy := records.Tenancy(s.project, s.workspace)
	existing, err := s.service.List(ctx, store.StrongConsistency, records.OutputType, tenancy, "")
	if err != nil {
		return fmt.Errorf("listing the outputs of workspace %q: %w", s.workspace, err)
	}
	var ops []resourceservice.BatchOp
	for _, res := range existing {
		if _, kept := outputs[res.GetId().GetName()]; !kept {
			ops = append(ops, resourceservice.BatchOp{Delete: res.GetId()})
		}
	}
	for name, output := range outputs {
		rec, err := OutputToRecord(output)
		if err != nil {
			return fmt.Errorf("output %q: %w", name, err)
		}
		res, err := s.marshalRecord(records.OutputID(s.project, s.workspace, name), rec, "")
		if err != nil {
			return fmt.Errorf("output %q: %w", name, err)
		}
		ops = append(ops, resourceservice.BatchOp{Write: res})
	}
	if len(ops) == 0 {
		return nil
	}
	if _, err := s.service.Batch(ctx, ops); err != nil {
		return fmt.Errorf("writing the outputs of workspace %q: %w", s.workspace, err)
	}
	return nil
}
