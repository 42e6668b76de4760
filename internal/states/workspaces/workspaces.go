package workspaces

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/encrypted"
	"github.com/terrane/terrane/proto/pbresource"
)

// ErrNotFound reports a workspace with no record.
var ErrNotFound = errors.New("workspace not found")

// NotEmptyError reports a workspace that still holds resource instances:
// deleting it would forget objects that still exist.
type NotEmptyError struct {
	Workspace string
	Instances []string
}

func (e *NotEmptyError) Error() string {
	return fmt.Sprintf("workspace %q still holds %d resource instance(s), such as %s", e.Workspace, len(e.Instances), e.Instances[0])
}

// List returns the names of project's workspaces, sorted. Names are
// readable without the keys of encrypted workspaces.
func List(ctx context.Context, service *resourceservice.Service, project string) ([]string, error) {
	ctx = encrypted.IdentitiesOnly(ctx)
	found, err := service.List(ctx, store.StrongConsistency, records.WorkspaceType,
		&pbresource.Tenancy{Partition: project, Namespace: store.Wildcard}, "")
	if err != nil {
		return nil, fmt.Errorf("listing the workspaces of project %q: %w", project, err)
	}
	names := make([]string, 0, len(found))
	for _, res := range found {
		names = append(names, res.GetId().GetName())
	}
	slices.Sort(names)
	return names, nil
}

// Exists reports whether workspace has a record in project.
func Exists(ctx context.Context, service *resourceservice.Service, project, workspace string) (bool, error) {
	ctx = encrypted.IdentitiesOnly(ctx)
	_, err := service.Read(ctx, store.StrongConsistency, records.WorkspaceID(project, workspace))
	switch {
	case status.Code(err) == codes.NotFound:
		return false, nil
	case err != nil:
		return false, fmt.Errorf("reading workspace %q of project %q: %w", workspace, project, err)
	}
	return true, nil
}

// Delete deletes workspace and every record it owns in one batch. Without
// force, a workspace that still holds resource instances is refused with
// a *NotEmptyError; outputs alone do not keep it.
func Delete(ctx context.Context, service *resourceservice.Service, project, workspace string, force bool) error {
	// Deleting reads only the records' identities and versions: a
	// workspace whose records were encrypted with other keys can still go.
	ctx = encrypted.IdentitiesOnly(ctx)
	id := records.WorkspaceID(project, workspace)
	ws, err := service.Read(ctx, store.StrongConsistency, id)
	if status.Code(err) == codes.NotFound {
		return fmt.Errorf("%w: project %q has no workspace %q", ErrNotFound, project, workspace)
	}
	if err != nil {
		return fmt.Errorf("reading workspace %q of project %q: %w", workspace, project, err)
	}
	owned, err := service.ListByOwner(ctx, ws.GetId())
	if err != nil {
		return fmt.Errorf("listing the records of workspace %q: %w", workspace, err)
	}
	var instances []string
	ops := make([]resourceservice.BatchOp, 0, len(owned)+1)
	for _, res := range owned {
		if sameType(res.GetId().GetType(), records.ResourceInstanceType) {
			instances = append(instances, res.GetId().GetName())
		}
		ops = append(ops, resourceservice.BatchOp{Delete: res.GetId(), DeleteOptions: resourceservice.DeleteOptions{Version: res.GetVersion()}})
	}
	if len(instances) > 0 && !force {
		slices.Sort(instances)
		return &NotEmptyError{Workspace: workspace, Instances: instances}
	}
	ops = append(ops, resourceservice.BatchOp{Delete: ws.GetId(), DeleteOptions: resourceservice.DeleteOptions{Version: ws.GetVersion(), Force: force}})
	if _, err := service.Batch(ctx, ops); err != nil {
		return fmt.Errorf("deleting workspace %q of project %q: %w", workspace, project, err)
	}
	return nil
}

func sameType(a, b *pbresource.Type) bool {
	return a.GetGroup() == b.GetGroup() && a.GetGroupVersion() == b.GetGroupVersion() && a.GetKind() == b.GetKind()
}
