package command

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/testing/providertest"
	"github.com/terrane/terrane/internal/workdir"
)

// e2eProject is a configuration directory wired to the test providers'
// mirror, with a cloud directory the providers keep their objects in.
type e2eProject struct {
	t     *testing.T
	dir   string
	cloud string
}

// newE2EProject writes mainTF (with CLOUD replaced by the cloud
// directory's path) into a fresh project, runs init there and switches into
// it.
func newE2EProject(t *testing.T, mainTF string) *e2eProject {
	t.Helper()
	mirror := providertest.Build(t)
	cloud := t.TempDir()
	p := &e2eProject{t: t, cloud: cloud}
	p.dir = useMirror(t, mirror.Dir, strings.ReplaceAll(mainTF, "CLOUD", cloud))
	p.mustRun("init")
	return p
}

// write replaces main.tf, with CLOUD replaced as in newE2EProject.
func (p *e2eProject) write(mainTF string) {
	p.t.Helper()
	writeFile(p.t, filepath.Join(p.dir, "main.tf"), strings.ReplaceAll(mainTF, "CLOUD", p.cloud))
}

// run runs a command through Run with stdin, as the CLI would, and fails
// the test if the command leaves a provider process running.
func (p *e2eProject) runWithInput(stdin string, args ...string) (stdout, stderr string, code int) {
	p.t.Helper()
	var out, errOut strings.Builder
	before := providerChildren(p.t)
	code = Run(args, views.Streams{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	assertNoProviderLeft(p.t, "terrane "+strings.Join(args, " "), before)
	return out.String(), errOut.String(), code
}

func (p *e2eProject) run(args ...string) (stdout, stderr string, code int) {
	p.t.Helper()
	return p.runWithInput("", args...)
}

// mustRun runs a command that must succeed and returns its stdout.
func (p *e2eProject) mustRun(args ...string) string {
	p.t.Helper()
	out, errOut, code := p.run(args...)
	if code != 0 {
		p.t.Fatalf("terrane %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// cloudObject is one object file of a test provider's cloud.
type cloudObject struct {
	path  string
	attrs map[string]any
}

// objects returns the objects of one resource type in the cloud, by name
// attribute.
func (p *e2eProject) objects(resourceType string) map[string]cloudObject {
	p.t.Helper()
	paths, err := filepath.Glob(filepath.Join(p.cloud, resourceType, "*.json"))
	if err != nil {
		p.t.Fatal(err)
	}
	out := map[string]cloudObject{}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			p.t.Fatal(err)
		}
		var attrs map[string]any
		if err := json.Unmarshal(src, &attrs); err != nil {
			p.t.Fatalf("cloud file %s: %v", path, err)
		}
		name, _ := attrs["name"].(string)
		out[name] = cloudObject{path: path, attrs: attrs}
	}
	return out
}

// editObject changes an object's file behind Terrane's back.
func (p *e2eProject) editObject(obj cloudObject, change func(map[string]any)) {
	p.t.Helper()
	change(obj.attrs)
	src, err := json.Marshal(obj.attrs)
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(obj.path, src, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// recordedInstances lists the instance addresses the workspace's records
// hold, read straight from the store.
func (p *e2eProject) recordedInstances() []string {
	p.t.Helper()
	store, closeStore, err := workdir.OpenStore(p.dir, workdir.DefaultProject, workdir.DefaultWorkspace, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	defer closeStore()
	snapshot, err := store.Load(context.Background())
	if err != nil {
		p.t.Fatal(err)
	}
	names := make([]string, 0, len(snapshot.InstanceVersions))
	for name := range snapshot.InstanceVersions {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// assertContains fails unless text holds every wanted fragment, wherever
// diagnostics wrapped it.
func assertContains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(unwrapped(text), unwrapped(want)) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

// lifecycleHeader declares the tpf test provider, keeping its objects in
// the project's cloud directory.
const lifecycleHeader = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}
`

// expectNoChanges fails the test unless a plan finds nothing to change.
func (p *e2eProject) expectNoChanges(what string) {
	p.t.Helper()
	out, errOut, code := p.run("plan", "-no-color", "-detailed-exitcode")
	if code != 0 {
		p.t.Fatalf("%s: exit %d, want 0 (no changes)\n%s\n%s", what, code, out, errOut)
	}
}

// cliBuild is the terrane binary the tests of this package share: linking
// it takes seconds, so it is built once.
var cliBuild struct {
	once   sync.Once
	dir    string
	binary string
	err    error
}

// buildCLI compiles the terrane binary (once per test binary) and returns
// its path. The first call must come before the test changes directory.
func buildCLI(t *testing.T) string {
	t.Helper()
	cliBuild.once.Do(func() {
		wd, err := os.Getwd()
		if err != nil {
			cliBuild.err = err
			return
		}
		if cliBuild.dir, err = os.MkdirTemp("", "terrane-cli-"); err != nil {
			cliBuild.err = err
			return
		}
		cliBuild.binary = filepath.Join(cliBuild.dir, "terrane")
		build := exec.Command("go", "build", "-o", cliBuild.binary, "./cmd/terrane")
		build.Dir = filepath.Join(wd, "..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			cliBuild.err = fmt.Errorf("building terrane: %v\n%s", err, out)
		}
	})
	if cliBuild.err != nil {
		t.Fatal(cliBuild.err)
	}
	return cliBuild.binary
}

// TestMain removes the shared terrane binary once every test has run. A
// CLI configuration file named by the environment that does not exist is
// forgotten: each command would warn of it first, as OpenTofu does, and
// tests that want a CLI configuration name their own.
func TestMain(m *testing.M) {
	for _, name := range []string{"TERRANE_CLI_CONFIG_FILE", "TF_CLI_CONFIG_FILE"} {
		if file := os.Getenv(name); file != "" {
			if _, err := os.Stat(file); err != nil {
				os.Unsetenv(name)
			}
		}
	}
	code := m.Run()
	if cliBuild.dir != "" {
		os.RemoveAll(cliBuild.dir)
	}
	os.Exit(code)
}

// startCLI starts the terrane binary in dir; exited receives what Wait
// returns.
func startCLI(t *testing.T, binary, dir string, args ...string) (cmd *exec.Cmd, stdout, stderr *syncBuffer, exited <-chan error) {
	t.Helper()
	cmd = exec.Command(binary, args...)
	cmd.Dir = dir
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return cmd, stdout, stderr, done
}
