package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
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

// batchTx holds the statements of one batch transaction.
type batchTx struct {
	tx                                 *sql.Tx
	selectStmt, upsertStmt, deleteStmt *sql.Stmt
	changeStmt                         *sql.Stmt
	revision                           int64
	now                                int64
}

func (b *Backend) applyBatch(ctx context.Context, ops []store.Op) ([]*pbresource.Resource, error) {
	tx, err := b.writer.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	btx := &batchTx{tx: tx, now: time.Now().UnixMilli()}
	if err := btx.prepare(ctx, b.stmts); err != nil {
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

func (btx *batchTx) prepare(ctx context.Context, stmts *writeStatements) error {
	if err := btx.tx.QueryRowContext(ctx, "SELECT rev FROM revision WHERE only_row = 1").Scan(&btx.revision); err != nil {
		return err
	}
	// The writer pool has one connection, on which the statements were
	// prepared, so these reuse them instead of compiling SQL per batch.
	btx.selectStmt = btx.tx.StmtContext(ctx, stmts.selectStmt)
	btx.upsertStmt = btx.tx.StmtContext(ctx, stmts.upsertStmt)
	btx.deleteStmt = btx.tx.StmtContext(ctx, stmts.deleteStmt)
	btx.changeStmt = btx.tx.StmtContext(ctx, stmts.changeStmt)
	return nil
}

// writeStatements are the statements every batch runs, prepared once.
type writeStatements struct {
	selectStmt, upsertStmt, deleteStmt, changeStmt *sql.Stmt
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
		selectStmt: prepare(`SELECT version, uid, body FROM resources
			WHERE grp = ? AND kind = ? AND partition = ? AND namespace = ? AND name = ?`),
		upsertStmt: prepare(`INSERT OR REPLACE INTO resources
			(grp, kind, partition, namespace, name, uid, version, owner_key, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		deleteStmt: prepare(`DELETE FROM resources
			WHERE grp = ? AND kind = ? AND partition = ? AND namespace = ? AND name = ?`),
		changeStmt: prepare("INSERT INTO changes (rev, event, body, written_at) VALUES (?, ?, ?, ?)"),
	}
	return stmts, err
}

// stored returns the current resource's Version and Uid (in a skeleton
// resource for the CAS checks) and its body, or nil if it is absent.
func (btx *batchTx) stored(ctx context.Context, id *pbresource.ID) (*pbresource.Resource, []byte, error) {
	var version, uid string
	var body []byte
	err := btx.selectStmt.QueryRowContext(ctx, identity(id)...).Scan(&version, &uid, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return &pbresource.Resource{Id: &pbresource.ID{Uid: uid}, Version: version}, body, nil
}

func (btx *batchTx) write(ctx context.Context, res *pbresource.Resource) (*pbresource.Resource, error) {
	current, _, err := btx.stored(ctx, res.GetId())
	if err != nil {
		return nil, err
	}
	if err := store.CheckWrite(current, res); err != nil {
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
	if _, err := btx.changeStmt.ExecContext(ctx, btx.revision, eventUpsert, body, btx.now); err != nil {
		return nil, err
	}
	return written, nil
}

func (btx *batchTx) delete(ctx context.Context, id *pbresource.ID, version string) error {
	current, body, err := btx.stored(ctx, id)
	if err != nil {
		return err
	}
	if err := store.CheckDelete(current, version); err != nil || current == nil {
		return err
	}
	btx.revision++
	if _, err := btx.deleteStmt.ExecContext(ctx, identity(id)...); err != nil {
		return err
	}
	_, err = btx.changeStmt.ExecContext(ctx, btx.revision, eventDelete, body, btx.now)
	return err
}

// pruneChanges drops change-log rows that are both beyond the newest
// KeepChanges and older than KeepChangesFor. A watcher that still needed
// them learns so from the gap in revisions and ends with ErrWatchExpired.
func (b *Backend) pruneChanges(ctx context.Context, tx *sql.Tx, revision, now int64) error {
	_, err := tx.ExecContext(ctx, "DELETE FROM changes WHERE rev <= ? AND written_at < ?",
		revision-b.opts.KeepChanges, now-b.opts.KeepChangesFor.Milliseconds())
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
