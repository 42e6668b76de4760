package journal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store"
)

// DefaultMaxBatch is how many writes one commit carries at most unless
// Options say otherwise. It keeps one transaction's size, and the time the
// first caller of a batch waits, bounded when thousands of calls end at once.
const DefaultMaxBatch = 1000

// ErrClosed is returned for writes submitted after Close.
var ErrClosed = errors.New("the state journal is closed")

// Options configure a Journal.
type Options struct {
	// RunID names the run; BeginCall stamps it on intents that carry none.
	RunID string
	// MaxBatch bounds the writes of one commit; 0 means DefaultMaxBatch.
	MaxBatch int
	// RetryFor bounds how long a commit the store could not take
	// (store.ErrUnavailable) is retried; 0 means DefaultRetryFor.
	RetryFor time.Duration
	// Logf, when set, hears of the store becoming unavailable and back.
	Logf func(format string, args ...any)
}

// Journal writes instance records durably for many concurrent callers,
// committing the writes queued at the same time together. It is safe for
// concurrent use; Close it when the run ends.
type Journal struct {
	store    *recordstore.Store
	runID    string
	holder   string
	maxBatch int
	retryFor time.Duration
	logf     func(format string, args ...any)

	mu      sync.Mutex
	pending []*request
	closed  bool

	wake chan struct{}
	done chan struct{}

	commits atomic.Int64
	records atomic.Int64
	failed  atomic.Int64
	// waited is how long commits waited for an unavailable store, in
	// nanoseconds.
	waited atomic.Int64
}

// request is one caller's write waiting for its commit.
type request struct {
	change recordstore.InstanceChange
	result chan outcome
}

type outcome struct {
	version *recordstore.RecordVersion
	err     error
}

// New starts a journal over st. Its committer goroutine runs until Close.
func New(st *recordstore.Store, opts Options) *Journal {
	j := newJournal(st, opts)
	go j.run()
	return j
}

// newJournal returns a journal whose committer is not running yet.
func newJournal(st *recordstore.Store, opts Options) *Journal {
	maxBatch := opts.MaxBatch
	if maxBatch <= 0 {
		maxBatch = DefaultMaxBatch
	}
	retryFor := opts.RetryFor
	if retryFor <= 0 {
		retryFor = DefaultRetryFor
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Journal{
		store:    st,
		runID:    opts.RunID,
		holder:   Holder(),
		maxBatch: maxBatch,
		retryFor: retryFor,
		logf:     logf,
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
	}
}

// Close commits what is queued, stops the committer and makes later writes
// fail with ErrClosed.
func (j *Journal) Close() error {
	j.mu.Lock()
	alreadyClosed := j.closed
	j.closed = true
	j.mu.Unlock()
	if !alreadyClosed {
		j.signal()
	}
	<-j.done
	return nil
}

// Stats are counters of a journal's work so far.
type Stats struct {
	// Commits is how many store commits were made, failed ones included.
	Commits int64
	// Records is how many writes were made durable.
	Records int64
	// Failed is how many writes failed.
	Failed int64
	// Waited is how long commits waited for the store to come back.
	Waited time.Duration
}

// Stats returns the journal's counters.
func (j *Journal) Stats() Stats {
	return Stats{Commits: j.commits.Load(), Records: j.records.Load(), Failed: j.failed.Load(), Waited: time.Duration(j.waited.Load())}
}

// BeginCall opens an intent: it writes inst, whose Intent must be set, to
// the record of addr, compare-and-swap on prior (nil: the record must not
// exist yet), and returns once the write is durable with the record's new
// version. An intent without a RunID, Holder or StartedAt gets this run's.
//
// When ctx ends before the write was taken into a commit, BeginCall
// withdraws it and returns ctx's error: nothing was written, so the call
// must not be made. Once taken, it waits for the commit's outcome.
func (j *Journal) BeginCall(ctx context.Context, addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig, inst *states.ResourceInstance, prior *recordstore.RecordVersion) (*recordstore.RecordVersion, error) {
	if inst == nil || inst.Intent == nil {
		return nil, fmt.Errorf("%s: an intent must be set before a provider call is announced", addr)
	}
	stamped := *inst
	intent := *inst.Intent
	if intent.RunID == "" {
		intent.RunID = j.runID
	}
	if intent.Holder == "" {
		intent.Holder = j.holder
	}
	if intent.StartedAt.IsZero() {
		intent.StartedAt = time.Now().UTC()
	}
	stamped.Intent = &intent
	change := recordstore.InstanceChange{Addr: addr, ProviderConfig: provider, Instance: &stamped, Prior: prior}
	return j.submit(ctx, change, true)
}

// FinishCall records a provider call's result: it writes inst (intent
// cleared; nil or empty deletes the record) compare-and-swap on prior, the
// version BeginCall returned, and returns once the write is durable with the
// record's new version, or nil when the record was deleted.
//
// FinishCall does not give up when ctx is cancelled: the call it reports has
// happened, and dropping its result would turn a known outcome into an open
// intent. Cancellation means "start nothing new", not "forget what was done".
func (j *Journal) FinishCall(ctx context.Context, addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig, inst *states.ResourceInstance, prior *recordstore.RecordVersion) (*recordstore.RecordVersion, error) {
	if inst != nil && inst.Intent != nil {
		return nil, fmt.Errorf("%s: a call's result must clear the intent it answers", addr)
	}
	change := recordstore.InstanceChange{Addr: addr, ProviderConfig: provider, Instance: inst, Prior: prior}
	return j.submit(ctx, change, false)
}

// Write makes one change durable, as BeginCall and FinishCall do, for
// writes that are neither, such as recording a refreshed object. Like
// BeginCall it withdraws the change if ctx ends before it is committed.
func (j *Journal) Write(ctx context.Context, change recordstore.InstanceChange) (*recordstore.RecordVersion, error) {
	return j.submit(ctx, change, true)
}

// Commit makes changes durable through the group commit and returns the
// new version of each instance written, keyed by address string, as
// recordstore.Store.Commit does, so a journal can stand in for the store.
// Unlike the store's Commit the changes are not one unit: each is committed
// (or fails) on its own, possibly beside other callers' writes, and the
// error joins the failures (errors.As finds a *recordstore.ConflictError in
// it).
func (j *Journal) Commit(ctx context.Context, changes []recordstore.InstanceChange) (map[string]recordstore.RecordVersion, error) {
	versions := make(map[string]recordstore.RecordVersion, len(changes))
	errs := make([]error, len(changes))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, change := range changes {
		wg.Go(func() {
			version, err := j.submit(ctx, change, true)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs[i] = err
			} else if version != nil {
				versions[change.Addr.String()] = *version
			}
		})
	}
	wg.Wait()
	return versions, errors.Join(errs...)
}

