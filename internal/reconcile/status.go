package reconcile

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// Tally counts a run's outcomes and the status writes it made.
type Tally struct {
	InSync, Drifted, Missing, Failed int
	// Claimed instances were left to another live run; Stale ones changed
	// while the refresh ran, so what it saw was not written.
	Claimed, Stale int
	// Written counts status writes; Unchanged the statuses already right.
	Written, Unchanged int
	// DriftedAddrs are the Drifted and Missing instances, sorted.
	DriftedAddrs []string
}

func (t *Tally) count(o Outcome, addr string) {
	switch o.Kind {
	case ConditionInSync:
		t.InSync++
	case ConditionDrifted:
		t.Drifted++
		t.DriftedAddrs = append(t.DriftedAddrs, addr)
	case ConditionMissing:
		t.Missing++
		t.DriftedAddrs = append(t.DriftedAddrs, addr)
	case ConditionFailed:
		t.Failed++
	}
}

// listInstances lists a workspace's resource instance records.
func listInstances(ctx context.Context, service *resourceservice.Service, ws Workspace) ([]*pbresource.Resource, error) {
	return service.List(ctx, store.StrongConsistency, records.ResourceInstanceType, records.Tenancy(ws.Project, ws.Workspace), "")
}

// writeInstanceStatuses records result's outcomes on the workspace's
// managed instance records, writing only statuses that changed.
func writeInstanceStatuses(ctx context.Context, service *resourceservice.Service, ws Workspace, result *refreshResult) (Tally, error) {
	var tally Tally
	current, err := listInstances(ctx, service, ws)
	if err != nil {
		return tally, err
	}
	observed := map[string]string{} // instance address -> generation the plan read
	if result.plan != nil {
		for _, rec := range result.plan.PriorRecords {
			if rec.Kind == records.ResourceInstanceType.GetKind() {
				observed[rec.Name] = rec.Generation
			}
		}
	}
	for _, res := range current {
		name := res.GetId().GetName()
		if !isManaged(name) {
			continue
		}
		if result.claimed[name] {
			tally.Claimed++
			continue
		}
		outcome, ok := outcomeFor(result, name)
		if !ok {
			continue
		}
		generation, read := observed[name]
		if !read || generation != res.GetGeneration() {
			tally.Stale++ // an apply changed it since: the next run looks again
			continue
		}
		tally.count(outcome, name)
		wrote, err := writeStatus(ctx, service, res, outcome.Status(generation))
		if err != nil {
			return tally, fmt.Errorf("writing the status of %s: %w", name, err)
		}
		if wrote {
			tally.Written++
		} else {
			tally.Unchanged++
		}
	}
	sort.Strings(tally.DriftedAddrs)
	return tally, nil
}

// outcomeFor is what the run says of one instance: what its refresh found,
// or, when the run failed before reaching it, that it was not refreshed.
func outcomeFor(result *refreshResult, name string) (Outcome, bool) {
	if o, ok := result.outcomes[name]; ok {
		return o, true
	}
	if result.failure != nil && (result.failure.Reason == ReasonRunFailed || result.failure.Reason == ReasonRunTimeout) {
		return failed(ReasonNotRefreshed, "The run stopped before refreshing this instance: "+result.failure.Message), true
	}
	return Outcome{}, false
}

func isManaged(name string) bool {
	addr, ds := addrs.ParseAbsResourceInstanceStr(name)
	return !ds.HasErrors() && addr.Resource.Resource.Mode == addrs.ManagedResourceMode
}

// statusRetries bounds how often a status write follows a record that
// another writer's status write moved on.
const statusRetries = 4

// writeStatus writes st under StatusKey unless res already holds it. The
// write is compare-and-swap on res's Version: a record that changed since
// is read again, and the status dropped if its Generation moved (the
// observation is of content no longer there).
func writeStatus(ctx context.Context, service *resourceservice.Service, res *pbresource.Resource, st *pbresource.Status) (bool, error) {
	for try := 0; ; try++ {
		if sameStatus(res.GetStatus()[StatusKey], st) {
			return false, nil
		}
		_, err := service.WriteStatus(ctx, res.GetId(), res.GetVersion(), StatusKey, st)
		if err == nil || status.Code(err) != codes.Aborted || try >= statusRetries {
			return err == nil, err
		}
		again, readErr := service.Read(ctx, store.StrongConsistency, res.GetId())
		switch {
		case errors.Is(readErr, store.ErrNotFound) || status.Code(readErr) == codes.NotFound:
			return false, nil
		case readErr != nil:
			return false, readErr
		case again.GetGeneration() != st.GetObservedGeneration() || again.GetId().GetUid() != res.GetId().GetUid():
			return false, nil
		}
		res = again
	}
}

