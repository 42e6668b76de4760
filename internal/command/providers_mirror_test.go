package command

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/testing/providertest"
)

const mirrorConfig = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf", version = "~> 0.1" }
  }
}
`

// TestProvidersMirrorLockAndInit mirrors a provider, locks it from the
// mirror, and initializes a working directory from nothing but the mirror
// and the lock file.
func TestProvidersMirrorLockAndInit(t *testing.T) {
	built := providertest.Build(t)
	project := useMirror(t, built.Dir, mirrorConfig)
	mirrorDir := filepath.Join(filepath.Dir(project), "mirror")
	platform := discovery.CurrentPlatform().String()

	// The command mirrors from the origin registries, which a test cannot
	// reach; the same work from the built mirror shows the layout.
	var out, errOut strings.Builder
	job, closeView, _ := newProviderJob(views.Streams{Stdout: &out, Stderr: &errOut}, arguments.OutputView{NoColor: true}, arguments.ProviderJob{})
	defer closeView()
	if ds := job.parsePlatforms(nil).Append(job.load(nil)); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
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

	stdout, stderr, code := runCommand(t, "providers", "lock", "-fs-mirror="+mirrorDir, "-platform="+platform)
	if code != 0 || !strings.Contains(stdout, "Success!") {
		t.Fatalf("providers lock exited %d\n%s\n%s", code, stdout, stderr)
	}
	locks, _ := readLocks(t)
	lock := locks.Provider(mustProvider(t, built.Source("tpf")))
	wantZip, _ := discovery.PackageHashZip(discovery.PackageLocalArchive(archive))
	if lock == nil || lock.Version().String() != "0.1.0" || !lock.ContainsAll([]discovery.Hash{wantH1}) {
		t.Fatalf("lock file entry %v, want 0.1.0 with %s", lock, wantH1)
	}
	if lock.ContainsAll([]discovery.Hash{wantZip}) {
		// As OpenTofu, a package from a filesystem mirror brings only the
		// hash of what was installed.
		t.Errorf("lock file entry %v has the zip's own hash %s", lock, wantZip)
	}

	// Only the mirror is configured now; init installs from it and the
	// package matches the lock file's hashes.
	rc := filepath.Join(filepath.Dir(project), "terraformrc")
	writeFile(t, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirrorDir+"\"\n  }\n}\n")
	runInitOK(t, "-input=false")
	installed := filepath.Join(".terrane", "providers", "registry.terraform.io", "terrane", "tpf", "0.1.0", platform)
	if _, err := discovery.FindExecutable(installed, "tpf"); err != nil {
		t.Errorf("init from the mirror: %v", err)
	}
}

func TestProvidersLockReportsMissingPlatforms(t *testing.T) {
	built := providertest.Build(t)
	useMirror(t, built.Dir, mirrorConfig)
	_, errOut, code := runCommand(t, "providers", "lock", "-no-color", "-fs-mirror="+built.Dir, "-platform=plan9_mips")
	if code == 0 {
		t.Fatal("locking for a platform nobody builds succeeded")
	}
	for _, want := range []string{"Could not retrieve providers for locking", "for plan9_mips", discovery.CurrentPlatform().String()} {
		if !strings.Contains(unwrapped(errOut), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if _, err := os.Stat(".terraform.lock.hcl"); err == nil {
		t.Error("a failed providers lock wrote the lock file")
	}
	_, errOut, code = runCommand(t, "providers", "lock", "-no-color", "-platform=linux")
	if code == 0 || !strings.Contains(errOut, "Invalid target platform") {
		t.Errorf("a malformed -platform gave exit %d:\n%s", code, errOut)
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
