package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"google.golang.org/protobuf/proto"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Options tune a Backend. The zero value is a sensible default.
type Options struct {
	// BusyTimeout is how long a statement waits for another process's lock
	// before failing. Default 30s.
	BusyTimeout time.Duration
	// PollInterval is how often watches look for changes made by other
	// processes; changes made through this Backend are seen at once.
	// Default 100ms.
	PollInterval time.Duration
	// KeepChanges is how many of the latest change-log rows are always kept.
	// Default 10,000.
	KeepChanges int64
	// KeepChangesFor is how long change-log rows are kept at least, so a
	// watcher in another process that stalls for less than this misses
	// nothing. Default 10 minutes.
	KeepChangesFor time.Duration
}

func (o Options) withDefaults() Options {
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = 30 * time.Second
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 100 * time.Millisecond
	}
	if o.KeepChanges <= 0 {
		o.KeepChanges = 10_000
	}
	if o.KeepChangesFor <= 0 {
		o.KeepChangesFor = 10 * time.Minute
	}
	return o
}

// Backend is a store.Backend on one SQLite database file.
type Backend struct {
	path   string
	opts   Options
	writer *sql.DB // one connection: writes of this process queue here, not on file locks
	reader *sql.DB
	stmts  *writeStatements
	// writerLookups and readerLookups are the multi-row lookups prepared on
	// each pool.
	writerLookups, readerLookups *lookupStatements
	watcher                      *changeFollower

	closeOnce sync.Once
	closed    chan struct{}
}

var _ store.Backend = (*Backend)(nil)

// Open opens or creates the database at path (its directory is created if
// missing) and prepares the schema.
func Open(path string, opts Options) (*Backend, error) {
	opts = opts.withDefaults()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("creating the directory of state database %s: %w", path, err)
	}
	writer, err := sql.Open("sqlite", dsn(path, opts, "immediate"))
	if err != nil {
		return nil, fmt.Errorf("opening state database %s: %w", path, err)
	}
	writer.SetMaxOpenConns(1)
	reader, err := sql.Open("sqlite", dsn(path, opts, "deferred"))
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("opening state database %s: %w", path, err)
	}
	b := &Backend{path: path, opts: opts, writer: writer, reader: reader, closed: make(chan struct{})}
	if err := b.prepare(); err != nil {
		b.Close()
		return nil, err
	}
	if b.stmts, err = prepareWriteStatements(writer); err != nil {
		b.Close()
		return nil, fmt.Errorf("preparing statements on state database %s: %w", path, err)
	}
	if b.writerLookups, err = prepareLookups(writer, "version, uid"); err == nil {
		b.readerLookups, err = prepareLookups(reader, "body")
	}
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("preparing statements on state database %s: %w", path, err)
	}
	b.watcher = newChangeFollower(b)
	return b, nil
}

// dsn builds the connection string. Every connection gets the busy timeout
// and synchronous=FULL; journal_mode=WAL is a property of the file.
func dsn(path string, opts Options, txlock string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", opts.BusyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", txlock)
	return "file:" + path + "?" + q.Encode()
}

func (b *Backend) prepare() error {
	return b.retryBusy(context.Background(), func() error {
		tx, err := b.writer.Begin()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.Exec(schema); err != nil {
			return err
		}
		return tx.Commit()
	}, "preparing the schema of state database "+b.path)
}

func (b *Backend) isClosed() bool {
	select {
	case <-b.closed:
		return true
	default:
		return false
	}
}

// Read implements store.Backend. Both consistencies read the file, which
// always holds every acknowledged write.
func (b *Backend) Read(ctx context.Context, _ store.ReadConsistency, id *pbresource.ID) (*pbresource.Resource, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	row := b.reader.QueryRowContext(ctx, `SELECT body FROM resources
		WHERE grp = ? AND kind = ? AND partition = ? AND namespace = ? AND name = ?`, identity(id)...)
	var body []byte
	if err := row.Scan(&body); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, store.ErrNotFound
		}
		return nil, b.queryError("reading "+describe(id), err)
	}
	stored, err := decode(body)
	if err != nil {
		return nil, b.queryError("reading "+describe(id), err)
	}
	if err := store.CheckGroupVersion(id, stored); err != nil {
		return nil, err
	}
	return stored, nil
}

// List implements store.Backend. The primary key makes it a range scan of
// one type; a name prefix narrows the range when the tenancy is exact.
func (b *Backend) List(ctx context.Context, _ store.ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) ([]*pbresource.Resource, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	query, args := listQuery(resType, tenancy, namePrefix)
	return b.queryResources(ctx, b.reader, "listing "+resType.GetKind(), query, args, resType, tenancy, namePrefix)
}