// sameStatus compares statuses without their write time.
func sameStatus(a, b *pbresource.Status) bool {
	if a == nil || b == nil {
		return a == b
	}
	a, b = proto.Clone(a).(*pbresource.Status), proto.Clone(b).(*pbresource.Status)
	a.UpdatedAt, b.UpdatedAt = nil, nil
	return proto.Equal(a, b)
}

// Workspace condition types.
const (
	ConditionReconciled  = "Reconciled"
	ConditionAutoApplied = "AutoApplied"
)

// Workspace condition reasons besides a failed run's.
const (
	ReasonCompleted            = "Completed"
	ReasonObjectsChanged       = "ObjectsChanged"
	ReasonNoDrift              = "NoDrift"
	ReasonDriftUndone          = "DriftUndone"
	ReasonConfigurationChanged = "ConfigurationChanged"
	ReasonApplyFailed          = "ApplyFailed"
	ReasonNothingToUndo        = "NothingToUndo"
)

// summary is what a workspace's status says of its last run.
type summary struct {
	result    *refreshResult
	tally     Tally
	autoApply *Outcome // nil when the workspace does not auto-apply
}

// status is the workspace-level status of s.
func (s summary) status(observedGeneration string) *pbresource.Status {
	st := &pbresource.Status{ObservedGeneration: observedGeneration}
	reconciled := &pbresource.Condition{Type: ConditionReconciled, State: pbresource.Condition_STATE_TRUE, Reason: ReasonCompleted, Message: s.message()}
	if f := s.result.failure; f != nil {
		reconciled.State, reconciled.Reason, reconciled.Message = pbresource.Condition_STATE_FALSE, f.Reason, f.Message+" "+s.message()
	}
	drifted := &pbresource.Condition{Type: ConditionDrifted, State: pbresource.Condition_STATE_FALSE, Reason: ReasonNoDrift}
	if n := len(s.tally.DriftedAddrs); n > 0 {
		drifted.State, drifted.Reason = pbresource.Condition_STATE_TRUE, ReasonObjectsChanged
		drifted.Message = fmt.Sprintf("%d changed outside Terrane: %s.", n, strings.Join(s.tally.DriftedAddrs, ", "))
	} else if s.result.failure != nil {
		drifted.State = pbresource.Condition_STATE_UNKNOWN
	}
	st.Conditions = []*pbresource.Condition{reconciled, drifted}
	if a := s.autoApply; a != nil {
		state := pbresource.Condition_STATE_FALSE
		if a.Reason == ReasonDriftUndone {
			state = pbresource.Condition_STATE_TRUE
		}
		st.Conditions = append(st.Conditions, &pbresource.Condition{Type: ConditionAutoApplied, State: state, Reason: a.Reason, Message: a.Message})
	}
	return st
}

func (s summary) message() string {
	t := s.tally
	return fmt.Sprintf("Run %s refreshed in %s: %d in sync, %d drifted, %d missing, %d failed; %d left to another run, %d changed during the run.",
		s.result.runID, s.result.duration.Round(millisecond), t.InSync, t.Drifted, t.Missing, t.Failed, t.Claimed, t.Stale)
}

// writeWorkspaceStatus records s on the workspace record, if there is one.
func writeWorkspaceStatus(ctx context.Context, service *resourceservice.Service, ws Workspace, s summary) error {
	res, err := service.Read(ctx, store.StrongConsistency, records.WorkspaceID(ws.Project, ws.Workspace))
	if errors.Is(err, store.ErrNotFound) || status.Code(err) == codes.NotFound {
		return nil // nothing applied yet: nothing to report on
	}
	if err != nil {
		return err
	}
	st := s.status(res.GetGeneration())
	// The summary is written on every run: its updated_at tells when the
	// workspace was last refreshed.
	_, err = service.WriteStatus(ctx, res.GetId(), "", StatusKey, st)
	return err
}
