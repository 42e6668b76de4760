package modules

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

// moduleFiles is a module package's files by path.
type moduleFiles map[string]string

// netModule is the registry module's content at a version: it calls a
// local module inside its own package.
func netModule(version string) moduleFiles {
	return moduleFiles{
		"main.tf":        fmt.Sprintf("output \"version\" {\n  value = %q\n}\n\nmodule \"inner\" {\n  source = \"./inner\"\n}\n", version),
		"inner/inner.tf": "output \"inner\" {\n  value = \"inside\"\n}\n",
	}
}

// testModuleRegistry serves the module registry protocol and archives on
// loopback TLS.
type testModuleRegistry struct {
	server    *httptest.Server
	mu        sync.Mutex
	versions  []string
	archives  map[string][]byte
	downloads atomic.Int32
}

func newTestModuleRegistry(t *testing.T, versions ...string) *testModuleRegistry {
	registry := &testModuleRegistry{archives: map[string][]byte{}}
	for _, version := range versions {
		registry.publish(t, version)
	}
	registry.server = httptest.NewTLSServer(http.HandlerFunc(registry.serve))
	t.Cleanup(registry.server.Close)
	return registry
}

func (r *testModuleRegistry) publish(t *testing.T, version string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.versions = append(r.versions, version)
	r.archives["net-"+version+".zip"] = zipFiles(t, netModule(version))
}

func (r *testModuleRegistry) host() string { return strings.TrimPrefix(r.server.URL, "https://") }

func (r *testModuleRegistry) network() *discovery.Network {
	return &discovery.Network{Client: r.server.Client(), RetryWait: 1}
}

func (r *testModuleRegistry) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	switch {
	case req.URL.Path == "/.well-known/terraform.json":
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"modules.v1": "/v1/modules/"})
	case len(parts) == 6 && parts[5] == "versions" && parts[2] == "acme" && parts[3] == "net":
		var list []map[string]string
		for _, version := range r.versions {
			list = append(list, map[string]string{"version": version})
		}
		json.NewEncoder(w).Encode(map[string]any{"modules": []any{map[string]any{"versions": list}}})
	case len(parts) == 7 && parts[6] == "download":
		w.Header().Set("X-Terraform-Get", "/archives/net-"+parts[5]+".zip")
		w.WriteHeader(http.StatusNoContent)
	case len(parts) == 2 && parts[0] == "archives" && r.archives[parts[1]] != nil:
		if strings.HasPrefix(parts[1], "net-") && req.Method == http.MethodGet {
			r.downloads.Add(1)
		}
		w.Write(r.archives[parts[1]])
	default:
		http.NotFound(w, req)
	}
}

func zipFiles(t *testing.T, files moduleFiles) []byte {
	var buf bytes.Buffer
	writer := zip.NewWriter(&buf)
	for _, name := range sortedNames(files) {
		w, err := writer.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[name]))
	}
	if err := writer.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tarGzFiles(t *testing.T, files moduleFiles) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	writer := tar.NewWriter(gz)
	for _, name := range sortedNames(files) {
		writer.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg})
		writer.Write([]byte(files[name]))
	}
	if err := writer.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

func sortedNames(files moduleFiles) []string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func writeFiles(t *testing.T, dir string, files moduleFiles) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gitRepository creates a repository holding a module, tagged v1, and
// returns its directory.
func gitRepository(t *testing.T, value string) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, moduleFiles{"modules/app/main.tf": fmt.Sprintf("output \"from_git\" {\n  value = %q\n}\n", value)})
	runGit(t, dir, "init", "-q")
	runGit(t, dir, "add", ".")
	runGit(t, dir, "commit", "-q", "-m", "module")
	runGit(t, dir, "tag", "v1")
	return dir
}

