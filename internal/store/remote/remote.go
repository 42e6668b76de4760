package remote

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/storev1"
)

// Metadata keys understood by `terrane serve` (see package resourceservice).
const (
	tokenMetadataKey       = "x-consul-token"
	consistencyMetadataKey = "x-consul-consistency-mode"
)

// Config says how to reach a `terrane serve` endpoint.
type Config struct {
	// Address is host:port.
	Address string
	// Token is sent as the bearer token; empty sends none.
	Token string
	// TLS, when set, is used for the connection; nil means plaintext.
	TLS *tls.Config
	// RequestTimeout bounds each call other than a watch; 0 means none. A
	// call that runs out fails with store.ErrUnavailable.
	RequestTimeout time.Duration
}

// Backend is a store.Backend served by a remote endpoint.
type Backend struct {
	conn      *grpc.ClientConn
	resources pbresource.ResourceServiceClient
	batches   storev1.BatchServiceClient
	token     string
	address   string
	timeout   time.Duration

	mu      sync.Mutex
	closed  bool
	cancels map[*watch]context.CancelFunc
}

var _ store.Backend = (*Backend)(nil)

// Dial returns a backend for the endpoint in cfg. It does not wait for the
// endpoint: the first call reports an unreachable one.
func Dial(cfg Config) (*Backend, error) {
	creds := insecure.NewCredentials()
	if cfg.TLS != nil {
		creds = credentials.NewTLS(cfg.TLS)
	}
	// After the endpoint restarts, reconnect within seconds rather than
	// gRPC's default backoff of up to two minutes: runs waiting to record
	// results retry at about that pace.
	reconnect := grpc.ConnectParams{Backoff: backoff.DefaultConfig, MinConnectTimeout: 5 * time.Second}
	reconnect.Backoff.BaseDelay, reconnect.Backoff.MaxDelay = 100*time.Millisecond, 3*time.Second
	conn, err := grpc.NewClient(cfg.Address, grpc.WithTransportCredentials(creds), grpc.WithConnectParams(reconnect))
	if err != nil {
		return nil, fmt.Errorf("store endpoint %q: %w", cfg.Address, err)
	}
	return &Backend{
		conn:      conn,
		resources: pbresource.NewResourceServiceClient(conn),
		batches:   storev1.NewBatchServiceClient(conn),
		token:     cfg.Token,
		address:   cfg.Address,
		timeout:   cfg.RequestTimeout,
		cancels:   map[*watch]context.CancelFunc{},
	}, nil
}

// outgoing adds the token and, for strong reads, the consistency mode,
// and bounds the call by the request timeout. Call the CancelFunc when the
// call is over.
func (b *Backend) outgoing(ctx context.Context, consistency store.ReadConsistency) (context.Context, context.CancelFunc, error) {
	ctx, err := b.withMetadata(ctx, consistency)
	if err != nil {
		return nil, nil, err
	}
	if b.timeout > 0 {
		ctx, cancel := context.WithTimeout(ctx, b.timeout)
		return ctx, cancel, nil
	}
	return ctx, func() {}, nil
}

// withMetadata adds the token and, for strong reads, the consistency mode.
func (b *Backend) withMetadata(ctx context.Context, consistency store.ReadConsistency) (context.Context, error) {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return nil, store.ErrClosed
	}
	var pairs []string
	if b.token != "" {
		pairs = append(pairs, tokenMetadataKey, b.token)
	}
	if consistency == store.StrongConsistency {
		pairs = append(pairs, consistencyMetadataKey, "consistent")
	}
	return metadata.AppendToOutgoingContext(ctx, pairs...), nil
}

// Read implements store.Backend.
func (b *Backend) Read(ctx context.Context, consistency store.ReadConsistency, id *pbresource.ID) (*pbresource.Resource, error) {
	ctx, done, err := b.outgoing(ctx, consistency)
	if err != nil {
		return nil, err
	}
	defer done()
	withoutUid := proto.Clone(id).(*pbresource.ID)
	withoutUid.Uid = "" // Backend.Read ignores the Uid; ResourceService.Read would check it.
	resp, err := b.resources.Read(ctx, &pbresource.ReadRequest{Id: withoutUid})
	if err != nil {
		return nil, b.fromStatus(err, id.GetType())
	}
	return resp.GetResource(), nil
}

// fromStatus maps the endpoint's gRPC codes back to the store's errors.
func (b *Backend) fromStatus(err error, requested *pbresource.Type) error {
	st := status.Convert(err)
	switch st.Code() {
	case codes.NotFound:
		return store.ErrNotFound
	case codes.Aborted:
		return store.ErrCASFailure
	case codes.FailedPrecondition:
		return store.ErrWrongUid
	case codes.InvalidArgument:
		for _, detail := range st.Details() {
			if stored, ok := detail.(*pbresource.Resource); ok {
				return store.GroupVersionMismatchError{RequestedType: requested, Stored: stored}
			}
		}
	case codes.Canceled:
		return context.Canceled
	case codes.Unavailable, codes.DeadlineExceeded:
		// Not reached, or no answer in time (the request timeout, or the
		// caller's own deadline): either way the call may or may not have
		// been applied.
		return fmt.Errorf("store endpoint %s: %w: %s", b.address, store.ErrUnavailable, st.Message())
	}
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return store.ErrClosed
	}
	return fmt.Errorf("store endpoint %s: %s: %s", b.address, st.Code(), st.Message())
}

