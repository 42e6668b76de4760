package eventqueue

import (
	"context"
	"sync"

	"github.com/terrane/terrane/internal/store"
)

// Queue is a store.Watch fed by Push. Events are delivered in the order they
// were pushed; memory grows with the backlog of a slow reader, which is the
// price of never dropping an event.
type Queue struct {
	mu      sync.Mutex
	events  []store.WatchEvent
	err     error
	wake    chan struct{}
	onClose func()
	once    sync.Once
}

// New returns an empty queue. onClose, if not nil, runs once when the
// watcher calls Close, so the producer can stop feeding it.
func New(onClose func()) *Queue {
	return &Queue{wake: make(chan struct{}, 1), onClose: onClose}
}

// Push appends events. It never blocks. Events pushed after Fail are dropped.
func (q *Queue) Push(events ...store.WatchEvent) {
	q.mu.Lock()
	if q.err == nil {
		q.events = append(q.events, events...)
	}
	q.mu.Unlock()
	q.signal()
}

// Fail ends the queue: Next returns err at once, discarding any backlog, so a
// closed backend or a broken stream is reported without delay.
func (q *Queue) Fail(err error) {
	q.mu.Lock()
	if q.err == nil {
		q.err = err
		q.events = nil
	}
	q.mu.Unlock()
	q.signal()
}

func (q *Queue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Next returns the oldest undelivered event, waiting for one if needed.
func (q *Queue) Next(ctx context.Context) (store.WatchEvent, error) {
	for {
		q.mu.Lock()
		if q.err != nil {
			err := q.err
			q.mu.Unlock()
			return store.WatchEvent{}, err
		}
		if len(q.events) > 0 {
			ev := q.events[0]
			q.events[0] = store.WatchEvent{}
			q.events = q.events[1:]
			q.mu.Unlock()
			return ev, nil
		}
		q.mu.Unlock()
		select {
		case <-q.wake:
		case <-ctx.Done():
			return store.WatchEvent{}, ctx.Err()
		}
	}
}

// Close ends the watch; later calls to Next return store.ErrClosed.
func (q *Queue) Close() {
	q.Fail(store.ErrClosed)
	q.once.Do(func() {
		if q.onClose != nil {
			q.onClose()
		}
	})
}
