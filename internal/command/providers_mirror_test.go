package command

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// TestProvidersMirrorLayout mirrors a provider as providers mirror does:
// the command mirrors from the origin registries, which a test cannot
// reach; the same work from the built test providers shows the packed
// layout and the network mirror's index files. (e2etest locks a provider
// from such a mirror and initializes a project from it.)
func TestProvidersMirrorLayout(t *testing.T) {
	t.Parallel()
	built := providertest.Build(t)
	mirrorDir := filepath.Join(t.TempDir(), "mirror")
	platform := discovery.CurrentPlatform().String()

	var out, errOut strings.Builder
	job, closeView, _ := newProviderJob(views.Streams{Stdout: &out, Stderr: &errOut}, arguments.OutputView{NoColor: true}, arguments.ProviderJob{})
	defer closeView()
	if ds := job.parsePlatforms(nil); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	// What load finds in a working directory whose configuration requires
	// tpf "~> 0.1", with no lock file and an empty CLI configuration.
	tpf, err := addrs.ParseProviderSource(built.Source("tpf"))
	if err != nil {
		t.Fatal(err)
	}
	constraints, err := discovery.ParseConstraints("~> 0.1")
	if err != nil {
		t.Fatal(err)
	}
	job.requirements = map[addrs.Provider]discovery.Constraints{tpf: constraints}
	job.locks = depsfile.NewLocks()
	cli, ds := cliconfig.Load(cliconfig.Environment{HomeDir: t.TempDir(), Getenv: func(string) string { return "" }})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	job.cli = cli
	if ds := job.mirror(context.Background(), discovery.NewFilesystemMirror(built.Dir), mirrorDir); ds.HasErrors() {
		t.Fatalf("mirroring: %v\n%s", ds.Err(), out.String())
	}
	if want := "- Mirroring registry.terraform.io/terrane/tpf...\n  - Selected v0.1.0 to meet constraints ~> 0.1\n  - Downloading package for " + platform + "...\n"; out.String() != want {
		t.Errorf("mirror printed\n%s\nwant\n%s", out.String(), want)
	}
	typeDir := filepath.Join(mirrorDir, "registry.terraform.io", "terrane", "tpf")
	archive := filepath.Join(typeDir, "terraform-provider-tpf_0.1.0_"+platform+".zip")
	wantH1, err := discovery.PackageHashV1(discovery.PackageLocalDir(filepath.Dir(built.Executable("tpf"))))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := discovery.PackageHashV1(discovery.PackageLocalArchive(archive)); err != nil || got != wantH1 {
		t.Fatalf("mirrored zip has h1 %s (%v), want the package's %s", got, err, wantH1)
	}
	var versionDoc struct {
		Archives map[string]struct {
			URL    string   `json:"url"`
			Hashes []string `json:"hashes"`
		} `json:"archives"`
	}
	readJSONFile(t, filepath.Join(typeDir, "0.1.0.json"), &versionDoc)
	entry := versionDoc.Archives[platform]
	if entry.URL != filepath.Base(archive) || !slices.Contains(entry.Hashes, string(wantH1)) {
		t.Errorf("0.1.0.json lists %+v for %s, want the zip and its h1 hash", entry, platform)
	}
	var index struct {
		Versions map[string]any `json:"versions"`
	}
	readJSONFile(t, filepath.Join(typeDir, "index.json"), &index)
	if _, listed := index.Versions["0.1.0"]; !listed {
		t.Errorf("index.json lists %v, want 0.1.0", index.Versions)
	}
}

func readJSONFile(t *testing.T, path string, into any) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(src, into); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
