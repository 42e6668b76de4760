package recordstore

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/store"
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
	results, err := s.service.Batch(ctx, ops)
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
