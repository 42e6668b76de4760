package journal

import (
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/sqlite"
)

// openStore opens (or reopens) the workspace "default" of project "test" in
// the SQLite database at path, closing it when the test ends.
func openStore(t testing.TB, path string) *recordstore.Store {
	t.Helper()
	backend, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return storeOn(t, backend)
}

// storeOn returns workspace "default" of project "test" in backend, which
// is closed when the test ends.
func storeOn(t testing.TB, backend store.Backend) *recordstore.Store {
	t.Helper()
	t.Cleanup(func() { _ = backend.Close() })
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		t.Fatal(err)
	}
	st := recordstore.New(resourceservice.New(backend, registry), "test", "default")
	if _, err := st.EnsureWorkspace(t.Context()); err != nil {
		t.Fatal(err)
	}
	return st
}

func newStorePath(t testing.TB) string {
	return filepath.Join(t.TempDir(), "state.db")
}

func mustAddr(t testing.TB, str string) addrs.AbsResourceInstance {
	t.Helper()
	addr, diags := addrs.ParseAbsResourceInstanceStr(str)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return addr
}

var testProviderConfig = addrs.AbsProviderConfig{
	Provider: addrs.Provider{Hostname: "registry.terraform.io", Namespace: "terrane", Type: "tpf"},
}

// plannedIntent is an intent announcing op with a small planned value.
func plannedIntent(t testing.TB, op states.IntentOperation, name string) *states.Intent {
	t.Helper()
	planned := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.UnknownVal(cty.String),
		"name": cty.StringVal(name),
	})
	raw, err := ctymsgpack.Marshal(planned, planned.Type())
	if err != nil {
		t.Fatal(err)
	}
	return &states.Intent{Operation: op, PlannedMsgpack: raw, PlannedType: planned.Type()}
}

// withObject is an instance whose current object has the given JSON
// attributes.
func withObject(attrsJSON string) *states.ResourceInstance {
	return &states.ResourceInstance{Current: &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(attrsJSON), Status: states.ObjectReady}}
}
