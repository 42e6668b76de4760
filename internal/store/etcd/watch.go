package etcd

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/eventqueue"
	"github.com/terrane/terrane/proto/pbresource"
	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// watchFilter is what one WatchList selects.
type watchFilter struct {
	resType    *pbresource.Type
	tenancy    *pbresource.Tenancy
	namePrefix string
}

// WatchList implements store.Backend. The snapshot is a List at some
// revision R; the etcd watch then starts at R+1, so no change is missed or
// repeated between them.
func (b *Backend) WatchList(ctx context.Context, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) (store.Watch, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	listCtx, done := b.opContext(ctx)
	snapshot, revision, err := b.list(listCtx, store.StrongConsistency, resType, tenancy, namePrefix)
	done()
	if err != nil {
		return nil, err
	}
	watchCtx, cancel := context.WithCancel(b.ctx)
	queue := eventqueue.New(cancel)
	for _, res := range snapshot {
		queue.Push(store.WatchEvent{Kind: store.EventUpsert, Resource: res})
	}
	queue.Push(store.WatchEvent{Kind: store.EventEndOfSnapshot})
	filter := watchFilter{resType: resType, tenancy: tenancy, namePrefix: namePrefix}
	go b.follow(watchCtx, queue, filter, b.keys.listPrefix(resType, tenancy, namePrefix), revision+1)
	return queue, nil
}

// follow feeds queue from an etcd watch on prefix starting at revision next.
// If the watch stream ends (a lost connection, a restarted member), it is
// re-opened from the revision after the last one delivered, so events are
// neither lost nor repeated. A compacted start revision ends the watch with
// store.ErrWatchExpired.
func (b *Backend) follow(ctx context.Context, queue *eventqueue.Queue, filter watchFilter, prefix string, next int64) {
	backoff := 50 * time.Millisecond
	for {
		// WithRequireLeader makes a member cut off from its cluster end the
		// stream instead of silently serving nothing.
		stream := b.client.Watch(clientv3.WithRequireLeader(ctx), prefix,
			clientv3.WithPrefix(), clientv3.WithRev(next), clientv3.WithPrevKV())
		for resp := range stream {
			if resp.CompactRevision != 0 || errors.Is(resp.Err(), rpctypes.ErrCompacted) {
				queue.Fail(store.ErrWatchExpired)
				return
			}
			if resp.Err() != nil || resp.Canceled {
				break
			}
			for _, ev := range resp.Events {
				if event, ok := toWatchEvent(ev); ok && store.Matches(event.Resource, filter.resType, filter.tenancy, filter.namePrefix) {
					queue.Push(event)
				}
				next = ev.Kv.ModRevision + 1
			}
			backoff = 50 * time.Millisecond
		}
		select {
		case <-ctx.Done():
			if b.isClosed() {
				queue.Fail(store.ErrClosed)
			}
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 2*time.Second)
	}
}

func toWatchEvent(ev *clientv3.Event) (store.WatchEvent, bool) {
	if ev.Type == mvccpb.PUT {
		res, err := decode(ev.Kv)
		return store.WatchEvent{Kind: store.EventUpsert, Resource: res}, err == nil
	}
	if ev.PrevKv == nil {
		// The previous value is only missing if it was compacted away, and
		// then the watch has already ended with ErrWatchExpired.
		return store.WatchEvent{}, false
	}
	res, err := decode(ev.PrevKv)
	if err != nil {
		return store.WatchEvent{}, false
	}
	res.Version = strconv.FormatInt(ev.PrevKv.ModRevision, 10)
	return store.WatchEvent{Kind: store.EventDelete, Resource: res}, true
}
