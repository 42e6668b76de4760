package command

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

func runInitOK(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := runCommand(t, append([]string{"init"}, args...)...)
	if code != 0 {
		t.Fatalf("init exited %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	return out
}

func readLocks(t *testing.T) (*depsfile.Locks, []byte) {
	t.Helper()
	src, err := os.ReadFile(depsfile.FileName)
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
	mirror := providertest.Build(t)
	project := useMirror(t, mirror.Dir, initConfig)
	out := runInitOK(t, "-input=false")
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
	locks, _ := readLocks(t)
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
	if _, err := os.Stat(filepath.Join(project, ".terrane", "state.db")); err != nil {
		t.Errorf("init did not create the state store: %v", err)
	}

	// What init installed is what later commands launch.
	factories, ds := workdir.ProviderFactories(context.Background(), ".", locks, nil, nil)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	p, err := factories[tpf](context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
}

func TestInitAgainReusesLockedVersions(t *testing.T) {
	mirror := providertest.Build(t)
	useMirror(t, mirror.Dir, initConfig)
	runInitOK(t)
	_, before := readLocks(t)
	out := runInitOK(t)
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
	if _, after := readLocks(t); string(after) != string(before) {
		t.Errorf("the lock file changed on a second init:\n%s\nbefore:\n%s", after, before)
	}
	// -upgrade finds the same newest versions and keeps the file as it is.
	runInitOK(t, "-upgrade")
	if _, after := readLocks(t); string(after) != string(before) {
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
	mirror := providertest.Build(t)
	mirrorDir, executable := privateMirror(t, mirror, "tpf")
	useMirror(t, mirrorDir, `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
`)
	runInitOK(t)
	locks, _ := readLocks(t)
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
			os.RemoveAll(workdir.DataDir("."))
		}
		out, errOut, code := runCommand(t, "init")
		if code == 0 {
			t.Fatalf("init accepted a changed package (fresh=%v):\n%s", fresh, out)
		}
		for _, want := range []string{"does not match", string(recorded), "registry.terraform.io/terrane/tpf v0.1.0"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("fresh=%v: the error does not mention %q:\n%s", fresh, want, errOut)
			}
		}
	}
	if _, ds := workdir.ProviderFactories(context.Background(), ".", locks, nil, nil); !ds.HasErrors() {
		t.Error("ProviderFactories accepted the changed package")
	}
}

func TestInitReportsUnsatisfiableRequirements(t *testing.T) {
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
			useMirror(t, mirror.Dir, tc.config)
			_, errOut, code := runCommand(t, "init")
			if code == 0 {
				t.Fatal("init succeeded")
			}
			for _, want := range tc.wants {
				if !strings.Contains(errOut, want) {
					t.Errorf("the error does not mention %q:\n%s", want, errOut)
				}
			}
			if _, err := os.Stat(depsfile.FileName); err == nil {
				t.Error("a failed init wrote a lock file")
			}
		})
	}
}

func TestInitKeepsLockedVersionUnlessUpgrade(t *testing.T) {
	mirror := providertest.Build(t)
	useMirror(t, mirror.Dir, `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf", version = ">= 0.1.0" }
  }
}
`)
	// A lock from elsewhere selects a version this mirror lacks and that
	// the configuration no longer allows.
	writeFile(t, depsfile.FileName, `provider "registry.terraform.io/terrane/tpf" {
  version = "0.0.1"
}
`)
	_, errOut, code := runCommand(t, "init")
	if code == 0 || !strings.Contains(errOut, "0.0.1") || !strings.Contains(errOut, "-upgrade") {
		t.Fatalf("exit %d; want an error naming the locked version and -upgrade:\n%s", code, errOut)
	}
	out := runInitOK(t, "-upgrade")
	if !strings.Contains(out, "Terrane has made some changes to the provider dependency selections") {
		t.Errorf("output does not report the lock file change:\n%s", out)
	}
	locks, _ := readLocks(t)
	if v := locks.Provider(mustProvider(t, mirror.Source("tpf"))).Version().String(); v != "0.1.0" {
		t.Errorf("upgraded to %s, want 0.1.0", v)
	}
}

