package recordstore

import (
	"context"
	"fmt"
	"sort"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// ComponentChild is one resource a component resource created, as its
// record holds it.
type ComponentChild struct {
	Type, Name, URN, ID string
	// OutputsJSON is the child's outputs as JSON, secrets redacted.
	OutputsJSON []byte
}

// WriteComponentChildren makes the child records of the component at
// componentAddr exactly children, in one commit: each child is written,
// and the records of children no longer listed are deleted. An empty list
// deletes them all, as deleting the component does.
func (s *Store) WriteComponentChildren(ctx context.Context, componentAddr string, children []ComponentChild) error {
	existing, err := s.listComponentChildren(ctx, componentAddr)
	if err != nil {
		return err
	}
	kept := make(map[string]bool, len(children))
	ops := make([]resourceservice.BatchOp, 0, len(children)+len(existing))
	for i, child := range children {
		id := records.ComponentChildID(s.project, s.workspace, componentAddr, child.URN)
		if kept[id.GetName()] {
			return fmt.Errorf("component %s lists the child %s twice", componentAddr, child.URN)
		}
		kept[id.GetName()] = true
		res, err := s.marshalRecord(id, &recordsv1.ComponentChild{
			Component: componentAddr, Type: child.Type, Name: child.Name, Urn: child.URN, Id: child.ID,
			OutputsJson: child.OutputsJSON, Index: int32(i),
		}, "")
		if err != nil {
			return fmt.Errorf("child %s of %s: %w", child.URN, componentAddr, err)
		}
		ops = append(ops, resourceservice.BatchOp{Write: res})
	}
	for _, res := range existing {
		if !kept[res.GetId().GetName()] {
			ops = append(ops, resourceservice.BatchOp{Delete: res.GetId()})
		}
	}
	return s.commitChildren(ctx, ops, "writing the children of "+componentAddr)
}

// RelocateComponentChildren makes child records follow edits of the state:
// the children of each component address in moved are renamed to the
// address it maps to, or deleted where it maps to "" (the component was
// removed from the state). One listing of the workspace's child records
// serves every address, and every change goes in one commit.
func (s *Store) RelocateComponentChildren(ctx context.Context, moved map[string]string) error {
	if len(moved) == 0 {
		return nil
	}
	tenancy := records.Tenancy(s.project, s.workspace)
	all, err := s.service.List(ctx, store.StrongConsistency, records.ComponentChildType, tenancy, "")
	if err != nil {
		return fmt.Errorf("listing the component children of workspace %q: %w", s.workspace, err)
	}
	var ops []resourceservice.BatchOp
	for _, res := range all {
		var rec recordsv1.ComponentChild
		if err := res.GetData().UnmarshalTo(&rec); err != nil {
			continue
		}
		to, ok := moved[rec.GetComponent()]
		if !ok {
			continue
		}
		ops = append(ops, resourceservice.BatchOp{Delete: res.GetId()})
		if to == "" {
			continue
		}
		rec.Component = to
		next, err := s.marshalRecord(records.ComponentChildID(s.project, s.workspace, to, rec.GetUrn()), &rec, "")
		if err != nil {
			return err
		}
		ops = append(ops, resourceservice.BatchOp{Write: next})
	}
	return s.commitChildren(ctx, ops, fmt.Sprintf("moving the component children of workspace %q", s.workspace))
}

// commitChildren writes child record changes in one commit, if any.
func (s *Store) commitChildren(ctx context.Context, ops []resourceservice.BatchOp, what string) error {
	if len(ops) == 0 {
		return nil
	}
	if _, err := s.service.Batch(ctx, ops); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// ComponentChildren lists the recorded children of the component at
// componentAddr, in the order the component registered them.
func (s *Store) ComponentChildren(ctx context.Context, componentAddr string) ([]ComponentChild, error) {
	existing, err := s.listComponentChildren(ctx, componentAddr)
	if err != nil {
		return nil, err
	}
	type indexed struct {
		index int32
		child ComponentChild
	}
	list := make([]indexed, 0, len(existing))
	for _, res := range existing {
		var rec recordsv1.ComponentChild
		if err := res.GetData().UnmarshalTo(&rec); err != nil {
			return nil, fmt.Errorf("child record %q: %w", res.GetId().GetName(), err)
		}
		list = append(list, indexed{rec.GetIndex(), ComponentChild{Type: rec.GetType(), Name: rec.GetName(), URN: rec.GetUrn(), ID: rec.GetId(), OutputsJSON: rec.GetOutputsJson()}})
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].index < list[j].index })
	out := make([]ComponentChild, len(list))
	for i, item := range list {
		out[i] = item.child
	}
	return out, nil
}

// listComponentChildren reads the child records of one component; the
// name prefix may also match another component whose address extends
// this one's, so the component field decides.
func (s *Store) listComponentChildren(ctx context.Context, componentAddr string) ([]*pbresource.Resource, error) {
	tenancy := records.Tenancy(s.project, s.workspace)
	found, err := s.service.List(ctx, store.StrongConsistency, records.ComponentChildType, tenancy, records.ComponentChildPrefix(componentAddr))
	if err != nil {
		return nil, fmt.Errorf("listing the children of %s: %w", componentAddr, err)
	}
	out := found[:0]
	for _, res := range found {
		var rec recordsv1.ComponentChild
		if err := res.GetData().UnmarshalTo(&rec); err == nil && rec.GetComponent() == componentAddr {
			out = append(out, res)
		}
	}
	return out, nil
}
