package storeconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/config"
)

func block(t *testing.T, backendType, body string) *config.Backend {
	t.Helper()
	file, diags := hclsyntax.ParseConfig([]byte(body), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return &config.Backend{Type: backendType, Config: file.Body}
}

func TestDecodeBlock(t *testing.T) {
	tests := []struct {
		name, body string
		want       Settings
		kind       Kind
		err        string
	}{
		{name: "empty is the embedded store", body: ``, kind: Embedded},
		{name: "embedded file", body: `path = "state/shared.db"`, want: Settings{Path: "state/shared.db"}, kind: Embedded},
		{name: "etcd", body: "endpoints = [\"https://e1:2379\", \"e2:2379\"]\nca_file = \"ca.pem\"\nusername = \"u\"",
			want: Settings{Endpoints: []string{"https://e1:2379", "e2:2379"}, CAFile: "ca.pem", Username: "u"}, kind: Etcd},
		{name: "serve", body: `address = "https://state.example.com:8502"`, want: Settings{Address: "https://state.example.com:8502"}, kind: Serve},
		{name: "both stores", body: "endpoints = [\"e:2379\"]\naddress = \"s:8502\"", err: "both endpoints"},
		{name: "argument of another store", body: "address = \"s:8502\"\nusername = \"u\"", err: "username does not apply to a terrane serve endpoint"},
		{name: "certificate without key", body: "endpoints = [\"e:2379\"]\ncert_file = \"c.pem\"", err: "cert_file and key_file must be given together"},
		{name: "bad scheme", body: `address = "grpc://s:8502"`, err: "scheme must be"},
		{name: "no port", body: `address = "s"`, err: "not HOST:PORT"},
		{name: "unknown argument", body: `bucket = "b"`, err: "Unsupported argument"},
		{name: "not a constant", body: `address = var.address`, err: "Variables not allowed"},
		{name: "wrong type", body: `endpoints = "e:2379"`, err: "must be a list of strings"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ds := DecodeBlock(block(t, BackendType, tc.body))
			if tc.err != "" {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tc.err) {
					t.Fatalf("want an error containing %q, got %v", tc.err, ds)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if !sameBlock(got, &tc.want) {
				t.Errorf("got %+v, want %+v", *got, tc.want)
			}
			if got.Kind() != tc.kind {
				t.Errorf("kind %s, want %s", got.Kind(), tc.kind)
			}
		})
	}
	if got, ds := DecodeBlock(block(t, "s3", `bucket = "b"`)); got != nil || ds.HasErrors() {
		t.Errorf("another backend type names no Terrane store: got %+v, %v", got, ds)
	}
}

func TestOverridesAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "backend.hcl")
	if err := os.WriteFile(file, []byte("address = \"from-file:8502\"\nca_file = \"ca.pem\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, ds := DecodeOverrides([]string{file, "address=from-flag:8502", "token=t1"})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if want := (Settings{Address: "from-flag:8502", CAFile: "ca.pem", Token: "t1"}); !sameBlock(&got, &want) {
		t.Errorf("later -backend-config options override earlier ones: got %+v", got)
	}
	got, ds = DecodeOverrides([]string{`endpoints=["a:1", "b:2"]`})
	if ds.HasErrors() || strings.Join(got.Endpoints, " ") != "a:1 b:2" {
		t.Errorf("HCL list: %+v %v", got, ds)
	}
	got, _ = DecodeOverrides([]string{"endpoints=a:1,b:2"})
	if strings.Join(got.Endpoints, " ") != "a:1 b:2" {
		t.Errorf("comma-separated list: %+v", got)
	}
	if _, ds := DecodeOverrides([]string{"bucket=b"}); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), `no argument "bucket"`) {
		t.Errorf("unknown key: %v", ds)
	}
	if _, ds := DecodeOverrides([]string{filepath.Join(dir, "missing.hcl")}); !ds.HasErrors() {
		t.Error("a missing file is an error")
	}

	env, ds := FromEnvironment([]string{"TERRANE_BACKEND_ENDPOINTS=a:1, b:2", "TERRANE_BACKEND_PASSWORD=pw", "OTHER=x"})
	if ds.HasErrors() || strings.Join(env.Endpoints, " ") != "a:1 b:2" || env.Password != "pw" {
		t.Errorf("environment: %+v %v", env, ds)
	}
	if _, ds := FromEnvironment([]string{"TERRANE_BACKEND_ADRESS=x:1"}); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "TERRANE_BACKEND_ADRESS") {
		t.Errorf("a misspelt variable must be reported, got %v", ds)
	}
}

