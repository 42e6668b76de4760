package web

import (
	"context"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/resourceservice/records/recordview"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// historyDepth is how many generations of a record the view keeps.
const historyDepth = 20

// generationJSON is one generation of a record's content.
type generationJSON struct {
	Generation string     `json:"generation"`
	ChangedAt  *time.Time `json:"changed_at,omitempty"`
	Deleted    bool       `json:"deleted,omitempty"`
	Data       any        `json:"data,omitempty"`
}

// history remembers the last generations of every resource instance
// record seen since serve started: the store keeps only the current one,
// so older generations are the ones this process watched go by.
type history struct {
	mu      sync.Mutex
	records map[string][]generationJSON
}

func newHistory() *history { return &history{records: map[string][]generationJSON{}} }

func historyKey(tenancy *pbresource.Tenancy, name string) string {
	return tenancy.GetPartition() + "/" + tenancy.GetNamespace() + "/" + name
}

// follow watches every resource instance record until ctx ends, starting
// the watch again when the store drops it.
func (h *history) follow(ctx context.Context, service *resourceservice.Service) error {
	for ctx.Err() == nil {
		watch, err := service.WatchList(ctx, records.ResourceInstanceType, &pbresource.Tenancy{Partition: store.Wildcard, Namespace: store.Wildcard}, "")
		if err == nil {
			err = h.consume(ctx, watch)
			watch.Close()
		}
		if ctx.Err() != nil {
			return nil
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	return nil
}

func (h *history) consume(ctx context.Context, watch store.Watch) error {
	for {
		event, err := watch.Next(ctx)
		if err != nil {
			return err
		}
		if event.Resource == nil {
			continue
		}
		h.add(event.Kind, event.Resource)
	}
}

func (h *history) add(kind store.EventKind, res *pbresource.Resource) {
	key := historyKey(res.GetId().GetTenancy(), res.GetId().GetName())
	h.mu.Lock()
	defer h.mu.Unlock()
	list := h.records[key]
	if kind == store.EventDelete {
		h.records[key] = trim(append(list, generationJSON{Generation: res.GetGeneration(), Deleted: true, ChangedAt: timePtr(time.Now())}))
		return
	}
	if n := len(list); n > 0 && list[n-1].Generation == res.GetGeneration() {
		return // a status write: same content
	}
	h.records[key] = trim(append(list, generationJSON{Generation: res.GetGeneration(), ChangedAt: generationTime(res.GetGeneration()), Data: recordview.Data(res)}))
}

func trim(list []generationJSON) []generationJSON {
	if len(list) > historyDepth {
		return append([]generationJSON(nil), list[len(list)-historyDepth:]...)
	}
	return list
}

// of returns a record's generations, newest first.
func (h *history) of(tenancy *pbresource.Tenancy, name string) []generationJSON {
	h.mu.Lock()
	defer h.mu.Unlock()
	list := h.records[historyKey(tenancy, name)]
	out := make([]generationJSON, len(list))
	for i, g := range list {
		out[len(list)-1-i] = g
	}
	return out
}

// generationTime is when a generation was made: Generation is a ULID, and
// seed 001 invites reading its timestamp as the modification time.
func generationTime(generation string) *time.Time {
	id, err := ulid.ParseStrict(generation)
	if err != nil {
		return nil
	}
	return timePtr(ulid.Time(id.Time()).UTC())
}

func timePtr(t time.Time) *time.Time { return &t }
