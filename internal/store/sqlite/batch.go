package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

const (
	eventUpsert = 1
	eventDelete = 2
	// pruneEvery is how many revisions pass between prunes of the change log,
	// so pruning costs one indexed delete per thousand writes.
	pruneEvery = 1024
)

// WriteCAS implements store.Backend.
func (b *Backend) WriteCAS(ctx context.Context, res *pbresource.Resource) (*pbresource.Resource, error) {
	return store.WriteOne(ctx, b.Batch, res)
}

// DeleteCAS implements store.Backend.
func (b *Backend) DeleteCAS(ctx context.Context, id *pbresource.ID, version string) error {
	return store.DeleteOne(ctx, b.Batch, id, version)
}

// Batch implements store.Backend: one IMMEDIATE transaction, so one fsync,
// in which every operation sees the effect of those before it.
func (b *Backend) Batch(ctx context.Context, ops []store.Op) ([]*pbresource.Resource, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	var out []*pbresource.Resource
	err := b.retryBusy(ctx, func() error {
		var err error
		out, err = b.applyBatch(ctx, ops)
		return err
	}, fmt.Sprintf("writing a batch of %d operations", len(ops)))
	if err != nil {
		var batchErr *store.BatchError
		if errors.As(err, &batchErr) {
			return nil, batchErr
		}
		return nil, b.queryError("writing", err)
	}
	b.watcher.kick()
	return out, nil
}

// batchTx holds the statements of one batch transaction and what it knows
// of the rows its operations touch.
type batchTx struct {
	tx                                 *sql.Tx
	upsertStmt, deleteStmt             *sql.Stmt
	upsertChangeStmt, deleteChangeStmt *sql.Stmt
	revision                           int64
	now                                int64
	// current holds the Version and Uid of each row the batch touches (nil
	// when absent), read in one lookup per lookupChunk operations when the
	// transaction starts and kept up to date as operations apply, so each
	// operation's CAS check costs no query.
	current map[string]*pbresource.Resource
	lookups *lookupStatements
}

func (b *Backend) applyBatch(ctx context.Context, ops []store.Op) ([]*pbresource.Resource, error) {
	tx, err := b.writer.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	btx := &batchTx{tx: tx, now: time.Now().UnixMilli(), lookups: b.writerLookups}
	if err := btx.prepare(ctx, b.stmts, ops); err != nil {
		return nil, err
	}
	startRevision := btx.revision
	out := make([]*pbresource.Resource, len(ops))
	for i, op := range ops {
		switch op.Kind {
		case store.OpWrite:
			out[i], err = btx.write(ctx, op.Resource)
		case store.OpDelete:
			err = btx.delete(ctx, op.ID, op.Version)
		default:
			return nil, &store.BatchError{Index: i, Err: store.UnknownOpError(op.Kind)}
		}
		if errors.Is(err, store.ErrCASFailure) || errors.Is(err, store.ErrWrongUid) {
			return nil, &store.BatchError{Index: i, Err: err}
		}
		if err != nil {
			return nil, err
		}
	}
	if btx.revision == startRevision {
		return out, nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE revision SET rev = ? WHERE only_row = 1", btx.revision); err != nil {
		return nil, err
	}
	if startRevision/pruneEvery != btx.revision/pruneEvery {
		if err := b.pruneChanges(ctx, tx, btx.revision, btx.now); err != nil {
			return nil, err
		}
	}
	return out, tx.Commit()
}

func (btx *batchTx) prepare(ctx context.Context, stmts *writeStatements, ops []store.Op) error {
	if err := btx.tx.QueryRowContext(ctx, "SELECT rev FROM revision WHERE only_row = 1").Scan(&btx.revision); err != nil {
		return err
	}
	// The writer pool has one connection, on which the statements were
	// prepared, so these reuse them instead of compiling SQL per batch.
	btx.upsertStmt = btx.tx.StmtContext(ctx, stmts.upsertStmt)
	btx.deleteStmt = btx.tx.StmtContext(ctx, stmts.deleteStmt)
	btx.upsertChangeStmt = btx.tx.StmtContext(ctx, stmts.upsertChangeStmt)
	btx.deleteChangeStmt = btx.tx.StmtContext(ctx, stmts.deleteChangeStmt)
	return btx.readCurrent(ctx, ops)
}

// readCurrent fills btx.current for every resource ops name. It runs inside
// the IMMEDIATE transaction, so no other writer can change them before the
// commit.
func (btx *batchTx) readCurrent(ctx context.Context, ops []store.Op) error {
	ids := make([]*pbresource.ID, len(ops))
	btx.current = make(map[string]*pbresource.Resource, len(ops))
	for i, op := range ops {
		ids[i] = op.OpID()
	}
	return lookupIdentities(ctx, btx.tx, btx.lookups, ids, func(rows *sql.Rows) error {
		var i int
		var version, uid string
		if err := rows.Scan(&i, &version, &uid); err != nil {
			return err
		}
		btx.current[rowKey(ids[i])] = &pbresource.Resource{Id: &pbresource.ID{Uid: uid}, Version: version}
		return nil
	})
}

