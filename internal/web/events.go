package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/terrane/terrane/internal/reconcile"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// heartbeat keeps idle event streams open through proxies.
const heartbeat = 15 * time.Second

// message is one server-sent event.
type message struct {
	event string
	data  any
}

// events answers GET /api/events with a stream of server-sent events:
// "record" for every Workspace and ResourceInstance record the token may
// see (a snapshot, then each change as WatchList reports it), "ready"
// once the snapshots are in, "reports" with the reconciler's view of its
// workspaces, and "run" for each step of a reconciler run.
func (s *Server) events(w http.ResponseWriter, r *http.Request, grant resourceservice.Grant) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming is not supported by this connection", http.StatusInternalServerError)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	tenancy := &pbresource.Tenancy{Partition: grant.Partition, Namespace: grant.Namespace}
	out := make(chan message, 256)
	var wg sync.WaitGroup
	defer wg.Wait() // every sender has stopped before out is abandoned
	defer cancel()
	var snapshots sync.WaitGroup
	for _, resType := range []*pbresource.Type{records.WorkspaceType, records.ResourceInstanceType} {
		watch, err := s.service.WatchList(ctx, resType, tenancy, "")
		if err != nil {
			http.Error(w, fmt.Sprintf("watching %s records: %v", resType.GetKind(), err), http.StatusServiceUnavailable)
			return
		}
		snapshots.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer watch.Close()
			forwardWatch(ctx, watch, out, snapshots.Done)
		}()
	}
	if s.reconciler != nil {
		events, unsubscribe := s.reconciler.Subscribe()
		defer unsubscribe()
		send(ctx, out, message{"reports", s.visibleReports(grant)})
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.forwardRuns(ctx, grant, events, out)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		snapshots.Wait()
		send(ctx, out, message{"ready", map[string]bool{"reconciler": s.reconciler != nil}})
	}()

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher.Flush()
	ticker := time.NewTicker(heartbeat)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			if _, err := fmt.Fprint(w, ": heartbeat\n\n"); err != nil {
				return
			}
		case m := <-out:
			if err := writeEvent(w, m); err != nil {
				return
			}
		}
		flusher.Flush()
	}
}

func writeEvent(w http.ResponseWriter, m message) error {
	data, err := json.Marshal(m.data)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", m.event, data)
	return err
}

func send(ctx context.Context, out chan<- message, m message) bool {
	select {
	case out <- m:
		return true
	case <-ctx.Done():
		return false
	}
}

// forwardWatch sends a watch's records until it ends, calling
// endOfSnapshot once when the snapshot is complete (or the watch ended).
func forwardWatch(ctx context.Context, watch store.Watch, out chan<- message, endOfSnapshot func()) {
	var once sync.Once
	defer once.Do(endOfSnapshot)
	for {
		event, err := watch.Next(ctx)
		if err != nil {
			if ctx.Err() == nil {
				send(ctx, out, message{"error", map[string]string{"message": "the store's watch ended: " + err.Error() + "; reload to reconnect"}})
			}
			return
		}
		if event.Kind == store.EventEndOfSnapshot {
			once.Do(endOfSnapshot)
			continue
		}
		if event.Resource != nil && !send(ctx, out, message{"record", newRecordJSON(event.Kind, event.Resource)}) {
			return
		}
	}
}

// reportJSON is a reconciler report as the page receives it.
type reportJSON struct {
	reconcile.Report
	DurationMS int64 `json:"duration_ms"`
	IntervalS  int64 `json:"interval_s"`
}

func (s *Server) visibleReports(grant resourceservice.Grant) []reportJSON {
	var out []reportJSON
	for _, report := range s.reconciler.Reports() {
		if grant.Allows(&pbresource.Tenancy{Partition: report.Project, Namespace: report.Workspace}) {
			out = append(out, newReportJSON(report))
		}
	}
	return out
}

func newReportJSON(report reconcile.Report) reportJSON {
	return reportJSON{Report: report, DurationMS: report.Duration.Milliseconds(), IntervalS: int64(report.Interval.Seconds())}
}

// runJSON is one reconciler event as the page receives it.
type runJSON struct {
	reconcile.Event
	Report *reportJSON `json:"Report,omitempty"`
}

func (s *Server) forwardRuns(ctx context.Context, grant resourceservice.Grant, events <-chan reconcile.Event, out chan<- message) {
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-events:
			if e.Kind == reconcile.EventMissed {
				send(ctx, out, message{"reports", s.visibleReports(grant)})
				continue
			}
			if !grant.Allows(&pbresource.Tenancy{Partition: e.Project, Namespace: e.Workspace}) {
				continue
			}
			view := runJSON{Event: e}
			if e.Report != nil {
				report := newReportJSON(*e.Report)
				view.Report = &report
			}
			if !send(ctx, out, message{"run", view}) {
				return
			}
		}
	}
}
