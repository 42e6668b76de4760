package resourceservice

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// Reaper keeps the promises tombstones make: for each tombstone it deletes
// the resources the deleted owner owned (their own tombstones cascade the
// deletion further down), then the tombstone. Owned resources with finalizers
// are marked and waited for; a tombstone whose owned resources cannot all be
// deleted yet is retried every RetryInterval.
type Reaper struct {
	Service *Service
	// RetryInterval is how long a tombstone with undeleted owned resources
	// waits before the next attempt; zero means 5 seconds.
	RetryInterval time.Duration
	// Logf, when set, receives a line for each failed attempt.
	Logf func(format string, args ...any)
}

// Run reaps until ctx is done or the backend closes. Several reapers may run
// against one backend (every delete is idempotent), so each process using a
// store may run one.
func (r *Reaper) Run(ctx context.Context) error {
	watch, err := r.Service.WatchList(ctx, TombstoneType, &pbresource.Tenancy{Partition: store.Wildcard, Namespace: store.Wildcard}, "")
	if err != nil {
		return err
	}
	defer watch.Close()
	events := make(chan store.WatchEvent)
	watchErr := make(chan error, 1)
	go func() {
		for {
			event, err := watch.Next(ctx)
			if err != nil {
				watchErr <- err
				return
			}
			select {
			case events <- event:
			case <-ctx.Done():
				return
			}
		}
	}()
	return r.loop(ctx, events, watchErr)
}

func (r *Reaper) loop(ctx context.Context, events <-chan store.WatchEvent, watchErr <-chan error) error {
	interval := r.RetryInterval
	if interval == 0 {
		interval = 5 * time.Second
	}
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	pending := map[string]*pbresource.Resource{}
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-watchErr:
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("reaper: watching tombstones: %w", err)
		case event := <-events:
			switch event.Kind {
			case store.EventUpsert:
				pending[event.Resource.GetId().GetName()] = event.Resource
				r.reapOne(ctx, pending, event.Resource)
			case store.EventDelete:
				delete(pending, event.Resource.GetId().GetName())
			}
		case <-ticker.C:
			for _, tombstone := range pending {
				r.reapOne(ctx, pending, tombstone)
			}
		}
	}
}

func (r *Reaper) reapOne(ctx context.Context, pending map[string]*pbresource.Resource, tombstone *pbresource.Resource) {
	done, err := r.Service.Reap(ctx, tombstone)
	if err != nil && r.Logf != nil && ctx.Err() == nil {
		r.Logf("reaper: %v", err)
	}
	if done {
		delete(pending, tombstone.GetId().GetName())
	}
}

// Reap deletes what one tombstone's owner owned and, once nothing is left,
// the tombstone. It reports whether the tombstone is gone.
func (s *Service) Reap(ctx context.Context, tombstone *pbresource.Resource) (bool, error) {
	var promise pbresource.Tombstone
	if err := tombstone.GetData().UnmarshalTo(&promise); err != nil {
		return false, fmt.Errorf("tombstone %q holds no Tombstone: %w", tombstone.GetId().GetName(), err)
	}
	owned, err := s.backend.ListByOwner(ctx, promise.GetOwner())
	if err != nil {
		return false, fromStore(err, "listing resources owned by deleted "+describeID(promise.GetOwner()))
	}
	var failures []error
	for _, res := range owned {
		if err := s.Delete(ctx, res.GetId(), DeleteOptions{}); err != nil {
			failures = append(failures, err)
		}
	}
	if len(owned) > 0 {
		// Deleted owned resources are gone only if none had finalizers;
		// check again rather than guess.
		if owned, err = s.backend.ListByOwner(ctx, promise.GetOwner()); err != nil {
			return false, fromStore(err, "listing resources owned by deleted "+describeID(promise.GetOwner()))
		}
	}
	if len(owned) > 0 {
		failures = append(failures, fmt.Errorf("%d resources owned by deleted %s wait for finalizers or could not be deleted", len(owned), describeID(promise.GetOwner())))
		return false, errors.Join(failures...)
	}
	err = s.backend.DeleteCAS(ctx, tombstone.GetId(), tombstone.GetVersion())
	if errors.Is(err, store.ErrCASFailure) {
		// Someone else changed or reaped it; the watch will tell.
		return false, nil
	}
	return err == nil, fromStore(err, "deleting tombstone "+tombstone.GetId().GetName())
}