// rowKey is a resource's primary key as one map key.
func rowKey(id *pbresource.ID) string {
	return strings.Join([]string{id.GetType().GetGroup(), id.GetType().GetKind(),
		id.GetTenancy().GetPartition(), id.GetTenancy().GetNamespace(), id.GetName()}, "\x00")
}

// writeStatements are the statements every batch runs, prepared once.
type writeStatements struct {
	upsertStmt, deleteStmt, upsertChangeStmt, deleteChangeStmt *sql.Stmt
}

func prepareWriteStatements(db *sql.DB) (*writeStatements, error) {
	var err error
	prepare := func(query string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var stmt *sql.Stmt
		stmt, err = db.Prepare(query)
		return stmt
	}
	stmts := &writeStatements{
		upsertStmt: prepare(`INSERT OR REPLACE INTO resources
			(grp, kind, partition, namespace, name, uid, version, owner_key, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		deleteStmt: prepare(`DELETE FROM resources
			WHERE grp = ? AND kind = ? AND partition = ? AND namespace = ? AND name = ?`),
		upsertChangeStmt: prepare("INSERT INTO changes (rev, event, body, written_at) VALUES (?, ?, ?, ?)"),
		// A delete's change row carries the last stored value (WatchList's
		// contract), copied inside SQLite so the body never passes through Go.
		deleteChangeStmt: prepare(`INSERT INTO changes (rev, event, body, written_at)
			SELECT ?, ?, body, ? FROM resources
			WHERE grp = ? AND kind = ? AND partition = ? AND namespace = ? AND name = ?`),
	}
	return stmts, err
}

func (btx *batchTx) write(ctx context.Context, res *pbresource.Resource) (*pbresource.Resource, error) {
	key := rowKey(res.GetId())
	if err := store.CheckWrite(btx.current[key], res); err != nil {
		return nil, err
	}
	btx.revision++
	written := store.Clone(res)
	written.Version = strconv.FormatInt(btx.revision, 10)
	body, err := encode(written)
	if err != nil {
		return nil, err
	}
	args := append(identity(written.Id), written.Id.GetUid(), written.Version, ownerKey(written.Owner), body)
	if _, err := btx.upsertStmt.ExecContext(ctx, args...); err != nil {
		return nil, err
	}
	if _, err := btx.upsertChangeStmt.ExecContext(ctx, btx.revision, eventUpsert, body, btx.now); err != nil {
		return nil, err
	}
	btx.current[key] = &pbresource.Resource{Id: &pbresource.ID{Uid: written.Id.GetUid()}, Version: written.Version}
	return written, nil
}

func (btx *batchTx) delete(ctx context.Context, id *pbresource.ID, version string) error {
	key := rowKey(id)
	current := btx.current[key]
	if err := store.CheckDelete(current, version); err != nil || current == nil {
		return err
	}
	btx.revision++
	args := append([]any{btx.revision, eventDelete, btx.now}, identity(id)...)
	if _, err := btx.deleteChangeStmt.ExecContext(ctx, args...); err != nil {
		return err
	}
	if _, err := btx.deleteStmt.ExecContext(ctx, identity(id)...); err != nil {
		return err
	}
	btx.current[key] = nil
	return nil
}

// pruneChanges drops change-log rows that are both beyond the newest
// KeepChanges and older than KeepChangesFor. A watcher that still needed
// them learns so from the gap in revisions and ends with ErrWatchExpired.
func (b *Backend) pruneChanges(ctx context.Context, tx *sql.Tx, revision, now int64) error {
	keepFrom, cutoff := revision-b.opts.KeepChanges, now-b.opts.KeepChangesFor.Milliseconds()
	// Rows are written in revision order, so when the oldest row must be
	// kept, every row must: checking it costs one index lookup, where the
	// DELETE below would scan every kept row on every commit — quadratic
	// over a long apply, all of whose rows are younger than KeepChangesFor.
	var oldestRev, oldestAt int64
	err := tx.QueryRowContext(ctx, "SELECT rev, written_at FROM changes ORDER BY rev LIMIT 1").Scan(&oldestRev, &oldestAt)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return err
	case oldestRev > keepFrom || oldestAt >= cutoff:
		return nil
	}
	_, err = tx.ExecContext(ctx, "DELETE FROM changes WHERE rev <= ? AND written_at < ?", keepFrom, cutoff)
	return err
}

// retryBusy runs attempt until it succeeds, fails with something other than
// a lock held by another process, or ctx ends. The busy timeout already
// waits inside SQLite; this covers the cases it cannot (a deferred read
// upgraded to a write, a WAL checkpoint in progress).
func (b *Backend) retryBusy(ctx context.Context, attempt func() error, what string) error {
	delay := 5 * time.Millisecond
	for {
		err := attempt()
		if err == nil || !isBusy(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: state database %s stayed locked by another process: %w", what, b.path, err)
		case <-b.closed:
			return store.ErrClosed
		case <-time.After(delay):
		}
		delay = min(delay*2, 500*time.Millisecond)
	}
}

func isBusy(err error) bool {
	var sqliteErr *sqlite.Error
	if !errors.As(err, &sqliteErr) {
		return false
	}
	code := sqliteErr.Code() & 0xff
	return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
}
