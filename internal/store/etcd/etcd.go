package etcd

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Options configure a Backend.
type Options struct {
	// Prefix is prepended to every key; several Terrane installations (or
	// tests) can share a cluster under different prefixes. Default "/terrane/".
	Prefix string
	// MaxTxnOps is the cluster's --max-txn-ops. Default 128, etcd's default.
	MaxTxnOps int
	// MaxTxnBytes bounds the encoded records of one transaction, below the
	// cluster's --max-request-bytes (1.5 MiB by default). Default 1 MiB.
	MaxTxnBytes int
	// PageSize is how many records one List request fetches. Default 1000.
	PageSize int64
	// RequestTimeout bounds each request other than a watch; 0 means none.
	// The client waits for a cluster that is down to come back (a member
	// restarting), so without a bound a request could wait forever; one
	// that runs out fails with store.ErrUnavailable.
	RequestTimeout time.Duration
}

// dialTimeout bounds connecting to a cluster (and authenticating, when a
// user is given).
const dialTimeout = 5 * time.Second

// Connection says how to reach a cluster.
type Connection struct {
	// Endpoints are client URLs, e.g. "https://10.0.0.1:2379".
	Endpoints []string
	// TLS, when set, is used for every endpoint (CA, client certificate).
	TLS *tls.Config
	// Username and Password authenticate with etcd's own auth.
	Username, Password string
}

func (o Options) withDefaults() Options {
	if o.Prefix == "" {
		o.Prefix = "/terrane/"
	}
	if o.MaxTxnOps <= 0 {
		o.MaxTxnOps = 128
	}
	if o.MaxTxnBytes <= 0 {
		o.MaxTxnBytes = 1 << 20
	}
	if o.PageSize <= 0 {
		o.PageSize = 1000
	}
	return o
}

// Backend is a store.Backend on etcd.
type Backend struct {
	client     *clientv3.Client
	ownsClient bool
	opts       Options
	keys       keys

	ctx    context.Context // cancelled by Close; parent of every watch
	cancel context.CancelFunc
	once   sync.Once
}

var _ store.Backend = (*Backend)(nil)

// Open connects to the cluster at endpoints (e.g. "http://127.0.0.1:2379").
// Close closes the connection.
func Open(endpoints []string, opts Options) (*Backend, error) {
	return Dial(Connection{Endpoints: endpoints}, opts)
}

// Dial connects to the cluster conn names. Close closes the connection.
func Dial(conn Connection, opts Options) (*Backend, error) {
	client, err := clientv3.New(clientv3.Config{
		Endpoints: conn.Endpoints, TLS: conn.TLS, Username: conn.Username, Password: conn.Password,
		DialTimeout: dialTimeout, Logger: zap.NewNop(),
	})
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("connecting to etcd at %v: %w: no connection within %s; check that etcd runs there and that the TLS settings (CA, client certificate and key) match what it expects",
			conn.Endpoints, store.ErrUnavailable, dialTimeout)
	}
	if err != nil {
		return nil, fmt.Errorf("connecting to etcd at %v: %w", conn.Endpoints, err)
	}
	b := New(client, opts)
	b.ownsClient = true
	return b, nil
}

// New returns a Backend using client, which the caller keeps and closes.
func New(client *clientv3.Client, opts Options) *Backend {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	return &Backend{client: client, opts: opts, keys: keys{prefix: opts.Prefix}, ctx: ctx, cancel: cancel}
}

func (b *Backend) isClosed() bool { return b.ctx.Err() != nil }

