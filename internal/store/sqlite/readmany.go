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
// parameters each stays far below SQLite's limit of 32,766, and the
// statement stays small enough to compile quickly.
const lookupChunk = 200

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
		return lookupIdentities(ctx, tx, "body", ids, func(rows *sql.Rows) error {
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

// lookupIdentities selects columns of the stored rows with the given
// identities and calls scan for each row, whose first column is the row's
// index in ids; absent ones are skipped. The identities are joined as a VALUES table against the primary
// key, so each costs one index lookup and the chunk one statement.
func lookupIdentities(ctx context.Context, db querier, columns string, ids []*pbresource.ID, scan func(rows *sql.Rows) error) error {
	for start := 0; start < len(ids); start += lookupChunk {
		chunk := ids[start:min(start+lookupChunk, len(ids))]
		query, args := lookupQuery(columns, start, chunk)
		if err := scanLookup(ctx, db, query, args, scan); err != nil {
			return err
		}
	}
	return nil
}

func lookupQuery(columns string, start int, chunk []*pbresource.ID) (string, []any) {
	var query strings.Builder
	query.WriteString("WITH wanted (i, grp, kind, partition, namespace, name) AS (VALUES ")
	args := make([]any, 0, 6*len(chunk))
	for k, id := range chunk {
		if k > 0 {
			query.WriteString(", ")
		}
		query.WriteString("(?, ?, ?, ?, ?, ?)")
		args = append(args, start+k)
		args = append(args, identity(id)...)
	}
	query.WriteString(") SELECT wanted.i, ")
	query.WriteString(columns)
	query.WriteString(` FROM wanted JOIN resources ON resources.grp = wanted.grp AND resources.kind = wanted.kind
		AND resources.partition = wanted.partition AND resources.namespace = wanted.namespace AND resources.name = wanted.name`)
	return query.String(), args
}

func scanLookup(ctx context.Context, db querier, query string, args []any, scan func(rows *sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, query, args...)
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
