package eventqueue_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/eventqueue"
	"github.com/terrane/terrane/proto/pbresource"
)

func event(name string) store.WatchEvent {
	return store.WatchEvent{Kind: store.EventUpsert, Resource: &pbresource.Resource{Id: &pbresource.ID{Name: name}}}
}

func TestQueueDeliversInOrderWithoutBlockingProducers(t *testing.T) {
	q := eventqueue.New(nil)
	for i := range 10_000 { // far more than any channel buffer: Push must not block
		q.Push(event(string(rune('a' + i%26))))
	}
	ctx := context.Background()
	for i := range 10_000 {
		ev, err := q.Next(ctx)
		if err != nil || ev.Resource.GetId().GetName() != string(rune('a'+i%26)) {
			t.Fatalf("event %d: %v, %v", i, ev.Resource.GetId().GetName(), err)
		}
	}
}

func TestQueueWakesWaitingReader(t *testing.T) {
	q := eventqueue.New(nil)
	got := make(chan string)
	go func() {
		ev, _ := q.Next(context.Background())
		got <- ev.Resource.GetId().GetName()
	}()
	time.Sleep(20 * time.Millisecond)
	q.Push(event("late"))
	select {
	case name := <-got:
		if name != "late" {
			t.Fatalf("got %q", name)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("waiting reader not woken by Push")
	}
}

func TestQueueEnds(t *testing.T) {
	closed := 0
	q := eventqueue.New(func() { closed++ })
	q.Push(event("dropped"))
	q.Fail(store.ErrWatchExpired)
	if _, err := q.Next(context.Background()); !errors.Is(err, store.ErrWatchExpired) {
		t.Fatalf("after Fail: %v, want ErrWatchExpired at once", err)
	}
	q.Close()
	q.Close()
	if closed != 1 {
		t.Fatalf("onClose ran %d times, want once", closed)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := eventqueue.New(nil).Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Next with a cancelled context: %v", err)
	}
}