func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// rootConfig writes a root module calling a registry module, a git
// repository, an HTTP archive and a local module.
func rootConfig(t *testing.T, registry *testModuleRegistry, repo, netConstraint string) string {
	t.Helper()
	registry.mu.Lock()
	registry.archives["tools.tar.gz"] = tarGzFiles(t, moduleFiles{"tools.tf": "output \"from_archive\" {\n  value = \"unpacked\"\n}\n"})
	registry.mu.Unlock()
	root := t.TempDir()
	writeFiles(t, root, moduleFiles{
		"main.tf": fmt.Sprintf(`module "net" {
  source  = "%s/acme/net/aws"
  version = %q
}

module "app" {
  source = "git::file://%s//modules/app?ref=v1"
}

module "tools" {
  source = "%s/archives/tools.tar.gz"
}

module "local" {
  source = "./local"
}
`, registry.host(), netConstraint, filepath.ToSlash(repo), registry.server.URL),
		"local/local.tf": "output \"here\" {\n  value = \"local\"\n}\n",
	})
	return root
}

func install(t *testing.T, registry *testModuleRegistry, root string, upgrade bool) (*Manifest, []Event, diags.Diagnostics) {
	t.Helper()
	var events []Event
	installer := &Installer{Network: registry.network(), Upgrade: upgrade, Events: func(e Event) { events = append(events, e) }}
	manifest, ds := installer.Install(context.Background(), root)
	return manifest, events, ds
}

func TestInstallFromRegistryGitArchiveAndLocal(t *testing.T) {
	registry := newTestModuleRegistry(t, "1.0.0", "1.1.0", "2.0.0")
	root := rootConfig(t, registry, gitRepository(t, "from v1"), "~> 1.0")

	manifest, _, ds := install(t, registry, root, false)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	want := map[string]Record{
		"":          {Key: "", Dir: "."},
		"net":       {Key: "net", Version: "1.1.0", Dir: ".terrane/modules/net"},
		"net.inner": {Key: "net.inner", Source: "./inner", Dir: ".terrane/modules/net/inner"},
		"app":       {Key: "app", Dir: ".terrane/modules/app/modules/app"},
		"tools":     {Key: "tools", Dir: ".terrane/modules/tools"},
		"local":     {Key: "local", Source: "./local", Dir: "local"},
	}
	for key, record := range want {
		got := manifest.Records[key]
		if got.Dir != record.Dir || got.Version != record.Version || (record.Source != "" && got.Source != record.Source) {
			t.Errorf("manifest record %q = %+v, want %+v", key, got, record)
		}
	}

	// The configuration now loads with every module from its installed copy.
	cfg, hclDiags := LoadConfig(config.NewParser(), root)
	if hclDiags.HasErrors() {
		t.Fatal(hclDiags)
	}
	outputs := map[string]string{"net": "version", "net.inner": "inner", "app": "from_git", "tools": "from_archive", "local": "here"}
	for key, output := range outputs {
		child := cfg.Descendant(strings.Split(key, "."))
		if child == nil || child.Module.Outputs[output] == nil {
			t.Errorf("module %s was not loaded with its output %q", key, output)
		}
	}
	loaded, _ := LoadManifest(root)
	if len(loaded.Records) != len(manifest.Records) {
		t.Errorf("the saved manifest has %d records, want %d", len(loaded.Records), len(manifest.Records))
	}
}

