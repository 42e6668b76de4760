package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/providertest"
)

const mirrorConfig = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf", version = "~> 0.1" }
  }
}
`

// TestProvidersLockAndInitFromPackedMirror locks a provider from a mirror
// in the packed layout, with the index files providers mirror writes (its
// own test in package command shows it writes this layout), and
// initializes a project from nothing but the mirror and the lock file.
func TestProvidersLockAndInitFromPackedMirror(t *testing.T) {
	t.Parallel()
	built := providertest.Build(t)
	p := newMirrorProject(t, built.Dir, mirrorConfig)
	mirrorDir := zipMirror(t, built, "tpf")
	if err := discovery.UpdateMirrorIndexes(mirrorDir); err != nil {
		t.Fatal(err)
	}
	platform := discovery.CurrentPlatform().String()
	archive := filepath.Join(mirrorDir, "registry.terraform.io", "terrane", "tpf", "terraform-provider-tpf_0.1.0_"+platform+".zip")
	wantH1, err := discovery.PackageHashV1(discovery.PackageLocalDir(filepath.Dir(built.Executable("tpf"))))
	if err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := p.run("providers", "lock", "-fs-mirror="+mirrorDir, "-platform="+platform)
	if code != 0 || !strings.Contains(stdout, "Success!") {
		t.Fatalf("providers lock exited %d\n%s\n%s", code, stdout, stderr)
	}
	locks, _ := p.readLocks()
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
	rc := p.getenv("TERRANE_CLI_CONFIG_FILE")
	clitest.WriteFile(t, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirrorDir+"\"\n  }\n}\n")
	p.runInitOK("-input=false")
	installed := filepath.Join(p.dir, ".terrane", "providers", "registry.terraform.io", "terrane", "tpf", "0.1.0", platform)
	if _, err := discovery.FindExecutable(installed, "tpf"); err != nil {
		t.Errorf("init from the mirror: %v", err)
	}
}

func TestProvidersLockReportsMissingPlatforms(t *testing.T) {
	t.Parallel()
	built := providertest.Build(t)
	p := newMirrorProject(t, built.Dir, mirrorConfig)
	_, errOut, code := p.run("providers", "lock", "-no-color", "-fs-mirror="+built.Dir, "-platform=plan9_mips")
	if code == 0 {
		t.Fatal("locking for a platform nobody builds succeeded")
	}
	for _, want := range []string{"Could not retrieve providers for locking", "for plan9_mips", discovery.CurrentPlatform().String()} {
		if !strings.Contains(clitest.Unwrapped(errOut), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(p.dir, ".terraform.lock.hcl")); err == nil {
		t.Error("a failed providers lock wrote the lock file")
	}
	_, errOut, code = p.run("providers", "lock", "-no-color", "-platform=linux")
	if code == 0 || !strings.Contains(errOut, "Invalid target platform") {
		t.Errorf("a malformed -platform gave exit %d:\n%s", code, errOut)
	}
}
