package encrypted

import (
	"context"
	"errors"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// Cipher encrypts and decrypts record data.
type Cipher interface {
	// Seal returns the data to store for res: encrypted, or res's own data
	// when records of its type, or all records, are stored plain.
	Seal(ctx context.Context, res *pbresource.Resource) (*anypb.Any, error)
	// Open returns the plain data of a stored record, or an error naming
	// the record when it cannot be decrypted or must not be read plain.
	Open(ctx context.Context, res *pbresource.Resource) (*anypb.Any, error)
	// Current reports whether a stored record's data is already in the
	// form Seal would write now (encrypted with the current keys, or plain
	// when Seal writes plain), so Rewrite can leave it alone.
	Current(ctx context.Context, res *pbresource.Resource) (bool, error)
}

// Backend wraps a store.Backend with a Cipher.
type Backend struct {
	inner  store.Backend
	cipher Cipher
}

var _ store.Backend = (*Backend)(nil)

// New returns inner with record data encrypted by cipher.
func New(inner store.Backend, cipher Cipher) *Backend {
	return &Backend{inner: inner, cipher: cipher}
}

// Inner is the wrapped backend, which sees only encrypted data.
func (b *Backend) Inner() store.Backend { return b.inner }

type identitiesOnlyKey struct{}

// IdentitiesOnly returns a context in which reads through a Backend return
// records with their data as stored (encrypted), for callers that use only
// records' identities, versions and owners — listing workspaces, checking
// that one exists, deleting one — so that those need no keys.
func IdentitiesOnly(ctx context.Context) context.Context {
	return context.WithValue(ctx, identitiesOnlyKey{}, true)
}

// open returns a copy of stored with its data decrypted.
func (b *Backend) open(ctx context.Context, stored *pbresource.Resource) (*pbresource.Resource, error) {
	if stored == nil || stored.GetData() == nil || ctx.Value(identitiesOnlyKey{}) != nil {
		return stored, nil
	}
	plain, err := b.cipher.Open(ctx, stored)
	if err != nil {
		return nil, err
	}
	if plain == stored.GetData() {
		return stored, nil
	}
	return withData(stored, plain), nil
}

func (b *Backend) openAll(ctx context.Context, stored []*pbresource.Resource) ([]*pbresource.Resource, error) {
	out := make([]*pbresource.Resource, len(stored))
	for i, res := range stored {
		opened, err := b.open(ctx, res)
		if err != nil {
			return nil, err
		}
		out[i] = opened
	}
	return out, nil
}

// seal returns a copy of res with its data encrypted.
func (b *Backend) seal(ctx context.Context, res *pbresource.Resource) (*pbresource.Resource, error) {
	if res.GetData() == nil {
		return res, nil
	}
	sealed, err := b.cipher.Seal(ctx, res)
	if err != nil {
		return nil, err
	}
	if sealed == res.GetData() {
		return res, nil
	}
	return withData(res, sealed), nil
}

// withData copies res with other data. The copy leaves res, which may be
// what the backend keeps, untouched.
func withData(res *pbresource.Resource, data *anypb.Any) *pbresource.Resource {
	shallow := &pbresource.Resource{Id: res.GetId(), Owner: res.GetOwner(), Version: res.GetVersion(),
		Generation: res.GetGeneration(), Metadata: res.GetMetadata(), Status: res.GetStatus()}
	out := proto.Clone(shallow).(*pbresource.Resource)
	out.Data = data
	return out
}

func (b *Backend) Read(ctx context.Context, consistency store.ReadConsistency, id *pbresource.ID) (*pbresource.Resource, error) {
	res, err := b.inner.Read(ctx, consistency, id)
	var mismatch store.GroupVersionMismatchError
	if errors.As(err, &mismatch) {
		opened, openErr := b.open(ctx, mismatch.Stored)
		if openErr != nil {
			return nil, openErr
		}
		mismatch.Stored = opened
		return nil, mismatch
	}
	if err != nil {
		return nil, err
	}
	return b.open(ctx, res)
}

func (b *Backend) ReadMany(ctx context.Context, consistency store.ReadConsistency, ids []*pbresource.ID) ([]*pbresource.Resource, error) {
	stored, err := b.inner.ReadMany(ctx, consistency, ids)
	if err != nil {
		return nil, err
	}
	return b.openAll(ctx, stored)
}

func (b *Backend) WriteCAS(ctx context.Context, res *pbresource.Resource) (*pbresource.Resource, error) {
	sealed, err := b.seal(ctx, res)
	if err != nil {
		return nil, err
	}
	stored, err := b.inner.WriteCAS(ctx, sealed)
	if err != nil {
		return nil, err
	}
	return withData(stored, res.GetData()), nil
}

func (b *Backend) DeleteCAS(ctx context.Context, id *pbresource.ID, version string) error {
	return b.inner.DeleteCAS(ctx, id, version)
}

func (b *Backend) List(ctx context.Context, consistency store.ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) ([]*pbresource.Resource, error) {
	stored, err := b.inner.List(ctx, consistency, resType, tenancy, namePrefix)
	if err != nil {
		return nil, err
	}
	return b.openAll(ctx, stored)
}

func (b *Backend) ListByOwner(ctx context.Context, owner *pbresource.ID) ([]*pbresource.Resource, error) {
	stored, err := b.inner.ListByOwner(ctx, owner)
	if err != nil {
		return nil, err
	}
	return b.openAll(ctx, stored)
}

func (b *Backend) WatchList(ctx context.Context, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) (store.Watch, error) {
	w, err := b.inner.WatchList(ctx, resType, tenancy, namePrefix)
	if err != nil {
		return nil, err
	}
	return &watch{inner: w, backend: b}, nil
}

// Batch encrypts every write before the batch is applied, so a record that
// cannot be encrypted leaves the whole batch unwritten.
func (b *Backend) Batch(ctx context.Context, ops []store.Op) ([]*pbresource.Resource, error) {
	sealed := make([]store.Op, len(ops))
	for i, op := range ops {
		sealed[i] = op
		if op.Kind != store.OpWrite {
			continue
		}
		res, err := b.seal(ctx, op.Resource)
		if err != nil {
			return nil, err
		}
		sealed[i].Resource = res
	}
	stored, err := b.inner.Batch(ctx, sealed)
	if err != nil {
		return nil, err
	}
	for i, res := range stored {
		if res != nil && ops[i].Kind == store.OpWrite {
			stored[i] = withData(res, ops[i].Resource.GetData())
		}
	}
	return stored, nil
}

func (b *Backend) Close() error { return b.inner.Close() }

type watch struct {
	inner   store.Watch
	backend *Backend
}

func (w *watch) Next(ctx context.Context) (store.WatchEvent, error) {
	event, err := w.inner.Next(ctx)
	if err != nil || event.Resource == nil {
		return event, err
	}
	opened, err := w.backend.open(ctx, event.Resource)
	if err != nil {
		return store.WatchEvent{}, err
	}
	event.Resource = opened
	return event, nil
}

func (w *watch) Close() { w.inner.Close() }