// ListEach is List handing each resource to yield as it is read, so the
// caller need not hold them all (store.EachLister).
func (b *Backend) ListEach(ctx context.Context, _ store.ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string, yield func(*pbresource.Resource) error) error {
	if b.isClosed() {
		return store.ErrClosed
	}
	query, args := listQuery(resType, tenancy, namePrefix)
	return b.eachResource(ctx, b.reader, "listing "+resType.GetKind(), query, args, resType, tenancy, namePrefix, yield)
}

func listQuery(resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) (string, []any) {
	var query strings.Builder
	query.WriteString("SELECT body FROM resources WHERE grp = ? AND kind = ?")
	args := []any{resType.GetGroup(), resType.GetKind()}
	if p := tenancy.GetPartition(); tenancy != nil && p != store.Wildcard {
		query.WriteString(" AND partition = ?")
		args = append(args, p)
	}
	if ns := tenancy.GetNamespace(); tenancy != nil && ns != store.Wildcard {
		query.WriteString(" AND namespace = ?")
		args = append(args, ns)
	}
	if namePrefix != "" {
		// Names are UTF-8, which never contains the byte 0xFF, so this range
		// holds exactly the names with the prefix.
		query.WriteString(" AND name >= ? AND name < ?")
		args = append(args, namePrefix, namePrefix+"\xff")
	}
	query.WriteString(" ORDER BY partition, namespace, name")
	return query.String(), args
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryResources runs a query selecting bodies, keeping those that match:
// a last check that also covers names that are not valid UTF-8.
func (b *Backend) queryResources(ctx context.Context, db querier, what, query string, args []any, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) ([]*pbresource.Resource, error) {
	var out []*pbresource.Resource
	err := b.eachResource(ctx, db, what, query, args, resType, tenancy, namePrefix, func(res *pbresource.Resource) error {
		out = append(out, res)
		return nil
	})
	return out, err
}

// eachResource is queryResources handing each matching resource to yield
// as its row is read.
func (b *Backend) eachResource(ctx context.Context, db querier, what, query string, args []any, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string, yield func(*pbresource.Resource) error) error {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return b.queryError(what, err)
	}
	defer rows.Close()
	for rows.Next() {
		var body []byte
		if err := rows.Scan(&body); err != nil {
			return b.queryError(what, err)
		}
		res, err := decode(body)
		if err != nil {
			return b.queryError(what, err)
		}
		if resType == nil || store.Matches(res, resType, tenancy, namePrefix) {
			if err := yield(res); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return b.queryError(what, err)
	}
	return nil
}

// ListByOwner implements store.Backend.
func (b *Backend) ListByOwner(ctx context.Context, owner *pbresource.ID) ([]*pbresource.Resource, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	return b.queryResources(ctx, b.reader, "listing resources owned by "+describe(owner),
		"SELECT body FROM resources WHERE owner_key = ? ORDER BY grp, kind, partition, namespace, name",
		[]any{ownerKey(owner)}, nil, nil, "")
}

// Close implements store.Backend. It ends this process's watches; the
// database stays usable by other processes.
func (b *Backend) Close() error {
	var err error
	b.closeOnce.Do(func() {
		close(b.closed)
		if b.watcher != nil {
			b.watcher.stop()
		}
		err = errors.Join(b.writer.Close(), b.reader.Close())
	})
	return err
}

func identity(id *pbresource.ID) []any {
	return []any{id.GetType().GetGroup(), id.GetType().GetKind(),
		id.GetTenancy().GetPartition(), id.GetTenancy().GetNamespace(), id.GetName()}
}

// ownerKey is the owner index entry: the owner's identity and Uid, so a
// re-created owner of the same name does not inherit its predecessor's.
func ownerKey(owner *pbresource.ID) any {
	if owner == nil {
		return nil
	}
	return strings.Join([]string{owner.GetType().GetGroup(), owner.GetType().GetKind(),
		owner.GetTenancy().GetPartition(), owner.GetTenancy().GetNamespace(), owner.GetName(), owner.GetUid()}, "\x00")
}

func describe(id *pbresource.ID) string {
	return fmt.Sprintf("%s.%s %s/%s/%s", id.GetType().GetGroup(), id.GetType().GetKind(),
		id.GetTenancy().GetPartition(), id.GetTenancy().GetNamespace(), id.GetName())
}

func encode(res *pbresource.Resource) ([]byte, error) {
	return proto.MarshalOptions{Deterministic: true}.Marshal(res)
}

func decode(body []byte) (*pbresource.Resource, error) {
	res := &pbresource.Resource{}
	if err := proto.Unmarshal(body, res); err != nil {
		return nil, fmt.Errorf("stored record is corrupt: %w", err)
	}
	return res, nil
}

func (b *Backend) queryError(what string, err error) error {
	if b.isClosed() {
		return store.ErrClosed
	}
	return fmt.Errorf("%s in state database %s: %w", what, b.path, err)
}
