package e2etest

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/providertest"
	"github.com/terrane/terrane/internal/workdir"
)

const initConfig = `
terraform {
  required_providers {
    tpf  = { source = "registry.terraform.io/terrane/tpf", version = ">= 0.1.0, < 1.0.0" }
    tpf5 = { source = "registry.terraform.io/terrane/tpf5" }
  }
}
`

// runInitOK runs init with args in the project; it must succeed.
func (p *e2eProject) runInitOK(args ...string) string {
	p.t.Helper()
	return p.mustRun(append([]string{"init"}, args...)...)
}

// readLocks reads the project's dependency lock file.
func (p *e2eProject) readLocks() (*depsfile.Locks, []byte) {
	t := p.t
	t.Helper()
	src, err := os.ReadFile(filepath.Join(p.dir, depsfile.FileName))
	if err != nil {
		t.Fatalf("no lock file: %v", err)
	}
	locks, ds := depsfile.Parse(src, depsfile.FileName)
	if ds.HasErrors() {
		t.Fatalf("init wrote a lock file it cannot read: %v", ds.Err())
	}
	return locks, src
}

func mustProvider(t *testing.T, source string) addrs.Provider {
	t.Helper()
	provider, err := addrs.ParseProviderSource(source)
	if err != nil {
		t.Fatal(err)
	}
	return provider
}

