package refactoring

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/states"
)

// loadConfig writes files (name → content) to a directory and loads it.
func loadConfig(t *testing.T, files map[string]string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, ds := config.LoadConfigDir(dir)
	if ds.HasErrors() {
		t.Fatalf("loading configuration: %s", ds.Error())
	}
	return cfg
}

func stateWith(t *testing.T, addrStrs ...string) *states.State {
	t.Helper()
	st := states.NewState()
	for _, s := range addrStrs {
		addr, ds := addrs.ParseAbsResourceInstanceStr(s)
		if ds.HasErrors() {
			t.Fatalf("bad address %q: %s", s, ds.Error())
		}
		provider := addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: addrs.NewDefaultProvider(addr.Resource.Resource.Type[:strings.Index(addr.Resource.Resource.Type, "_")])}
		st.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"` + s + `"}`), Status: states.ObjectReady}, provider)
	}
	return st
}

func addressesOf(st *states.State) []string {
	var out []string
	for _, e := range st.AllResourceInstances() {
		out = append(out, e.Addr.String()+"="+string(e.Instance.Current.AttrsJSON))
	}
	sort.Strings(out)
	return out
}

func TestApplyMoves(t *testing.T) {
	moduleFiles := map[string]string{"mod/main.tf": `resource "null_resource" "inner" {}`}
	tests := []struct {
		name   string
		config string
		state  []string
		want   []string // new address=old object
	}{
		{"rename a resource", `moved {
  from = null_resource.a
  to   = null_resource.b
}`, []string{"null_resource.a[0]", "null_resource.a[1]"},
			[]string{`null_resource.b[0]={"id":"null_resource.a[0]"}`, `null_resource.b[1]={"id":"null_resource.a[1]"}`}},
		{"no key to count index", `moved {
  from = null_resource.a
  to   = null_resource.a[0]
}`, []string{"null_resource.a"}, []string{`null_resource.a[0]={"id":"null_resource.a"}`}},
		{"count index to for_each key", `moved {
  from = null_resource.a[1]
  to   = null_resource.a["one"]
}`, []string{"null_resource.a[0]", "null_resource.a[1]"},
			[]string{`null_resource.a["one"]={"id":"null_resource.a[1]"}`, `null_resource.a[0]={"id":"null_resource.a[0]"}`}},
		{"chain in any order", `moved {
  from = null_resource.b
  to   = null_resource.c
}
moved {
  from = null_resource.a
  to   = null_resource.b
}`, []string{"null_resource.a"}, []string{`null_resource.c={"id":"null_resource.a"}`}},
		{"resource into a module", `moved {
  from = null_resource.inner
  to   = module.m.null_resource.inner
}
module "m" {
  source = "./mod"
}`, []string{"null_resource.inner"}, []string{`module.m.null_resource.inner={"id":"null_resource.inner"}`}},
		{"module call renamed, keys kept", `moved {
  from = module.old
  to   = module.m
}
module "m" {
  source = "./mod"
  count  = 2
}`, []string{"module.old[0].null_resource.inner", "module.old[1].null_resource.inner"},
			[]string{`module.m[0].null_resource.inner={"id":"module.old[0].null_resource.inner"}`, `module.m[1].null_resource.inner={"id":"module.old[1].null_resource.inner"}`}},
		{"module instance to keyed instance", `moved {
  from = module.m
  to   = module.m["a"]
}
module "m" {
  source   = "./mod"
  for_each = toset(["a"])
}`, []string{"module.m.null_resource.inner"}, []string{`module.m["a"].null_resource.inner={"id":"module.m.null_resource.inner"}`}},
		{"blocked by an existing object", `moved {
  from = null_resource.a
  to   = null_resource.b
}`, []string{"null_resource.a", "null_resource.b"},
			[]string{`null_resource.a={"id":"null_resource.a"}`, `null_resource.b={"id":"null_resource.b"}`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"main.tf": tc.config}
			for k, v := range moduleFiles {
				files[k] = v
			}
			stmts, ds := FindStatements(loadConfig(t, files))
			if ds.HasErrors() {
				t.Fatalf("statements: %s", ds.Error())
			}
			st := stateWith(t, tc.state...)
			results := ApplyMoves(stmts, st)
			if got := addressesOf(st); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("state after moves:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for to, m := range results.Moves {
				if m.To.String() != to || m.From.String() == to {
					t.Errorf("move recorded as %s → %s under %s", m.From, m.To, to)
				}
			}
			if strings.Contains(tc.name, "blocked") && len(results.Blocked) != 1 {
				t.Errorf("blocked moves = %d, want 1", len(results.Blocked))
			}
		})
	}
}

// TestValidateMovesRejects checks the statements as a plan does, with
// OpenTofu's messages.
func TestValidateMovesRejects(t *testing.T) {
	tests := []struct {
		name, config, want string
	}{
		{"ambiguous destination", `moved {
  from = null_resource.a
  to   = null_resource.b
}
moved {
  from = null_resource.a
  to   = null_resource.c
}`, "Each resource can move to only one destination resource."},
		{"ambiguous source", `moved {
  from = null_resource.a
  to   = null_resource.c
}
moved {
  from = null_resource.b
  to   = null_resource.c
}`, "Each resource can have moved from only one source resource."},
		{"cycle", `moved {
  from = null_resource.a
  to   = null_resource.b
}
moved {
  from = null_resource.b
  to   = null_resource.a
}`, "form a cycle, and so there is no final location"},
		{"source still declared", `resource "null_resource" "a" {}
moved {
  from = null_resource.a
  to   = null_resource.b
}`, "that resource is still declared at "},
		{"data source", `moved {
  from = data.null_data_source.a
  to   = data.null_data_source.b
}`, "data source"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, map[string]string{"main.tf": tc.config})
			stmts, ds := FindStatements(cfg)
			if !ds.HasErrors() {
				ds = ValidateMoves(cfg, stmts)
			}
			if !ds.HasErrors() || !strings.Contains(ds.Error(), tc.want) {
				t.Fatalf("diagnostics %v, want an error containing %q", ds, tc.want)
			}
		})
	}
}

func TestCountIndexStillDeclaredOnlyWithCount(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `resource "null_resource" "a" {
  for_each = toset(["x"])
}
moved {
  from = null_resource.a[0]
  to   = null_resource.a["x"]
}`})
	stmts, ds := FindStatements(cfg)
	if ds.HasErrors() || len(stmts) != 1 {
		t.Fatalf("count index of a for_each resource: %v, %d statements; want one valid statement", ds, len(stmts))
	}
}