func TestForInitPrecedenceAndRecord(t *testing.T) {
	dir := t.TempDir()
	b := block(t, BackendType, "address = \"from-block:8502\"\nca_file = \"ca.pem\"")
	environ := []string{"TERRANE_BACKEND_ADDRESS=from-env:8502", "TERRANE_BACKEND_TOKEN=env-token"}
	choice, ds := ForInit(dir, b, nil, environ)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if choice.New.Address != "from-env:8502" || choice.New.Token != "env-token" || choice.New.CAFile != "ca.pem" {
		t.Errorf("the environment overrides the block: %+v", choice.New)
	}
	if choice.Record.Backend.Config.Token != "" {
		t.Error("a token from the environment must not be written to the working directory")
	}
	if choice.Recorded || !choice.Changed(dir) {
		t.Errorf("first init: recorded %v, changed %v", choice.Recorded, choice.Changed(dir))
	}
	choice, ds = ForInit(dir, b, []string{"address=from-flag:8502", "token=flag-token"}, environ)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if choice.New.Address != "from-flag:8502" || choice.Record.Backend.Config.Token != "flag-token" {
		t.Errorf("-backend-config overrides the environment and is recorded as given: %+v / %+v", choice.New, choice.Record.Backend.Config)
	}
	if _, ds := ForInit(dir, nil, []string{"address=x:1"}, nil); !ds.HasErrors() {
		t.Error("-backend-config without a backend \"terrane\" block must be refused")
	}
}

func TestForCommand(t *testing.T) {
	dir := t.TempDir()
	etcdBlock := block(t, BackendType, `endpoints = ["e1:2379"]`)

	// Never initialized, nothing configured: the embedded default.
	got, ds := ForCommand(dir, nil, nil)
	if ds.HasErrors() || got.Kind() != Embedded {
		t.Fatalf("default: %+v %v", got, ds)
	}
	if _, ds := ForCommand(dir, etcdBlock, nil); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), `Initial configuration of the requested backend "terrane"`) {
		t.Errorf("a new block needs init, got %v", ds)
	}
	// A directory that never kept state may use what the environment
	// names without init; one with an embedded store must not leave it.
	serveEnv := []string{"TERRANE_BACKEND_ADDRESS=s:8502"}
	if got, ds := ForCommand(dir, nil, serveEnv); ds.HasErrors() || got.Address != "s:8502" {
		t.Errorf("environment only, no local state: %+v %v", got, ds)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".terrane"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, DefaultPath), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ds := ForCommand(dir, nil, serveEnv); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "TERRANE_BACKEND_ADDRESS names the terrane serve endpoint s:8502, but this working directory keeps its state in the embedded store") {
		t.Errorf("environment only, local state: want init required, got %v", ds)
	}

	choice, ds := ForInit(dir, etcdBlock, []string{"password=secret"}, []string{"TERRANE_BACKEND_USERNAME=u"})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if err := WriteRecord(dir, &choice.Record); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(RecordPath(dir)); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("record file mode: %v %v", info.Mode(), err)
	}
	got, ds = ForCommand(dir, etcdBlock, []string{"TERRANE_BACKEND_PASSWORD=from-env", "TERRANE_BACKEND_CA_FILE=ca.pem"})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if got.Password != "from-env" || got.CAFile != "ca.pem" || got.Username != "u" {
		t.Errorf("credentials from the environment apply on every run: %+v", got)
	}
	for name, tc := range map[string]struct {
		block   *config.Backend
		environ []string
		reason  string
	}{
		"block changed":     {block: block(t, BackendType, `endpoints = ["e2:2379"]`), reason: "Backend configuration block has changed"},
		"block removed":     {reason: `Unsetting the previously set backend "terrane"`},
		"env names another": {block: etcdBlock, environ: []string{"TERRANE_BACKEND_ENDPOINTS=e3:2379"}, reason: "but this working directory was initialized for the etcd cluster at e1:2379"},
	} {
		if _, ds := ForCommand(dir, tc.block, tc.environ); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tc.reason) {
			t.Errorf("%s: want %q, got %v", name, tc.reason, ds)
		}
	}
}

func TestIdentity(t *testing.T) {
	dir := t.TempDir()
	same := [][2]Settings{
		{{}, {Path: DefaultPath}},
		{{Path: "x.db"}, {Path: filepath.Join(dir, "x.db")}},
		{{Endpoints: []string{"https://B:2379", "a:2379"}}, {Endpoints: []string{"a:2379", "b:2379"}, Password: "p"}},
		{{Endpoints: []string{"a:2379"}}, {Endpoints: []string{"a:2379"}, Prefix: DefaultPrefix}},
		{{Address: "https://s:8502"}, {Address: "s:8502", Token: "t"}},
	}
	for _, pair := range same {
		if pair[0].Identity(dir) != pair[1].Identity(dir) {
			t.Errorf("%+v and %+v are the same store: %q vs %q", pair[0], pair[1], pair[0].Identity(dir), pair[1].Identity(dir))
		}
	}
	different := [][2]Settings{
		{{}, {Path: "other.db"}},
		{{Endpoints: []string{"a:2379"}}, {Endpoints: []string{"a:2379"}, Prefix: "/team-b/"}},
		{{Address: "s:8502"}, {Address: "s:8503"}},
	}
	for _, pair := range different {
		if pair[0].Identity(dir) == pair[1].Identity(dir) {
			t.Errorf("%+v and %+v are different stores", pair[0], pair[1])
		}
	}
}