func TestInstallReusesUnchangedAndUpgrades(t *testing.T) {
	registry := newTestModuleRegistry(t, "1.0.0", "1.1.0")
	root := rootConfig(t, registry, gitRepository(t, "v1"), "~> 1.0")
	if _, _, ds := install(t, registry, root, false); ds.HasErrors() {
		t.Fatal(ds)
	}

	registry.publish(t, "1.2.0")
	manifest, events, ds := install(t, registry, root, false)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if manifest.Records["net"].Version != "1.1.0" || registry.downloads.Load() != 1 {
		t.Errorf("second init installed net %s after %d downloads, want 1.1.0 kept without downloading", manifest.Records["net"].Version, registry.downloads.Load())
	}
	for _, event := range events {
		t.Errorf("second init installed %s again", event.Key)
	}

	manifest, _, ds = install(t, registry, root, true)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if manifest.Records["net"].Version != "1.2.0" {
		t.Errorf("upgrade installed net %s, want 1.2.0", manifest.Records["net"].Version)
	}
	content, err := os.ReadFile(filepath.Join(root, ".terrane", "modules", "net", "main.tf"))
	if err != nil || !strings.Contains(string(content), `"1.2.0"`) {
		t.Errorf("after upgrade net/main.tf = %q (%v), want version 1.2.0's", content, err)
	}
}

func TestInstallDiagnostics(t *testing.T) {
	registry := newTestModuleRegistry(t, "1.0.0", "1.1.0", "2.0.0")
	tests := []struct {
		name, source, version string
		want                  []string
	}{
		{"no matching version", registry.host() + "/acme/net/aws", "~> 3.0", []string{"No module version matches", "available versions: 1.0.0, 1.1.0, 2.0.0"}},
		{"unknown registry module", registry.host() + "/acme/absent/aws", "", []string{"Module registry lookup failed", "no module"}},
		{"s3", "s3::https://s3.amazonaws.com/bucket/module.zip", "", []string{"Amazon S3", "not supported"}},
		{"gcs", "gcs::https://www.googleapis.com/storage/v1/bucket/module", "", []string{"Google Cloud Storage", "not supported"}},
		{"version on git", "git::https://example.com/repo.git", "1.0.0", []string{"Invalid registry module source address", "invalid module registry hostname"}},
		{"missing archive", registry.server.URL + "/archives/absent.zip", "", []string{"Failed to download module"}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			root := t.TempDir()
			version := ""
			if test.version != "" {
				version = fmt.Sprintf("  version = %q\n", test.version)
			}
			writeFiles(t, root, moduleFiles{"main.tf": fmt.Sprintf("module \"m\" {\n  source = %q\n%s}\n", test.source, version)})
			_, _, ds := install(t, registry, root, false)
			if !ds.HasErrors() {
				t.Fatal("installation succeeded")
			}
			text := ds[0].Summary + ": " + ds[0].Detail
			for _, want := range test.want {
				if !strings.Contains(text, want) {
					t.Errorf("diagnostic %q lacks %q", text, want)
				}
			}
			if ds[0].Subject == nil || !strings.HasSuffix(ds[0].Subject.Filename, "main.tf") {
				t.Errorf("diagnostic has subject %v, want the module block in main.tf", ds[0].Subject)
			}
		})
	}
}

func TestParseSource(t *testing.T) {
	tests := []struct {
		raw    string
		kind   SourceKind
		host   string
		remote string
		subdir string
	}{
		{"./network", SourceLocal, "", "", ""},
		{"hashicorp/consul/aws", SourceRegistry, "registry.opentofu.org", "", ""},
		{"registry.terraform.io/hashicorp/consul/aws//modules/agent", SourceRegistry, "registry.terraform.io", "", "modules/agent"},
		{"github.com/org/repo", SourceRemote, "", "github.com/org/repo", ""},
		{"git::https://example.com/repo.git//sub?ref=v1.2.0", SourceRemote, "", "git::https://example.com/repo.git?ref=v1.2.0", "sub"},
		{"https://example.com/module.zip", SourceRemote, "", "https://example.com/module.zip", ""},
	}
	for _, test := range tests {
		source, err := ParseSource(test.raw)
		if err != nil {
			t.Errorf("%s: %v", test.raw, err)
			continue
		}
		if source.Kind != test.kind || source.Remote != test.remote || source.Subdir != test.subdir ||
			(test.host != "" && source.Registry.Package.Host.String() != test.host) {
			t.Errorf("%s parsed as %+v", test.raw, source)
		}
	}
}