func TestInitInstallsProvidersAndWritesLockFile(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	p := newMirrorProject(t, mirror.Dir, initConfig)
	out := p.runInitOK("-input=false")
	for _, want := range []string{
		"Initializing provider plugins...",
		`- Finding registry.terraform.io/terrane/tpf versions matching ">= 0.1.0, < 1.0.0"...`,
		"- Finding latest version of registry.terraform.io/terrane/tpf5...",
		"- Installing registry.terraform.io/terrane/tpf v0.1.0...",
		"- Installed registry.terraform.io/terrane/tpf v0.1.0 (unauthenticated)",
		"Terrane has created a lock file",
		"Terrane has been successfully initialized!",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	locks, _ := p.readLocks()
	tpf := mustProvider(t, mirror.Source("tpf"))
	lock := locks.Provider(tpf)
	if lock == nil || lock.Version().String() != "0.1.0" || depsfile.ConstraintsString(lock.Constraints()) != ">= 0.1.0, < 1.0.0" {
		t.Fatalf("tpf lock: %v", lock)
	}
	want, err := discovery.PackageHashV1(discovery.PackageLocalDir(filepath.Dir(mirror.Executable("tpf"))))
	if err != nil {
		t.Fatal(err)
	}
	if hashes := lock.Hashes(); len(hashes) != 1 || hashes[0] != want {
		t.Errorf("tpf hashes %v, want [%s]", hashes, want)
	}
	if _, err := os.Stat(filepath.Join(p.dir, ".terrane", "state.db")); err != nil {
		t.Errorf("init did not create the state store: %v", err)
	}

	// What init installed is what later commands launch.
	factories, ds := workdir.ProviderFactories(context.Background(), p.dir, locks, nil, nil)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	provider, err := factories[tpf](context.Background())
	if err != nil {
		t.Fatal(err)
	}
	provider.Close()
}

func TestInitAgainReusesLockedVersions(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	p := newMirrorProject(t, mirror.Dir, initConfig)
	p.runInitOK()
	_, before := p.readLocks()
	out := p.runInitOK()
	for _, want := range []string{
		"- Reusing previous version of registry.terraform.io/terrane/tpf from the dependency lock file",
		"- Using previously-installed registry.terraform.io/terrane/tpf v0.1.0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Terrane has made some changes") || strings.Contains(out, "created a lock file") {
		t.Errorf("a second init reported lock file changes:\n%s", out)
	}
	if _, after := p.readLocks(); string(after) != string(before) {
		t.Errorf("the lock file changed on a second init:\n%s\nbefore:\n%s", after, before)
	}
	// -upgrade finds the same newest versions and keeps the file as it is.
	p.runInitOK("-upgrade")
	if _, after := p.readLocks(); string(after) != string(before) {
		t.Errorf("the lock file changed on init -upgrade:\n%s", after)
	}
}

// privateMirror copies one test provider into a mirror of the test's own,
// which the test may then change.
func privateMirror(t *testing.T, mirror *providertest.Mirror, typeName string) (dir, executable string) {
	t.Helper()
	dir = t.TempDir()
	rel, err := filepath.Rel(mirror.Dir, filepath.Dir(mirror.Executable(typeName)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, rel), os.DirFS(filepath.Dir(mirror.Executable(typeName)))); err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(dir, rel, filepath.Base(mirror.Executable(typeName)))
}

func TestInitRefusesTamperedPackage(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	mirrorDir, executable := privateMirror(t, mirror, "tpf")
	p := newMirrorProject(t, mirrorDir, `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
`)
	p.runInitOK()
	locks, _ := p.readLocks()
	recorded := locks.Provider(mustProvider(t, mirror.Source("tpf"))).Hashes()[0]

	f, err := os.OpenFile(executable, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("tampered")
	f.Close()

	// init notices the installed package no longer matches, and so does a
	// fresh installation from the changed mirror.
	for _, fresh := range []bool{false, true} {
		if fresh {
			os.RemoveAll(workdir.DataDir(p.dir))
		}
		out, errOut, code := p.run("init")
		if code == 0 {
			t.Fatalf("init accepted a changed package (fresh=%v):\n%s", fresh, out)
		}
		for _, want := range []string{"does not match", string(recorded), "registry.terraform.io/terrane/tpf v0.1.0"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("fresh=%v: the error does not mention %q:\n%s", fresh, want, errOut)
			}
		}
	}
	if _, ds := workdir.ProviderFactories(context.Background(), p.dir, locks, nil, nil); !ds.HasErrors() {
		t.Error("ProviderFactories accepted the changed package")
	}
}

func TestInitReportsUnsatisfiableRequirements(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	for _, tc := range []struct {
		name, config string
		wants        []string
	}{
		{"missing provider", `terraform {
  required_providers {
    nope = { source = "registry.terraform.io/terrane/nope" }
  }
}`, []string{"registry.terraform.io/terrane/nope", "not found in any of the search"}},
		{"no matching version", `terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf", version = ">= 2.0" }
  }
}`, []string{"match the given constraints", "tpf", ">= 2.0"}},
		{"bad constraint", `terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf", version = "about two" }
  }
}`, []string{"about two"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newMirrorProject(t, mirror.Dir, tc.config)
			_, errOut, code := p.run("init")
			if code == 0 {
				t.Fatal("init succeeded")
			}
			for _, want := range tc.wants {
				if !strings.Contains(errOut, want) {
					t.Errorf("the error does not mention %q:\n%s", want, errOut)
				}
			}
			if _, err := os.Stat(filepath.Join(p.dir, depsfile.FileName)); err == nil {
				t.Error("a failed init wrote a lock file")
			}
		})
	}
}

func TestInitKeepsLockedVersionUnlessUpgrade(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	p := newMirrorProject(t, mirror.Dir, `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf", version = ">= 0.1.0" }
  }
}
`)
	// A lock from elsewhere selects a version this mirror lacks and that
	// the configuration no longer allows.
	p.writeFile(depsfile.FileName, `provider "registry.terraform.io/terrane/tpf" {
  version = "0.0.1"
}
`)
	_, errOut, code := p.run("init")
	if code == 0 || !strings.Contains(errOut, "0.0.1") || !strings.Contains(errOut, "-upgrade") {
		t.Fatalf("exit %d; want an error naming the locked version and -upgrade:\n%s", code, errOut)
	}
	out := p.runInitOK("-upgrade")
	if !strings.Contains(out, "Terrane has made some changes to the provider dependency selections") {
		t.Errorf("output does not report the lock file change:\n%s", out)
	}
	locks, _ := p.readLocks()
	if v := locks.Provider(mustProvider(t, mirror.Source("tpf"))).Version().String(); v != "0.1.0" {
		t.Errorf("upgraded to %s, want 0.1.0", v)
	}
}

func TestInitReadonlyLockfile(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	p := newMirrorProject(t, mirror.Dir, initConfig)
	_, errOut, code := p.run("init", "-lockfile=readonly")
	if code == 0 || !strings.Contains(errOut, "-lockfile=readonly") {
		t.Fatalf("exit %d; want a refusal to create the lock file:\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(p.dir, depsfile.FileName)); err == nil {
		t.Fatal("-lockfile=readonly wrote a lock file")
	}
	p.runInitOK()
	p.runInitOK("-lockfile=readonly")
	if _, errOut, code := p.run("init", "-lockfile=readonly", "-upgrade"); code == 0 || !strings.Contains(errOut, "-upgrade") {
		t.Errorf("-upgrade with -lockfile=readonly: exit %d, %s", code, errOut)
	}
	// As in OpenTofu, any other mode is no mode at all.
	p.runInitOK("-lockfile=sometimes")
}

func TestInitPluginDir(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	// The CLI configuration points at an empty mirror; -plugin-dir
	// replaces it.
	p := newMirrorProject(t, t.TempDir(), initConfig)
	if _, _, code := p.run("init"); code == 0 {
		t.Fatal("init found providers in an empty mirror")
	}
	p.runInitOK("-plugin-dir=" + mirror.Dir)
	locks, _ := p.readLocks()
	if locks.Provider(mustProvider(t, mirror.Source("tpf5"))) == nil {
		t.Error("tpf5 was not locked")
	}
}

func TestInitExplainsBackendBlock(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	p := newMirrorProject(t, mirror.Dir, `
terraform {
  backend "s3" {
    bucket = "state"
    key    = "prod.tfstate"
  }
}
`)
	out := p.runInitOK()
	for _, want := range []string{`"s3" backend`, "terrane state push", "main.tf line 3"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// zipMirror packs one test provider into a mirror in the packed layout, as
// `terraform providers mirror` writes it.
func zipMirror(t *testing.T, mirror *providertest.Mirror, typeName string) string {
	t.Helper()
	dir := t.TempDir()
	provider := mustProvider(t, mirror.Source(typeName))
	name := discovery.StandardFilename(provider, versions.MustParseVersion("0.1.0"), discovery.CurrentPlatform())
	path := filepath.Join(dir, provider.Hostname.ForDisplay(), provider.Namespace, provider.Type, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	archive := zip.NewWriter(file)
	// Stored, not deflated: compressing a provider binary under the race
	// detector takes most of a minute.
	executable := mirror.Executable(typeName)
	content, err := os.ReadFile(executable)
	if err != nil {
		t.Fatal(err)
	}
	header := &zip.FileHeader{Name: filepath.Base(executable), Method: zip.Store}
	header.SetMode(0o755)
	entry, err := archive.CreateHeader(header)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := entry.Write(content); err != nil {
		t.Fatal(err)
	}
	if err := archive.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestInitFromZipMirror(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	mirrorDir := zipMirror(t, mirror, "tpf")
	config := `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf", version = "~> 0.1.0" }
  }
}
`
	p := newMirrorProject(t, mirrorDir, config)
	p.runInitOK()
	locks, _ := p.readLocks()
	lock := locks.Provider(mustProvider(t, mirror.Source("tpf")))
	want, _ := discovery.PackageHashV1(discovery.PackageLocalDir(filepath.Dir(mirror.Executable("tpf"))))
	if hashes := lock.Hashes(); len(hashes) != 1 || hashes[0] != want {
		t.Errorf("hashes %v, want the package's h1: hash %s", hashes, want)
	}
	if _, ds := workdir.ProviderFactories(context.Background(), p.dir, locks, nil, nil); ds.HasErrors() {
		t.Errorf("the unpacked package does not verify: %v", ds.Err())
	}
}

func TestInitLeavesDevOverridesOutOfTheLockFile(t *testing.T) {
	t.Parallel()
	mirror := providertest.Build(t)
	p := newMirrorProject(t, mirror.Dir, initConfig)
	rc := p.getenv("TERRANE_CLI_CONFIG_FILE")
	clitest.WriteFile(t, rc, "provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/terrane/tpf\" = \""+
		filepath.Dir(mirror.Executable("tpf"))+"\"\n  }\n  filesystem_mirror {\n    path = \""+mirror.Dir+"\"\n  }\n}\n")
	out := p.runInitOK()
	if !strings.Contains(out, "development overrides") {
		t.Errorf("no warning about development overrides:\n%s", out)
	}
	if strings.Contains(out, "Installing registry.terraform.io/terrane/tpf ") {
		t.Errorf("init installed an overridden provider:\n%s", out)
	}
	locks, _ := p.readLocks()
	if locks.Provider(mustProvider(t, mirror.Source("tpf"))) != nil {
		t.Error("the overridden provider was locked")
	}
	if locks.Provider(mustProvider(t, mirror.Source("tpf5"))) == nil {
		t.Error("the provider without an override was not locked")
	}
}

func TestInitEmptyDirectory(t *testing.T) {
	t.Parallel()
	p := newBareProject(t)
	out := p.runInitOK()
	if !strings.Contains(out, "initialized in an empty directory") {
		t.Errorf("output:\n%s", out)
	}
	if entries, _ := os.ReadDir(p.dir); len(entries) != 0 {
		t.Errorf("init wrote into an empty directory: %v", entries)
	}
}

// TestInitExplainsUnreachableRegistry points direct installation at a
// registry host that refuses connections: init names the provider and the
// host it could not reach, in OpenTofu's words.
func TestInitExplainsUnreachableRegistry(t *testing.T) {
	t.Parallel()
	p := newBareProject(t)
	p.writeFile("main.tf", `
terraform {
  required_providers {
    thing = { source = "127.0.0.1:1/example/thing" }
  }
}
`)
	rc := filepath.Join(p.dir, "terraformrc")
	clitest.WriteFile(t, rc, "provider_installation {\n  direct {}\n}\n")
	p.setenv("TERRANE_CLI_CONFIG_FILE", rc)
	p.setenv("TF_PLUGIN_CACHE_DIR", "")
	_, errOut, code := p.run("init", "-no-color")
	if code == 0 {
		t.Fatal("init succeeded without a reachable registry")
	}
	for _, want := range []string{"Failed to resolve provider packages", "127.0.0.1:1/example/thing", "could not connect to"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("diagnostic lacks %q:\n%s", want, errOut)
		}
	}
}
