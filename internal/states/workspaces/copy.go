package workspaces

import (
	"context"
	"fmt"
	"slices"

	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// copyBatchSize is how many operations one batch of a copy carries: the
// backends split a batch to their own limits, so this only bounds memory
// and the size of one request.
const copyBatchSize = 500

// Contents are the records of one project in a store, by workspace.
type Contents map[string][]*pbresource.Resource

// ReadProject returns every record of project in backend, by workspace,
// each workspace's Workspace record first.
func ReadProject(ctx context.Context, backend store.Backend, project string) (Contents, error) {
	contents := Contents{}
	for _, resType := range records.Types() {
		found, err := backend.List(ctx, store.StrongConsistency, resType, &pbresource.Tenancy{Partition: project, Namespace: store.Wildcard}, "")
		if err != nil {
			return nil, fmt.Errorf("listing the %s records of project %q: %w", resType.GetKind(), project, err)
		}
		for _, res := range found {
			workspace := res.GetId().GetTenancy().GetNamespace()
			contents[workspace] = append(contents[workspace], res)
		}
	}
	return contents, nil
}

// Workspaces returns the names of the workspaces that hold state: records
// other than the workspace record itself (an empty workspace has nothing
// to copy or to lose).
func (c Contents) Workspaces() []string {
	var names []string
	for name, list := range c {
		for _, res := range list {
			if res.GetId().GetType().GetKind() != records.WorkspaceType.GetKind() {
				names = append(names, name)
				break
			}
		}
	}
	slices.Sort(names)
	return names
}

// Count returns how many records the workspaces hold.
func (c Contents) Count(workspaces []string) int {
	n := 0
	for _, name := range workspaces {
		n += len(c[name])
	}
	return n
}

// CopyWorkspace makes workspace's records in target exactly source's
// records of it: each is written as it is stored, Uid, Generation, owner,
// status and data (open intents included), so plans made against the source
// still name the same records and their history carries over. Records of
// the workspace already in target are deleted first.
func CopyWorkspace(ctx context.Context, target store.Backend, project, workspace string, source, existing []*pbresource.Resource) error {
	var ops []store.Op
	// Owned records go before their owner, so no moment has a record whose
	// owner is gone.
	for _, res := range slices.Backward(existing) {
		ops = append(ops, store.Op{Kind: store.OpDelete, ID: res.GetId(), Version: res.GetVersion()})
	}
	if err := runBatches(ctx, target, ops); err != nil {
		return fmt.Errorf("clearing workspace %q of project %q in the target store: %w", workspace, project, err)
	}
	ops = ops[:0]
	for _, res := range source {
		created := store.Clone(res)
		created.Version = "" // create only: the target must not hold it now
		ops = append(ops, store.Op{Kind: store.OpWrite, Resource: created})
	}
	if err := runBatches(ctx, target, ops); err != nil {
		return fmt.Errorf("copying workspace %q of project %q: %w", workspace, project, err)
	}
	return nil
}

func runBatches(ctx context.Context, backend store.Backend, ops []store.Op) error {
	for start := 0; start < len(ops); start += copyBatchSize {
		if _, err := backend.Batch(ctx, ops[start:min(start+copyBatchSize, len(ops))]); err != nil {
			return err
		}
	}
	return nil
}