func (j *Journal) submit(ctx context.Context, change recordstore.InstanceChange, withdrawOnCancel bool) (*recordstore.RecordVersion, error) {
	req := &request{change: change, result: make(chan outcome, 1)}
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", change.Addr, ErrClosed)
	}
	j.pending = append(j.pending, req)
	j.mu.Unlock()
	j.signal()

	if !withdrawOnCancel {
		out := <-req.result
		return out.version, out.err
	}
	select {
	case out := <-req.result:
		return out.version, out.err
	case <-ctx.Done():
		if j.withdraw(req) {
			return nil, fmt.Errorf("%s: not written: %w", change.Addr, ctx.Err())
		}
		out := <-req.result // already being committed: its outcome is the truth
		return out.version, out.err
	}
}

// withdraw removes req from the queue if the committer has not taken it.
func (j *Journal) withdraw(req *request) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	i := slices.Index(j.pending, req)
	if i < 0 {
		return false
	}
	j.pending = slices.Delete(j.pending, i, i+1)
	return true
}

func (j *Journal) signal() {
	select {
	case j.wake <- struct{}{}:
	default: // a wake-up is already pending; the committer will see this write
	}
}

// run is the committer: each round takes everything queued meanwhile.
func (j *Journal) run() {
	defer close(j.done)
	for range j.wake {
		for {
			batch, closed := j.take()
			if len(batch) == 0 {
				if closed {
					return
				}
				break
			}
			j.commit(batch)
		}
	}
}

// take removes up to maxBatch queued writes, at most one per address: a
// second write to an address waits for the next commit, where it compares
// against what the first one wrote instead of failing beside it.
func (j *Journal) take() (batch []*request, closed bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	seen := make(map[string]bool, min(len(j.pending), j.maxBatch))
	rest := j.pending[:0]
	for _, req := range j.pending {
		key := req.change.Addr.String()
		if len(batch) >= j.maxBatch || seen[key] {
			rest = append(rest, req)
			continue
		}
		seen[key] = true
		batch = append(batch, req)
	}
	clear(j.pending[len(rest):])
	j.pending = rest
	return batch, j.closed
}

// commit makes batch durable in one commit if it can. When the store names
// the write that failed, that write alone fails and the rest are committed
// again; when it does not, the batch is halved until the failure is
// isolated, so one bad write never fails an unrelated caller.
func (j *Journal) commit(batch []*request) {
	ctx := context.Background() // callers' cancellation must not cut a commit in half-delivered state
	batch = slices.Clone(batch) // failed writes are dropped from this copy only
	for len(batch) > 0 {
		versions, err := j.store.Commit(ctx, changesOf(batch))
		j.commits.Add(1)
		if err == nil {
			j.succeed(batch, versions)
			return
		}
		if errors.Is(err, store.ErrUnavailable) {
			j.awaitStore(batch, err)
			return
		}
		if failed := failingIndex(err, len(batch)); failed >= 0 {
			j.fail(batch[failed], err)
			batch = slices.Delete(batch, failed, failed+1)
			continue
		}
		if len(batch) == 1 {
			j.fail(batch[0], err)
			return
		}
		half := len(batch) / 2
		j.commit(batch[:half])
		j.commit(batch[half:])
		return
	}
}

// succeed delivers the versions a commit of batch wrote.
func (j *Journal) succeed(batch []*request, versions map[string]recordstore.RecordVersion) {
	j.records.Add(int64(len(batch)))
	for _, req := range batch {
		var version *recordstore.RecordVersion
		if v, ok := versions[req.change.Addr.String()]; ok {
			version = &v
		}
		req.result <- outcome{version: version}
	}
}

func (j *Journal) fail(req *request, err error) {
	j.failed.Add(1)
	req.result <- outcome{err: err}
}

// failingIndex returns the index of the change the store reported as the
// cause of a failed batch, or -1 when the error names none.
func failingIndex(err error, n int) int {
	var batchErr *store.BatchError
	if errors.As(err, &batchErr) && batchErr.Index >= 0 && batchErr.Index < n {
		return batchErr.Index
	}
	return -1
}
