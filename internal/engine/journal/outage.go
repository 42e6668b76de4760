package journal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store"
)

// DefaultRetryFor is how long a commit waits for a store that stopped
// answering (an etcd member restarting, a terrane serve restarting, a
// network cut) before its writes fail. The provider calls whose results
// wait have happened: giving up early would turn known outcomes into open
// intents, so the bound is generous.
const DefaultRetryFor = 2 * time.Minute

// Backoff between attempts to reach an unavailable store.
const (
	firstRetryPause = 100 * time.Millisecond
	maxRetryPause   = 5 * time.Second
)

// awaitStore handles a commit of batch that failed because the store was
// unavailable. The commit may or may not have been applied, so each try
// first reads the records back: a write the store holds already succeeded
// and is delivered; the rest are committed again. It tries with backoff
// until every write is settled or RetryFor has passed since the failure;
// then the writes still open fail with an error wrapping
// store.ErrUnavailable. Writes queued meanwhile wait for the next round.
func (j *Journal) awaitStore(batch []*request, cause error) {
	ctx := context.Background()
	started := time.Now()
	deadline := started.Add(j.retryFor)
	pause := firstRetryPause
	j.logf("the state store is unavailable (%v); retrying %d writes for up to %s", cause, len(batch), j.retryFor)
	defer func() { j.waited.Add(int64(time.Since(started))) }()
	for {
		remaining := time.Until(deadline)
		if remaining <= 0 {
			err := fmt.Errorf("the state store stayed unavailable for %s: %w", j.retryFor.Round(time.Second), cause)
			for _, req := range batch {
				j.fail(req, err)
			}
			return
		}
		time.Sleep(min(pause, remaining))
		pause = min(2*pause, maxRetryPause)
		var done bool
		batch, done, cause = j.settle(ctx, batch, cause)
		if done {
			j.logf("the state store is back after %s", time.Since(started).Round(time.Millisecond))
			return
		}
	}
}

// settle makes one attempt at an unavailable store: it delivers the writes
// of batch the store already holds and commits the others. It returns the
// writes still open, whether it is done with the batch, and the latest
// cause when the store is still unavailable.
func (j *Journal) settle(ctx context.Context, batch []*request, cause error) ([]*request, bool, error) {
	settled, err := j.store.Settled(ctx, changesOf(batch))
	if errors.Is(err, store.ErrUnavailable) {
		return batch, false, err
	}
	if err != nil {
		for _, req := range batch {
			j.fail(req, err)
		}
		return nil, true, nil
	}
	var open []*request
	for i, req := range batch {
		if !settled[i].Applied {
			open = append(open, req)
			continue
		}
		j.records.Add(1)
		req.result <- outcome{version: settled[i].Version}
	}
	if len(open) == 0 {
		return nil, true, nil
	}
	versions, err := j.store.Commit(ctx, changesOf(open))
	j.commits.Add(1)
	switch {
	case err == nil:
		j.succeed(open, versions)
		return nil, true, nil
	case errors.Is(err, store.ErrUnavailable):
		return open, false, err
	}
	// The store answered with a failure of its own, most likely a
	// conflict. The lost commit may have landed after the read above, so
	// read once more; the usual commit isolates whatever still fails.
	if settled, err := j.store.Settled(ctx, changesOf(open)); err == nil {
		var rest []*request
		for i, req := range open {
			if settled[i].Applied {
				j.records.Add(1)
				req.result <- outcome{version: settled[i].Version}
			} else {
				rest = append(rest, req)
			}
		}
		open = rest
	}
	if len(open) > 0 {
		j.commit(slices.Clone(open))
	}
	return nil, true, nil
}

func changesOf(batch []*request) []recordstore.InstanceChange {
	changes := make([]recordstore.InstanceChange, len(batch))
	for i, req := range batch {
		changes[i] = req.change
	}
	return changes
}
