package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/builtin/remotestate"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store/sqlite"
	"github.com/terrane/terrane/internal/testing/providertest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	plugin.KillAll()
	os.Exit(code)
}

// harness is a workspace in a real SQLite store with the test providers.
type harness struct {
	t         testing.TB
	store     *recordstore.Store
	factories map[addrs.Provider]providers.Factory
	cloud     string
	dir       string
	runs      int // run IDs are unique per engine, as in real use
	// remoteState is what terraform_remote_state reads through.
	remoteState *remotestate.DataSource
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	mirror := providertest.Build(t)
	backend, err := sqlite.Open(filepath.Join(t.TempDir(), "state.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = backend.Close() })
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, store: recordstore.New(resourceservice.New(backend, registry), "proj", "default"),
		factories: map[addrs.Provider]providers.Factory{}, cloud: t.TempDir(), dir: t.TempDir()}
	schemas := plugin.NewSchemaStore(t.TempDir())
	for _, typ := range mirror.Types() {
		provider, err := addrs.ParseProviderSource(mirror.Source(typ))
		if err != nil {
			t.Fatal(err)
		}
		path := mirror.Executable(typ)
		h.factories[provider] = func(ctx context.Context) (providers.Interface, error) {
			return plugin.Launch(ctx, plugin.Config{Provider: provider, Path: path, Schemas: schemas, Logger: hclog.NewNullLogger()})
		}
	}
	return h
}

// writeConfig replaces the configuration with files (name → content).
func (h *harness) writeConfig(files map[string]string) {
	h.t.Helper()
	entries, _ := os.ReadDir(h.dir)
	for _, e := range entries {
		_ = os.RemoveAll(filepath.Join(h.dir, e.Name()))
	}
	for name, content := range files {
		path := filepath.Join(h.dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			h.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			h.t.Fatal(err)
		}
	}
}

func (h *harness) engine(vars InputValues) *Engine {
	h.t.Helper()
	cfg, ds := config.LoadConfigDir(h.dir)
	if ds.HasErrors() {
		h.t.Fatalf("loading config: %s", ds.Error())
	}
	h.runs++
	e, eds := New(Options{Config: cfg, Providers: h.factories, State: h.store, Variables: vars, RunID: fmt.Sprintf("run-%d", h.runs), RemoteState: h.remoteState})
	if eds.HasErrors() {
		h.t.Fatal(eds.Err())
	}
	h.t.Cleanup(func() { _ = e.Close() })
	return e
}

func (h *harness) plan(opts PlanOpts) *plans.Plan {
	h.t.Helper()
	e := h.engine(nil)
	plan, ds := e.Plan(h.t.Context(), opts)
	if ds.HasErrors() {
		h.t.Fatalf("plan: %s", ds.Err())
	}
	return plan
}

func (h *harness) apply(plan *plans.Plan) {
	h.t.Helper()
	if ds := h.engine(nil).Apply(h.t.Context(), plan); ds.HasErrors() {
		h.t.Fatalf("apply: %s", ds.Err())
	}
}

// actions summarises a plan's resource changes as address → action.
func actions(plan *plans.Plan) map[string]plans.Action {
	out := map[string]plans.Action{}
	for _, c := range plan.Changes.Resources {
		out[c.ObjectName()] = c.Action
	}
	return out
}

func (h *harness) instances() []string {
	h.t.Helper()
	snap, err := h.store.Load(h.t.Context())
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, e := range snap.State.AllResourceInstances() {
		out = append(out, e.Addr.String())
	}
	return out
}
