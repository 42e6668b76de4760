package memory

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/eventqueue"
	"github.com/terrane/terrane/proto/pbresource"
)

// Backend keeps resources in memory. Versions are a counter shared by every
// resource, so a Version is never reused, not even after a delete.
type Backend struct {
	mu       sync.Mutex
	records  map[string]*pbresource.Resource
	revision uint64
	watches  map[*watch]struct{}
	closed   bool
}

type watch struct {
	queue      *eventqueue.Queue
	resType    *pbresource.Type
	tenancy    *pbresource.Tenancy
	namePrefix string
}

var _ store.Backend = (*Backend)(nil)

// New returns an empty backend.
func New() *Backend {
	return &Backend{records: map[string]*pbresource.Resource{}, watches: map[*watch]struct{}{}}
}

func key(id *pbresource.ID) string {
	return strings.Join([]string{id.GetType().GetGroup(), id.GetType().GetKind(),
		id.GetTenancy().GetPartition(), id.GetTenancy().GetNamespace(), id.GetName()}, "\x00")
}

// Read implements store.Backend. Both consistencies are strong here.
func (b *Backend) Read(_ context.Context, _ store.ReadConsistency, id *pbresource.ID) (*pbresource.Resource, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, store.ErrClosed
	}
	stored, ok := b.records[key(id)]
	if !ok {
		return nil, store.ErrNotFound
	}
	if err := store.CheckGroupVersion(id, stored); err != nil {
		return nil, err
	}
	return store.Clone(stored), nil
}

// ReadMany implements store.Backend.
func (b *Backend) ReadMany(_ context.Context, _ store.ReadConsistency, ids []*pbresource.ID) ([]*pbresource.Resource, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, store.ErrClosed
	}
	out := make([]*pbresource.Resource, len(ids))
	for i, id := range ids {
		if stored, ok := b.records[key(id)]; ok {
			out[i] = store.Clone(stored)
		}
	}
	return out, nil
}

// WriteCAS implements store.Backend.
func (b *Backend) WriteCAS(ctx context.Context, res *pbresource.Resource) (*pbresource.Resource, error) {
	return store.WriteOne(ctx, b.Batch, res)
}

// DeleteCAS implements store.Backend.
func (b *Backend) DeleteCAS(ctx context.Context, id *pbresource.ID, version string) error {
	return store.DeleteOne(ctx, b.Batch, id, version)
}

// Batch implements store.Backend. Every operation is checked against the
// state left by the ones before it, then all are applied under one lock.
func (b *Backend) Batch(_ context.Context, ops []store.Op) ([]*pbresource.Resource, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, store.ErrClosed
	}
	pending := map[string]*pbresource.Resource{}
	current := func(k string) *pbresource.Resource {
		if res, ok := pending[k]; ok {
			return res
		}
		return b.records[k]
	}
	out := make([]*pbresource.Resource, len(ops))
	var events []store.WatchEvent
	revision := b.revision
	for i, op := range ops {
		k := key(op.OpID())
		stored := current(k)
		switch op.Kind {
		case store.OpWrite:
			if err := store.CheckWrite(stored, op.Resource); err != nil {
				return nil, &store.BatchError{Index: i, Err: err}
			}
			revision++
			written := store.Clone(op.Resource)
			written.Version = strconv.FormatUint(revision, 10)
			pending[k] = written
			out[i] = store.Clone(written)
			events = append(events, store.WatchEvent{Kind: store.EventUpsert, Resource: written})
		case store.OpDelete:
			if err := store.CheckDelete(stored, op.Version); err != nil {
				return nil, &store.BatchError{Index: i, Err: err}
			}
			if stored != nil {
				pending[k] = nil
				events = append(events, store.WatchEvent{Kind: store.EventDelete, Resource: stored})
			}
		default:
			return nil, &store.BatchError{Index: i, Err: store.UnknownOpError(op.Kind)}
		}
	}
	b.revision = revision
	for k, res := range pending {
		if res == nil {
			delete(b.records, k)
		} else {
			b.records[k] = res
		}
	}
	b.publish(events)
	return out, nil
}

func (b *Backend) publish(events []store.WatchEvent) {
	for w := range b.watches {
		for _, ev := range events {
			if store.Matches(ev.Resource, w.resType, w.tenancy, w.namePrefix) {
				w.queue.Push(store.WatchEvent{Kind: ev.Kind, Resource: store.Clone(ev.Resource)})
			}
		}
	}
}

// List implements store.Backend.
func (b *Backend) List(_ context.Context, _ store.ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) ([]*pbresource.Resource, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, store.ErrClosed
	}
	return b.listLocked(resType, tenancy, namePrefix), nil
}

func (b *Backend) listLocked(resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) []*pbresource.Resource {
	var out []*pbresource.Resource
	for _, res := range b.records {
		if store.Matches(res, resType, tenancy, namePrefix) {
			out = append(out, store.Clone(res))
		}
	}
	sortByVersion(out)
	return out
}

// sortByVersion gives List a stable order: the order resources were last written.
func sortByVersion(resources []*pbresource.Resource) {
	slices.SortFunc(resources, func(a, c *pbresource.Resource) int {
		av, _ := strconv.ParseUint(a.Version, 10, 64)
		cv, _ := strconv.ParseUint(c.Version, 10, 64)
		return cmp.Compare(av, cv)
	})
}

// ListByOwner implements store.Backend.
func (b *Backend) ListByOwner(_ context.Context, owner *pbresource.ID) ([]*pbresource.Resource, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, store.ErrClosed
	}
	var out []*pbresource.Resource
	for _, res := range b.records {
		if store.SameOwner(res.GetOwner(), owner) {
			out = append(out, store.Clone(res))
		}
	}
	sortByVersion(out)
	return out, nil
}

// WatchList implements store.Backend. The snapshot is taken and the watch
// registered under the same lock, so no write falls between them.
func (b *Backend) WatchList(_ context.Context, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) (store.Watch, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, store.ErrClosed
	}
	w := &watch{resType: resType, tenancy: tenancy, namePrefix: namePrefix}
	w.queue = eventqueue.New(func() {
		b.mu.Lock()
		delete(b.watches, w)
		b.mu.Unlock()
	})
	for _, res := range b.listLocked(resType, tenancy, namePrefix) {
		w.queue.Push(store.WatchEvent{Kind: store.EventUpsert, Resource: res})
	}
	w.queue.Push(store.WatchEvent{Kind: store.EventEndOfSnapshot})
	b.watches[w] = struct{}{}
	return w.queue, nil
}

// Close implements store.Backend: later calls fail with store.ErrClosed and
// open watches end with it.
func (b *Backend) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for w := range b.watches {
		w.queue.Fail(store.ErrClosed)
	}
	b.watches = map[*watch]struct{}{}
	return nil
}
