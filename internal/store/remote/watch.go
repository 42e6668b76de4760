package remote

import (
	"context"
	"fmt"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// watch relays a WatchList stream. The snapshot is read before WatchList
// returns, so the server-side watch surely exists then and no write made
// after WatchList returns can land in the snapshot instead of the deltas.
type watch struct {
	backend  *Backend
	stream   pbresource.ResourceService_WatchListClient
	cancel   context.CancelFunc
	snapshot []store.WatchEvent
}

// WatchList implements store.Backend.
func (b *Backend) WatchList(ctx context.Context, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) (store.Watch, error) {
	// The stream lives until Close, not until ctx of this call ends.
	streamCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	streamCtx, err := b.withMetadata(streamCtx, store.EventualConsistency)
	if err != nil {
		cancel()
		return nil, err
	}
	w := &watch{backend: b, cancel: cancel}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		cancel()
		return nil, store.ErrClosed
	}
	b.cancels[w] = cancel
	b.mu.Unlock()

	stream, err := b.resources.WatchList(streamCtx, &pbresource.WatchListRequest{Type: resType, Tenancy: tenancy, NamePrefix: namePrefix})
	if err == nil {
		w.stream = stream
		err = w.readSnapshot(ctx)
	}
	if err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

func (w *watch) readSnapshot(ctx context.Context) error {
	for {
		event, err := w.receive(ctx)
		if err != nil {
			return err
		}
		w.snapshot = append(w.snapshot, event)
		if event.Kind == store.EventEndOfSnapshot {
			return nil
		}
	}
}

// Next implements store.Watch.
func (w *watch) Next(ctx context.Context) (store.WatchEvent, error) {
	if len(w.snapshot) > 0 {
		event := w.snapshot[0]
		w.snapshot = w.snapshot[1:]
		return event, nil
	}
	return w.receive(ctx)
}

// receive waits for the next event; ctx ending abandons the wait but not
// the stream.
func (w *watch) receive(ctx context.Context) (store.WatchEvent, error) {
	type received struct {
		event *pbresource.WatchEvent
		err   error
	}
	done := make(chan received, 1)
	go func() {
		event, err := w.stream.Recv()
		done <- received{event, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return store.WatchEvent{}, w.backend.fromStatus(r.err, nil)
		}
		return eventFromProto(r.event)
	case <-ctx.Done():
		// The pending Recv would race the next one; end the stream.
		w.Close()
		<-done
		return store.WatchEvent{}, ctx.Err()
	}
}

func eventFromProto(event *pbresource.WatchEvent) (store.WatchEvent, error) {
	switch {
	case event.GetUpsert() != nil:
		return store.WatchEvent{Kind: store.EventUpsert, Resource: event.GetUpsert().GetResource()}, nil
	case event.GetDelete() != nil:
		return store.WatchEvent{Kind: store.EventDelete, Resource: event.GetDelete().GetResource()}, nil
	case event.GetEndOfSnapshot() != nil:
		return store.WatchEvent{Kind: store.EventEndOfSnapshot}, nil
	default:
		return store.WatchEvent{}, fmt.Errorf("the store endpoint sent a watch event of no known kind: %v", event)
	}
}

// Close implements store.Watch.
func (w *watch) Close() {
	w.cancel()
	w.backend.mu.Lock()
	if w.backend.cancels != nil {
		delete(w.backend.cancels, w)
	}
	w.backend.mu.Unlock()
}
