package sqlite

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/eventqueue"
	"github.com/terrane/terrane/proto/pbresource"
)

// pollBatch bounds how many change-log rows one poll reads, so a large
// backlog is delivered in steps rather than held in memory at once.
const pollBatch = 1000

type sqlWatch struct {
	queue      *eventqueue.Queue
	resType    *pbresource.Type
	tenancy    *pbresource.Tenancy
	namePrefix string
	// from is the revision of the watch's snapshot: it wants later changes only.
	from int64
}

// changeFollower reads the change log and hands each change to the watches
// it matches. One follower serves every watch of a Backend; it polls on a
// timer for other processes' writes and at once after this process's own.
type changeFollower struct {
	b       *Backend
	mu      sync.Mutex // held while reading and dispatching, so registration sees a consistent position
	watches map[*sqlWatch]struct{}
	last    int64 // the last revision dispatched; meaningful while there are watches
	wake    chan struct{}
	done    chan struct{}
}

func newChangeFollower(b *Backend) *changeFollower {
	f := &changeFollower{b: b, watches: map[*sqlWatch]struct{}{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go f.run()
	return f
}

func (f *changeFollower) kick() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *changeFollower) run() {
	defer close(f.done)
	ticker := time.NewTicker(f.b.opts.PollInterval)
	defer ticker.Stop()
	for {
		select {
		case <-f.b.closed:
			return
		case <-ticker.C:
		case <-f.wake:
		}
		f.mu.Lock()
		for len(f.watches) > 0 && f.pollLocked() == pollBatch {
		}
		f.mu.Unlock()
	}
}

// pollLocked dispatches the changes after f.last and returns how many it read.
func (f *changeFollower) pollLocked() int {
	rows, err := f.readChanges(f.last, -1)
	if err != nil {
		if f.b.isClosed() {
			return 0
		}
		f.failAllLocked(f.b.queryError("following the change log", err))
		return 0
	}
	if len(rows) > 0 && rows[0].rev != f.last+1 {
		f.expireLaggingLocked(rows[0].rev)
	}
	for _, row := range rows {
		f.dispatchLocked(row, f.watches)
		f.last = row.rev
	}
	return len(rows)
}

type change struct {
	rev   int64
	event store.WatchEvent
}

// readChanges returns the change-log rows after `after`, up to and
// including `through` (or up to pollBatch rows when through is negative).
func (f *changeFollower) readChanges(after, through int64) ([]change, error) {
	query, args := "SELECT rev, event, body FROM changes WHERE rev > ? ORDER BY rev LIMIT ?", []any{after, pollBatch}
	if through >= 0 {
		query, args = "SELECT rev, event, body FROM changes WHERE rev > ? AND rev <= ? ORDER BY rev", []any{after, through}
	}
	rows, err := f.b.reader.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []change
	for rows.Next() {
		var rev int64
		var kind int
		var body []byte
		if err := rows.Scan(&rev, &kind, &body); err != nil {
			return nil, err
		}
		res, err := decode(body)
		if err != nil {
			return nil, err
		}
		eventKind := store.EventUpsert
		if kind == eventDelete {
			eventKind = store.EventDelete
		}
		out = append(out, change{rev: rev, event: store.WatchEvent{Kind: eventKind, Resource: res}})
	}
	return out, rows.Err()
}

func (f *changeFollower) dispatchLocked(row change, watches map[*sqlWatch]struct{}) {
	for w := range watches {
		if row.rev > w.from && store.Matches(row.event.Resource, w.resType, w.tenancy, w.namePrefix) {
			w.queue.Push(store.WatchEvent{Kind: row.event.Kind, Resource: store.Clone(row.event.Resource)})
		}
	}
}

// expireLaggingLocked handles a gap before revision first: every revision
// has one change row, so rows this process had not read yet were pruned.
// Watches whose snapshots are older than the gap cannot go on; newer ones
// miss nothing.
func (f *changeFollower) expireLaggingLocked(first int64) {
	for w := range f.watches {
		if w.from < first-1 {
			w.queue.Fail(store.ErrWatchExpired)
			delete(f.watches, w)
		}
	}
}

func (f *changeFollower) failAllLocked(err error) {
	for w := range f.watches {
		w.queue.Fail(err)
	}
	clear(f.watches)
}

// register adds a watch whose snapshot was taken at revision from. If the
// follower has already dispatched past it, the missed changes are replayed
// to this watch alone before it joins the others.
func (f *changeFollower) register(w *sqlWatch) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.b.isClosed() {
		return store.ErrClosed
	}
	if len(f.watches) == 0 {
		f.last = w.from
	} else if w.from < f.last {
		missed, err := f.readChanges(w.from, f.last)
		if err != nil {
			return f.b.queryError("replaying the change log", err)
		}
		if len(missed) > 0 && missed[0].rev != w.from+1 {
			return store.ErrWatchExpired
		}
		for _, row := range missed {
			f.dispatchLocked(row, map[*sqlWatch]struct{}{w: {}})
		}
	}
	f.watches[w] = struct{}{}
	f.kick() // another process may have written since the last poll
	return nil
}

func (f *changeFollower) unregister(w *sqlWatch) {
	f.mu.Lock()
	delete(f.watches, w)
	f.mu.Unlock()
}

func (f *changeFollower) stop() {
	<-f.done
	f.mu.Lock()
	f.failAllLocked(store.ErrClosed)
	f.mu.Unlock()
}

// WatchList implements store.Backend. The snapshot and its revision are read
// in one transaction, so the watch continues exactly where it left off.
func (b *Backend) WatchList(ctx context.Context, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) (store.Watch, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	w := &sqlWatch{resType: resType, tenancy: tenancy, namePrefix: namePrefix}
	w.queue = eventqueue.New(func() { b.watcher.unregister(w) })
	snapshot, err := b.snapshot(ctx, w)
	if err != nil {
		return nil, err
	}
	for _, res := range snapshot {
		w.queue.Push(store.WatchEvent{Kind: store.EventUpsert, Resource: res})
	}
	w.queue.Push(store.WatchEvent{Kind: store.EventEndOfSnapshot})
	if err := b.watcher.register(w); err != nil {
		return nil, err
	}
	return w.queue, nil
}

func (b *Backend) snapshot(ctx context.Context, w *sqlWatch) ([]*pbresource.Resource, error) {
	var out []*pbresource.Resource
	err := b.retryBusy(ctx, func() error {
		tx, err := b.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := tx.QueryRowContext(ctx, "SELECT rev FROM revision WHERE only_row = 1").Scan(&w.from); err != nil {
			return err
		}
		query, args := listQuery(w.resType, w.tenancy, w.namePrefix)
		out, err = b.queryResources(ctx, tx, "taking a watch snapshot", query, args, w.resType, w.tenancy, w.namePrefix)
		return err
	}, "taking a watch snapshot")
	return out, err
}