// List implements store.Backend.
func (b *Backend) List(ctx context.Context, consistency store.ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) ([]*pbresource.Resource, error) {
	ctx, done, err := b.outgoing(ctx, consistency)
	if err != nil {
		return nil, err
	}
	defer done()
	resp, err := b.resources.List(ctx, &pbresource.ListRequest{Type: resType, Tenancy: tenancy, NamePrefix: namePrefix})
	if err != nil {
		return nil, b.fromStatus(err, resType)
	}
	return resp.GetResources(), nil
}

// ListByOwner implements store.Backend.
func (b *Backend) ListByOwner(ctx context.Context, owner *pbresource.ID) ([]*pbresource.Resource, error) {
	ctx, done, err := b.outgoing(ctx, store.EventualConsistency)
	if err != nil {
		return nil, err
	}
	defer done()
	resp, err := b.resources.ListByOwner(ctx, &pbresource.ListByOwnerRequest{Owner: owner})
	if err != nil {
		return nil, b.fromStatus(err, owner.GetType())
	}
	return resp.GetResources(), nil
}

// WriteCAS implements store.Backend as a batch of one.
func (b *Backend) WriteCAS(ctx context.Context, res *pbresource.Resource) (*pbresource.Resource, error) {
	stored, err := b.Batch(ctx, []store.Op{{Kind: store.OpWrite, Resource: res}})
	if err != nil {
		return nil, unwrapBatch(err)
	}
	return stored[0], nil
}

// DeleteCAS implements store.Backend as a batch of one.
func (b *Backend) DeleteCAS(ctx context.Context, id *pbresource.ID, version string) error {
	_, err := b.Batch(ctx, []store.Op{{Kind: store.OpDelete, ID: id, Version: version}})
	return unwrapBatch(err)
}

func unwrapBatch(err error) error {
	var batchErr *store.BatchError
	if errors.As(err, &batchErr) {
		return batchErr.Err
	}
	return err
}

// Batch implements store.Backend.
func (b *Backend) Batch(ctx context.Context, ops []store.Op) ([]*pbresource.Resource, error) {
	ctx, done, err := b.outgoing(ctx, store.EventualConsistency)
	if err != nil {
		return nil, err
	}
	defer done()
	req := &storev1.BatchRequest{Operations: make([]*storev1.Operation, len(ops))}
	for i, op := range ops {
		switch op.Kind {
		case store.OpWrite:
			req.Operations[i] = &storev1.Operation{Operation: &storev1.Operation_Write{Write: op.Resource}}
		case store.OpDelete:
			req.Operations[i] = &storev1.Operation{Operation: &storev1.Operation_Delete{Delete: &storev1.Delete{Id: op.ID, Version: op.Version}}}
		default:
			return nil, &store.BatchError{Index: i, Err: store.UnknownOpError(op.Kind)}
		}
	}
	resp, err := b.batches.Batch(ctx, req)
	if err != nil {
		return nil, b.fromStatus(err, nil)
	}
	if failed := resp.GetFailed(); failed != nil {
		cause := store.ErrCASFailure
		if failed.GetReason() == storev1.Failed_REASON_WRONG_UID {
			cause = store.ErrWrongUid
		}
		return nil, &store.BatchError{Index: int(failed.GetIndex()), Err: cause}
	}
	stored := resp.GetApplied().GetResources()
	if len(stored) != len(ops) {
		return nil, fmt.Errorf("store endpoint %s answered a batch of %d operations with %d results", b.address, len(ops), len(stored))
	}
	for i, op := range ops {
		if op.Kind == store.OpDelete {
			stored[i] = nil // proto lists cannot hold nil; deletes come back empty
		}
	}
	return stored, nil
}

// Close implements store.Backend: it ends every watch and the connection.
func (b *Backend) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	cancels := b.cancels
	b.cancels = nil
	b.mu.Unlock()
	for _, cancel := range cancels {
		cancel()
	}
	return b.conn.Close()
}

// ReadMany implements store.Backend with BatchService.ReadMany, one round
// trip for all ids; an endpoint too old to have it is read one ID at a time.
func (b *Backend) ReadMany(ctx context.Context, consistency store.ReadConsistency, ids []*pbresource.ID) ([]*pbresource.Resource, error) {
	callCtx, done, err := b.outgoing(ctx, consistency)
	if err != nil {
		return nil, err
	}
	defer done()
	resp, err := b.batches.ReadMany(callCtx, &storev1.ReadManyRequest{Ids: ids, Consistent: consistency == store.StrongConsistency})
	if status.Code(err) == codes.Unimplemented {
		return b.readEach(ctx, consistency, ids)
	}
	if err != nil {
		return nil, b.fromStatus(err, nil)
	}
	found := resp.GetResources()
	if len(found) != len(ids) {
		return nil, fmt.Errorf("store endpoint %s answered a read of %d resources with %d", b.address, len(ids), len(found))
	}
	for i, res := range found {
		if res.GetId() == nil {
			found[i] = nil
		}
	}
	return found, nil
}

// readEach reads ids one Read at a time, for endpoints without ReadMany.
func (b *Backend) readEach(ctx context.Context, consistency store.ReadConsistency, ids []*pbresource.ID) ([]*pbresource.Resource, error) {
	out := make([]*pbresource.Resource, len(ids))
	for i, id := range ids {
		res, err := b.Read(ctx, consistency, id)
		var mismatch store.GroupVersionMismatchError
		switch {
		case err == nil:
			out[i] = res
		case errors.Is(err, store.ErrNotFound):
		case errors.As(err, &mismatch):
			out[i] = mismatch.Stored
		default:
			return nil, err
		}
	}
	return out, nil
}