// opContext ends an operation when either the caller gives up or the
// backend is closed.
func (b *Backend) opContext(ctx context.Context) (context.Context, context.CancelFunc) {
	var cancel context.CancelFunc
	if b.opts.RequestTimeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, b.opts.RequestTimeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	stop := context.AfterFunc(b.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// Read implements store.Backend. An eventually consistent read is served by
// the member the client talks to (serializable); a strong one by the leader.
func (b *Backend) Read(ctx context.Context, consistency store.ReadConsistency, id *pbresource.ID) (*pbresource.Resource, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	ctx, done := b.opContext(ctx)
	defer done()
	var opts []clientv3.OpOption
	if consistency == store.EventualConsistency {
		opts = append(opts, clientv3.WithSerializable())
	}
	resp, err := b.client.Get(ctx, b.keys.resource(id), opts...)
	if err != nil {
		return nil, b.requestError("reading "+describe(id), err)
	}
	if len(resp.Kvs) == 0 {
		return nil, store.ErrNotFound
	}
	stored, err := decode(resp.Kvs[0])
	if err != nil {
		return nil, err
	}
	if err := store.CheckGroupVersion(id, stored); err != nil {
		return nil, err
	}
	return stored, nil
}

// List implements store.Backend, fetching PageSize records per request, all
// at the revision of the first page so the result is one consistent view.
func (b *Backend) List(ctx context.Context, consistency store.ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) ([]*pbresource.Resource, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	ctx, done := b.opContext(ctx)
	defer done()
	out, _, err := b.list(ctx, consistency, resType, tenancy, namePrefix)
	return out, err
}

// ListEach is List handing each resource to yield as its page is read, so
// the caller holds at most a page of them (store.EachLister).
func (b *Backend) ListEach(ctx context.Context, consistency store.ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string, yield func(*pbresource.Resource) error) error {
	if b.isClosed() {
		return store.ErrClosed
	}
	ctx, done := b.opContext(ctx)
	defer done()
	_, err := b.each(ctx, consistency, resType, tenancy, namePrefix, yield)
	return err
}

// list returns the matching resources and the revision they were read at.
func (b *Backend) list(ctx context.Context, consistency store.ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) ([]*pbresource.Resource, int64, error) {
	var out []*pbresource.Resource
	revision, err := b.each(ctx, consistency, resType, tenancy, namePrefix, func(res *pbresource.Resource) error {
		out = append(out, res)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, revision, nil
}

// each hands the matching resources to yield in key order and returns the
// revision they were read at. An error of yield's is returned as it is.
func (b *Backend) each(ctx context.Context, consistency store.ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string, yield func(*pbresource.Resource) error) (int64, error) {
	var revision int64
	var yieldErr error
	err := b.pages(ctx, consistency, b.keys.listPrefix(resType, tenancy, namePrefix), func(kv *mvccpb.KeyValue) error {
		res, err := decode(kv)
		if err != nil || !store.Matches(res, resType, tenancy, namePrefix) {
			return err
		}
		yieldErr = yield(res)
		return yieldErr
	}, &revision)
	if yieldErr != nil {
		return 0, yieldErr
	}
	if err != nil {
		return 0, b.requestError("listing "+resType.GetKind(), err)
	}
	return revision, nil
}

// pages calls visit for every key under prefix, in key order, reading
// PageSize keys per request at one revision, which it stores in *revision.
func (b *Backend) pages(ctx context.Context, consistency store.ReadConsistency, prefix string, visit func(*mvccpb.KeyValue) error, revision *int64) error {
	from, end := prefix, prefixEnd(prefix)
	for {
		opts := []clientv3.OpOption{clientv3.WithRange(end), clientv3.WithLimit(b.opts.PageSize), clientv3.WithRev(*revision)}
		if consistency == store.EventualConsistency {
			opts = append(opts, clientv3.WithSerializable())
		}
		resp, err := b.client.Get(ctx, from, opts...)
		if err != nil {
			return err
		}
		if *revision == 0 {
			*revision = resp.Header.Revision
		}
		for _, kv := range resp.Kvs {
			if err := visit(kv); err != nil {
				return err
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return nil
		}
		from = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}

// ListByOwner implements store.Backend: it reads the owner index, then the
// resources it names, all at the index's revision.
func (b *Backend) ListByOwner(ctx context.Context, owner *pbresource.ID) ([]*pbresource.Resource, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	ctx, done := b.opContext(ctx)
	defer done()
	var resourceKeys []string
	var revision int64
	err := b.pages(ctx, store.StrongConsistency, b.keys.ownerPrefix(owner), func(kv *mvccpb.KeyValue) error {
		resourceKeys = append(resourceKeys, string(kv.Value))
		return nil
	}, &revision)
	if err != nil {
		return nil, b.requestError("listing resources owned by "+describe(owner), err)
	}
	current, err := b.getMany(ctx, resourceKeys, revision)
	if err != nil {
		return nil, b.requestError("listing resources owned by "+describe(owner), err)
	}
	var out []*pbresource.Resource
	for _, key := range resourceKeys {
		if stored := current[key]; stored.resource != nil {
			out = append(out, stored.resource)
		}
	}
	return out, nil
}

// Close implements store.Backend: watches end with store.ErrClosed.
func (b *Backend) Close() error {
	var err error
	b.once.Do(func() {
		b.cancel()
		if b.ownsClient {
			err = b.client.Close()
		}
	})
	return err
}

// unreachable reports an error that says the cluster could not be reached
// or did not answer in time, as opposed to one it answered with.
func unreachable(err error) bool {
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, rpctypes.ErrTimeout), errors.Is(err, rpctypes.ErrGRPCTimeout),
		errors.Is(err, rpctypes.ErrTimeoutDueToLeaderFail), errors.Is(err, rpctypes.ErrTimeoutDueToConnectionLost),
		errors.Is(err, rpctypes.ErrGRPCTimeoutDueToConnectionLost):
		return true
	}
	code := status.Code(err)
	return code == codes.Unavailable || code == codes.DeadlineExceeded
}

func decode(kv *mvccpb.KeyValue) (*pbresource.Resource, error) {
	res := &pbresource.Resource{}
	if err := proto.Unmarshal(kv.Value, res); err != nil {
		return nil, fmt.Errorf("etcd key %q does not hold a resource record: %w", kv.Key, err)
	}
	res.Version = strconv.FormatInt(kv.ModRevision, 10)
	return res, nil
}

func encode(res *pbresource.Resource) ([]byte, error) {
	// The Version is the key's mod revision, known only after the write.
	withoutVersion := store.Clone(res)
	withoutVersion.Version = ""
	return proto.MarshalOptions{Deterministic: true}.Marshal(withoutVersion)
}

func describe(id *pbresource.ID) string {
	return fmt.Sprintf("%s.%s %s/%s/%s", id.GetType().GetGroup(), id.GetType().GetKind(),
		id.GetTenancy().GetPartition(), id.GetTenancy().GetNamespace(), id.GetName())
}

func (b *Backend) requestError(what string, err error) error {
	if b.isClosed() {
		return store.ErrClosed
	}
	if errors.Is(err, rpctypes.ErrNoLeader) || errors.Is(err, rpctypes.ErrGRPCNoLeader) {
		return fmt.Errorf("%s: %w: etcd has no leader (%v)", what, store.ErrInconsistent, err)
	}
	if unreachable(err) {
		return fmt.Errorf("%s in etcd: %w: %w", what, store.ErrUnavailable, err)
	}
	return fmt.Errorf("%s in etcd: %w", what, err)
}

// ReadMany implements store.Backend: the keys are read in transactions of
// up to MaxTxnOps gets, all at the revision of the first.
func (b *Backend) ReadMany(ctx context.Context, _ store.ReadConsistency, ids []*pbresource.ID) ([]*pbresource.Resource, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	ctx, done := b.opContext(ctx)
	defer done()
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = b.keys.resource(id)
	}
	current, err := b.getMany(ctx, keys, 0)
	if err != nil {
		return nil, b.requestError(fmt.Sprintf("reading %d resources", len(ids)), err)
	}
	out := make([]*pbresource.Resource, len(ids))
	for i, key := range keys {
		if res := current[key].resource; res != nil {
			// Keys repeated in ids share one decoded resource; each caller gets its own.
			out[i] = store.Clone(res)
		}
	}
	return out, nil
}