func TestInitReadonlyLockfile(t *testing.T) {
	mirror := providertest.Build(t)
	useMirror(t, mirror.Dir, initConfig)
	_, errOut, code := runCommand(t, "init", "-lockfile=readonly")
	if code == 0 || !strings.Contains(errOut, "-lockfile=readonly") {
		t.Fatalf("exit %d; want a refusal to create the lock file:\n%s", code, errOut)
	}
	if _, err := os.Stat(depsfile.FileName); err == nil {
		t.Fatal("-lockfile=readonly wrote a lock file")
	}
	runInitOK(t)
	runInitOK(t, "-lockfile=readonly")
	if _, errOut, code := runCommand(t, "init", "-lockfile=readonly", "-upgrade"); code == 0 || !strings.Contains(errOut, "-upgrade") {
		t.Errorf("-upgrade with -lockfile=readonly: exit %d, %s", code, errOut)
	}
	// As in OpenTofu, any other mode is no mode at all.
	runInitOK(t, "-lockfile=sometimes")
}

func TestInitPluginDir(t *testing.T) {
	mirror := providertest.Build(t)
	// The CLI configuration points at an empty mirror; -plugin-dir
	// replaces it.
	useMirror(t, t.TempDir(), initConfig)
	if _, _, code := runCommand(t, "init"); code == 0 {
		t.Fatal("init found providers in an empty mirror")
	}
	runInitOK(t, "-plugin-dir="+mirror.Dir)
	locks, _ := readLocks(t)
	if locks.Provider(mustProvider(t, mirror.Source("tpf5"))) == nil {
		t.Error("tpf5 was not locked")
	}
}

func TestInitExplainsBackendBlock(t *testing.T) {
	mirror := providertest.Build(t)
	useMirror(t, mirror.Dir, `
terraform {
  backend "s3" {
    bucket = "state"
    key    = "prod.tfstate"
  }
}
`)
	out := runInitOK(t)
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
	mirror := providertest.Build(t)
	mirrorDir := zipMirror(t, mirror, "tpf")
	config := `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf", version = "~> 0.1.0" }
  }
}
`
	useMirror(t, mirrorDir, config)
	runInitOK(t)
	locks, _ := readLocks(t)
	lock := locks.Provider(mustProvider(t, mirror.Source("tpf")))
	want, _ := discovery.PackageHashV1(discovery.PackageLocalDir(filepath.Dir(mirror.Executable("tpf"))))
	if hashes := lock.Hashes(); len(hashes) != 1 || hashes[0] != want {
		t.Errorf("hashes %v, want the package's h1: hash %s", hashes, want)
	}
	if _, ds := workdir.ProviderFactories(context.Background(), ".", locks, nil, nil); ds.HasErrors() {
		t.Errorf("the unpacked package does not verify: %v", ds.Err())
	}
}

func TestInitLeavesDevOverridesOutOfTheLockFile(t *testing.T) {
	mirror := providertest.Build(t)
	useMirror(t, mirror.Dir, initConfig)
	rc := os.Getenv("TERRANE_CLI_CONFIG_FILE")
	writeFile(t, rc, "provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/terrane/tpf\" = \""+
		filepath.Dir(mirror.Executable("tpf"))+"\"\n  }\n  filesystem_mirror {\n    path = \""+mirror.Dir+"\"\n  }\n}\n")
	out := runInitOK(t)
	if !strings.Contains(out, "development overrides") {
		t.Errorf("no warning about development overrides:\n%s", out)
	}
	if strings.Contains(out, "Installing registry.terraform.io/terrane/tpf ") {
		t.Errorf("init installed an overridden provider:\n%s", out)
	}
	locks, _ := readLocks(t)
	if locks.Provider(mustProvider(t, mirror.Source("tpf"))) != nil {
		t.Error("the overridden provider was locked")
	}
	if locks.Provider(mustProvider(t, mirror.Source("tpf5"))) == nil {
		t.Error("the provider without an override was not locked")
	}
}

func TestInitEmptyDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	out := runInitOK(t)
	if !strings.Contains(out, "initialized in an empty directory") {
		t.Errorf("output:\n%s", out)
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("init wrote into an empty directory: %v", entries)
	}
}
