package reconcile

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// FreshInstances returns the instances of a workspace whose recorded
// current object a reconciler found in sync no longer than maxAge before
// now, so a plan may use the record instead of reading the object again
// (plan -refresh-max-age). That holds for an instance whose status is
// InSync at its current Generation when the workspace's last run completed
// (Reconciled TRUE) within maxAge: a complete run gives every instance an
// outcome and rewrites any status that changed, and anything that changed
// the record since moved its Generation. The age counts from the end of
// that run.
func FreshInstances(ctx context.Context, service *resourceservice.Service, project, workspace string, maxAge time.Duration, now time.Time) (map[string]bool, error) {
	fresh := map[string]bool{}
	ws, err := service.Read(ctx, store.StrongConsistency, records.WorkspaceID(project, workspace))
	if errors.Is(err, store.ErrNotFound) || status.Code(err) == codes.NotFound {
		return fresh, nil
	}
	if err != nil {
		return nil, err
	}
	summary := ws.GetStatus()[StatusKey]
	if summary.GetUpdatedAt() == nil || now.Sub(summary.GetUpdatedAt().AsTime()) > maxAge || !conditionHolds(summary.GetConditions(), ConditionReconciled) {
		return fresh, nil
	}
	list, err := service.List(ctx, store.StrongConsistency, records.ResourceInstanceType, records.Tenancy(project, workspace), "")
	if err != nil {
		return nil, err
	}
	for _, res := range list {
		st := res.GetStatus()[StatusKey]
		if st.GetObservedGeneration() == res.GetGeneration() && conditionHolds(st.GetConditions(), ConditionInSync) {
			fresh[res.GetId().GetName()] = true
		}
	}
	return fresh, nil
}

func conditionHolds(conditions []*pbresource.Condition, kind string) bool {
	for _, c := range conditions {
		if c.GetType() == kind {
			return c.GetState() == pbresource.Condition_STATE_TRUE
		}
	}
	return false
}
