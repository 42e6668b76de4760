package web

import (
	"context"
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"strings"

	"github.com/terrane/terrane/internal/reconcile"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/proto/pbresource"
)

// dist holds the page as web/'s build writes it (scripts/build-web.sh).
//
//go:embed dist
var dist embed.FS

// Options are what a Server shows.
type Options struct {
	Service *resourceservice.Service
	// Tokens are the gRPC service's tokens; nil or empty lets everyone in,
	// as it does there.
	Tokens *resourceservice.Tokens
	// Reconciler, when serve runs one, adds its workspaces and runs.
	Reconciler *reconcile.Reconciler
}

// Server is the web view's HTTP handler.
type Server struct {
	service    *resourceservice.Service
	tokens     *resourceservice.Tokens
	reconciler *reconcile.Reconciler
	history    *history
	assets     fs.FS
	mux        *http.ServeMux
}

// New returns a server; call Run to keep the generation history it serves.
func New(opts Options) *Server {
	assets, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is part of the binary: this cannot fail
	}
	s := &Server{service: opts.Service, tokens: opts.Tokens, reconciler: opts.Reconciler, history: newHistory(), assets: assets, mux: http.NewServeMux()}
	s.mux.Handle("GET /api/events", s.withAuth(s.events))
	s.mux.Handle("GET /api/history", s.withAuth(s.historyOf))
	s.mux.Handle("POST /api/refresh", s.withAuth(s.refresh))
	s.mux.Handle("GET /", s.withAuth(s.page))
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:")
	s.mux.ServeHTTP(w, r)
}

// Run keeps the generation history of every record until ctx ends.
func (s *Server) Run(ctx context.Context) error {
	return s.history.follow(ctx, s.service)
}

// page serves the built files; any other path is the page itself, which
// routes on the client.
func (s *Server) page(w http.ResponseWriter, r *http.Request, _ resourceservice.Grant) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	if name == "" {
		name = "index.html"
	}
	if _, err := fs.Stat(s.assets, name); err != nil {
		name = "index.html"
	}
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeFileFS(w, r, s.assets, name)
}

// historyOf answers GET /api/history?project=P&workspace=W&name=ADDR.
func (s *Server) historyOf(w http.ResponseWriter, r *http.Request, grant resourceservice.Grant) {
	q := r.URL.Query()
	tenancy := &pbresource.Tenancy{Partition: q.Get("project"), Namespace: q.Get("workspace")}
	if !grant.Allows(tenancy) {
		http.Error(w, "the token does not grant access to this workspace", http.StatusForbidden)
		return
	}
	writeJSON(w, s.history.of(tenancy, q.Get("name")))
}

// refresh answers POST /api/refresh?name=REGISTRATION: a refresh run as
// soon as possible.
func (s *Server) refresh(w http.ResponseWriter, r *http.Request, grant resourceservice.Grant) {
	if s.reconciler == nil {
		http.Error(w, "this serve runs no reconciler (start it with -reconcile FILE)", http.StatusNotFound)
		return
	}
	name := r.URL.Query().Get("name")
	for _, report := range s.reconciler.Reports() {
		if report.Name != name {
			continue
		}
		if !grant.Allows(&pbresource.Tenancy{Partition: report.Project, Namespace: report.Workspace}) {
			break
		}
		if err := s.reconciler.Trigger(name); err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	http.Error(w, "no workspace named "+name+" is registered", http.StatusNotFound)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
