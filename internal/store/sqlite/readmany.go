package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// lookupChunk is how many identities one multi-row lookup names: 6 bound
// parameters each stays far below SQLite's limit of 32,766. Smaller lookups
// are padded to a power of two, so a handful of statements, compiled once
// per connection, serve every size.
const lookupChunk = 256

// lookupStatements are the prepared lookups of one pool selecting one set
// of columns, by size. They are prepared when the backend opens: the writer
// pool's only connection is busy inside a batch, where preparing would wait
// for it forever.
type lookupStatements struct {
	bySize map[int]*sql.Stmt
}

func prepareLookups(db *sql.DB, columns string) (*lookupStatements, error) {
	l := &lookupStatements{bySize: map[int]*sql.Stmt{}}
	for size := 1; size <= lookupChunk; size *= 2 {
		stmt, err := db.Prepare(lookupQuery(columns, size))
		if err != nil {
			return nil, err
		}
		l.bySize[size] = stmt
	}
	return l, nil
}

// ReadMany implements store.Backend with one query per lookupChunk IDs,
// all in one read transaction so the answer is one consistent view.
func (b *Backend) ReadMany(ctx context.Context, _ store.ReadConsistency, ids []*pbresource.ID) ([]*pbresource.Resource, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	out := make([]*pbresource.Resource, len(ids))
	what := fmt.Sprintf("reading %d resources", len(ids))
	err := b.retryBusy(ctx, func() error {
		tx, err := b.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		return lookupIdentities(ctx, tx, b.readerLookups, ids, func(rows *sql.Rows) error {
			var i int
			var body []byte
			if err := rows.Scan(&i, &body); err != nil {
				return err
			}
			res, err := decode(body)
			out[i] = res
			return err
		})
	}, what)
	if err != nil {
		return nil, b.queryError(what, err)
	}
	return out, nil
}

// lookupIdentities selects the columns of stmts from the stored rows with the given
// identities and calls scan for each row, whose first column is the row's
// index in ids; absent ones are skipped. The identities are joined as a
// VALUES table against the primary key, so each costs one index lookup and
// a chunk one statement.
func lookupIdentities(ctx context.Context, tx *sql.Tx, stmts *lookupStatements, ids []*pbresource.ID, scan func(rows *sql.Rows) error) error {
	for start := 0; start < len(ids); start += lookupChunk {
		chunk := ids[start:min(start+lookupChunk, len(ids))]
		size := 1
		for size < len(chunk) {
			size *= 2
		}
		stmt := tx.StmtContext(ctx, stmts.bySize[size])
		args := make([]any, 0, 6*size)
		for k := range size {
			// Padding repeats the last identity under index -1, which scan skips.
			index := start + k
			if k >= len(chunk) {
				index = -1
			}
			args = append(args, index)
			args = append(args, identity(chunk[min(k, len(chunk)-1)])...)
		}
		if err := scanLookup(ctx, stmt, args, scan); err != nil {
			return err
		}
	}
	return nil
}

func lookupQuery(columns string, size int) string {
	var query strings.Builder
	query.WriteString("WITH wanted (i, grp, kind, partition, namespace, name) AS (VALUES ")
	for k := range size {
		if k > 0 {
			query.WriteString(", ")
		}
		query.WriteString("(?, ?, ?, ?, ?, ?)")
	}
	query.WriteString(") SELECT wanted.i, ")
	query.WriteString(columns)
	query.WriteString(` FROM wanted JOIN resources ON resources.grp = wanted.grp AND resources.kind = wanted.kind
		AND resources.partition = wanted.partition AND resources.namespace = wanted.namespace AND resources.name = wanted.name
		WHERE wanted.i >= 0`)
	return query.String()
}

func scanLookup(ctx context.Context, stmt *sql.Stmt, args []any, scan func(rows *sql.Rows) error) error {
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
