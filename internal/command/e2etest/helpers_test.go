package e2etest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/storeconfig"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/providertest"
	"github.com/terrane/terrane/internal/testing/sharedstore"
	"github.com/terrane/terrane/internal/workdir"
)

// terraneBinary is the terrane binary every test runs, built once by
// TestMain (with the race detector when the tests have it).
var terraneBinary string

// TestMain builds the terrane binary into a temporary directory, runs the
// tests and removes it.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "terrane-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	terraneBinary = filepath.Join(dir, "terrane")
	if err := buildTerrane(terraneBinary); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildTerrane compiles ./cmd/terrane of this module to binary.
func buildTerrane(binary string) error {
	return buildTerraneWith(binary, raceEnabled)
}

// buildTerraneWith compiles ./cmd/terrane to binary, with the race
// detector when race is set.
func buildTerraneWith(binary string, race bool) error {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		return err
	}
	args := []string{"build", "-o", binary}
	if race {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "./cmd/terrane")...)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building terrane: %v\n%s", err, out)
	}
	return nil
}

// plainBuild is a terrane binary built without the race detector, beside
// terraneBinary (so TestMain removes it too), for the tests that measure a
// process's memory, which the race detector's bookkeeping would swamp.
var plainBuild struct {
	once   sync.Once
	binary string
	err    error
}

// plainTerraneBinary is terraneBinary when the tests run without the race
// detector; with it, a binary built without it, once, on first use.
func plainTerraneBinary(t *testing.T) string {
	t.Helper()
	if !raceEnabled {
		return terraneBinary
	}
	plainBuild.once.Do(func() {
		plainBuild.binary = filepath.Join(filepath.Dir(terraneBinary), "terrane-without-race")
		plainBuild.err = buildTerraneWith(plainBuild.binary, false)
	})
	if plainBuild.err != nil {
		t.Fatal(plainBuild.err)
	}
	return plainBuild.binary
}

// runMarker is the environment variable every terrane process a test
// starts carries, with a value of its own, so that the processes it leaves
// behind (providers it started) can be told from every other test's.
const runMarker = "TERRANE_E2E_RUN"

var runCount atomic.Int64

// newRunID returns a run marker value no other process of these tests has.
func newRunID() string {
	return strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(runCount.Add(1), 10)
}

// inheritedEnv is the part of this process's environment terrane
// processes get: nothing that configures Terraform, OpenTofu, Pulumi or
// Terrane, nor the home directory, which each project has its own of.
func inheritedEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "HOME", name == "TESTCLOUD_DIR", name == runMarker,
			strings.HasPrefix(name, "TF_"), strings.HasPrefix(name, "TERRANE_"),
			strings.HasPrefix(name, "PULUMI_"), strings.HasPrefix(name, "CHECKPOINT_"):
			continue
		}
		env = append(env, kv)
	}
	return env
}

// e2eProject is a configuration directory, with a cloud directory the
// test providers keep their objects in and the environment every terrane
// process run there gets.
type e2eProject struct {
	t     *testing.T
	dir   string
	cloud string
	env   []string
}

// newBareProject is an empty project directory whose environment names
// no CLI configuration and no provider mirror.
func newBareProject(t *testing.T) *e2eProject {
	t.Helper()
	work := t.TempDir()
	p := &e2eProject{t: t, dir: filepath.Join(work, "project"), cloud: t.TempDir()}
	home := filepath.Join(work, "home")
	for _, dir := range []string{p.dir, home} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p.env = append(inheritedEnv(), "HOME="+home, "CHECKPOINT_DISABLE=1")
	return p
}

// newUninitialised writes mainTF (with CLOUD replaced by the cloud
// directory's path) into a fresh project whose environment points provider
// installation at the test providers' mirror and keeps the schema cache
// inside the test.
func newUninitialised(t *testing.T, mainTF string) *e2eProject {
	t.Helper()
	return newMirrorProject(t, providertest.Build(t).Dir, mainTF)
}

// newMirrorProject is newUninitialised with provider installation pointed
// at the filesystem mirror mirrorDir, named by the CLI configuration file
// of the project's TERRANE_CLI_CONFIG_FILE.
func newMirrorProject(t *testing.T, mirrorDir, mainTF string) *e2eProject {
	t.Helper()
	p := newBareProject(t)
	work := filepath.Dir(p.dir)
	rc := filepath.Join(work, "terraformrc")
	clitest.WriteFile(t, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirrorDir+"\"\n  }\n}\n")
	p.setenv("TERRANE_CLI_CONFIG_FILE", rc)
	p.setenv("TF_PLUGIN_CACHE_DIR", "")
	p.setenv("TERRANE_SCHEMA_CACHE_DIR", filepath.Join(work, "schemas"))
	p.write(mainTF)
	return p
}

// newE2EProject is newUninitialised and runs init there.
func newE2EProject(t *testing.T, mainTF string) *e2eProject {
	t.Helper()
	return newE2EProjectEnv(t, mainTF)
}

// newE2EProjectEnv is newE2EProject with env (NAME=VALUE entries) added
// to the project's environment before init.
func newE2EProjectEnv(t *testing.T, mainTF string, env ...string) *e2eProject {
	t.Helper()
	p := newUninitialised(t, mainTF)
	p.addEnv(env...)
	p.mustRun("init")
	return p
}

// newE2EProjectFiles is newUninitialised with several files, CLOUD
// replaced in each, not initialized.
func newE2EProjectFiles(t *testing.T, files map[string]string) *e2eProject {
	t.Helper()
	p := newUninitialised(t, files["main.tf"])
	for path, content := range files {
		if path != "main.tf" {
			p.writeFile(path, content)
		}
	}
	return p
}

// newInitialisedProject is newE2EProjectFiles, then init.
func newInitialisedProject(t *testing.T, files map[string]string) *e2eProject {
	t.Helper()
	p := newE2EProjectFiles(t, files)
	p.mustRun("init", "-no-color")
	return p
}

// setenv sets an environment variable for the commands run in the project
// from now on.
func (p *e2eProject) setenv(name, value string) {
	prefix := name + "="
	for i, kv := range p.env {
		if strings.HasPrefix(kv, prefix) {
			p.env[i] = prefix + value
			return
		}
	}
	p.env = append(p.env, prefix+value)
}

// unsetenv removes a variable from the environment of the commands run
// in the project from now on.
func (p *e2eProject) unsetenv(name string) {
	p.env = slices.DeleteFunc(p.env, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
}

// addEnv sets NAME=VALUE entries, as sharedstore's Store.Env lists them,
// for the commands run in the project from now on.
func (p *e2eProject) addEnv(entries ...string) {
	for _, entry := range entries {
		name, value, _ := strings.Cut(entry, "=")
		p.setenv(name, value)
	}
}

// getenv returns the value of a variable of the project's environment.
func (p *e2eProject) getenv(name string) string {
	for _, kv := range p.env {
		if value, ok := strings.CutPrefix(kv, name+"="); ok {
			return value
		}
	}
	return ""
}

// write replaces main.tf, with CLOUD replaced as in newE2EProject.
func (p *e2eProject) write(mainTF string) {
	p.t.Helper()
	clitest.WriteFile(p.t, filepath.Join(p.dir, "main.tf"), strings.ReplaceAll(mainTF, "CLOUD", p.cloud))
}

// writeFile writes a file of the project, CLOUD replaced as in main.tf.
func (p *e2eProject) writeFile(name, content string) {
	p.t.Helper()
	clitest.WriteFile(p.t, filepath.Join(p.dir, filepath.FromSlash(name)), strings.ReplaceAll(content, "CLOUD", p.cloud))
}

// writeFiles writes files of the project, by path, CLOUD replaced in each.
func (p *e2eProject) writeFiles(files map[string]string) {
	p.t.Helper()
	for name, content := range files {
		p.writeFile(name, content)
	}
}

// command is terrane with args, to run in the project with its
// environment and a run marker of its own.
func (p *e2eProject) command(args ...string) *exec.Cmd {
	return p.commandOf(terraneBinary, args...)
}

// commandOf is command with another terrane binary.
func (p *e2eProject) commandOf(binary string, args ...string) *exec.Cmd {
	cmd := exec.Command(binary, args...)
	cmd.Dir = p.dir
	cmd.Env = append(append([]string(nil), p.env...), runMarker+"="+newRunID())
	return cmd
}

// runWithInput runs a command with stdin, as a user would, and fails the
// test if the command leaves a process (a provider it started) running.
func (p *e2eProject) runWithInput(stdin string, args ...string) (stdout, stderr string, code int) {
	p.t.Helper()
	cmd := p.command(args...)
	var out, errOut strings.Builder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errOut
	code = exitCode(p.t, cmd.Run())
	assertNoProcessLeft(p.t, "terrane "+strings.Join(args, " "), cmd)
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

// mustFail runs a command that must fail and returns its stderr.
func (p *e2eProject) mustFail(args ...string) string {
	p.t.Helper()
	out, errOut, code := p.run(args...)
	if code == 0 {
		p.t.Fatalf("terrane %s succeeded; want failure\nstdout:\n%s", strings.Join(args, " "), out)
	}
	return errOut
}

// result runs a command and returns how it ended, for the test's own
// assertions.
func (p *e2eProject) result(args ...string) processResult {
	p.t.Helper()
	stdout, stderr, code := p.run(args...)
	return processResult{args: args, stdout: stdout, stderr: stderr, code: code}
}

// expectCode fails the test unless res exited with code.
func (p *e2eProject) expectCode(what string, res processResult, code int) {
	p.t.Helper()
	if res.code != code {
		p.t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, res.code, code, res.stdout, res.stderr)
	}
}

// exitCode is the exit status of a process that ended with err; it fails
// the test when the process could not be run.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	if exitErr, ok := err.(*exec.ExitError); ok {
		return exitErr.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// markedProcesses lists the running processes whose environment holds
// marker, by process id and command name.
func markedProcesses(marker string) map[int]string {
	found := map[int]string{}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return found
	}
	want := []byte(marker)
	for _, entry := range entries {
		pid, err := strconv.Atoi(entry.Name())
		if err != nil {
			continue
		}
		environ, err := os.ReadFile(filepath.Join("/proc", entry.Name(), "environ"))
		if err != nil || !bytes.Contains(environ, want) {
			continue
		}
		for _, kv := range bytes.Split(environ, []byte{0}) {
			if bytes.Equal(kv, want) {
				cmdline, _ := os.ReadFile(filepath.Join("/proc", entry.Name(), "cmdline"))
				found[pid] = filepath.Base(strings.SplitN(string(cmdline), "\x00", 2)[0])
				break
			}
		}
	}
	return found
}

// assertNoProcessLeft fails the test when a process carrying cmd's run
// marker (a provider the command started) is still running a few seconds
// after the command ended, and kills it.
func assertNoProcessLeft(t *testing.T, what string, cmd *exec.Cmd) {
	t.Helper()
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skipf("no /proc to list processes from: %v", err)
	}
	marker := cmd.Env[len(cmd.Env)-1]
	var left map[int]string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		left = markedProcesses(marker)
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("%s left processes running: %v", what, left)
		for pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// processResult is how one terrane process ended.
type processResult struct {
	args           []string
	stdout, stderr string
	code           int
}

// runProcesses starts one terrane process per argument list at once, in
// the project, and waits for all of them.
func runProcesses(t *testing.T, p *e2eProject, argLists ...[]string) []processResult {
	t.Helper()
	runs := make([]dirRun, len(argLists))
	for i, args := range argLists {
		runs[i] = dirRun{p: p, args: args}
	}
	return runInDirs(t, runs...)
}

// dirRun is one terrane process to run in a project.
type dirRun struct {
	p    *e2eProject
	args []string
}

// runInDirs starts one terrane process per run at once and waits for all.
func runInDirs(t *testing.T, runs ...dirRun) []processResult {
	t.Helper()
	results := make([]processResult, len(runs))
	var wg sync.WaitGroup
	for i, run := range runs {
		wg.Go(func() {
			cmd := run.p.command(run.args...)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			code := 0
			if exitErr, ok := err.(*exec.ExitError); ok {
				code = exitErr.ExitCode()
			} else if err != nil {
				code = -1
				errOut.WriteString(err.Error())
			}
			results[i] = processResult{args: run.args, stdout: out.String(), stderr: errOut.String(), code: code}
		})
	}
	wg.Wait()
	return results
}

// backgroundRun is a terrane process running while the test does more.
type backgroundRun struct {
	cmd         *exec.Cmd
	out, errOut *clitest.SyncBuffer
	exited      chan error
}

// startInBackground starts terrane with args in the project. A process
// still running when the test ends is killed.
func startInBackground(t *testing.T, p *e2eProject, args ...string) *backgroundRun {
	t.Helper()
	r := &backgroundRun{cmd: p.command(args...), out: &clitest.SyncBuffer{}, errOut: &clitest.SyncBuffer{}, exited: make(chan error, 1)}
	r.cmd.Stdout, r.cmd.Stderr = r.out, r.errOut
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.exited <- r.cmd.Wait() }()
	t.Cleanup(func() { _ = r.cmd.Process.Kill() })
	return r
}

// wait waits up to timeout for the process to end and returns how it
// ended; the test fails if it is still running then.
func (r *backgroundRun) wait(t *testing.T, what string, timeout time.Duration) error {
	t.Helper()
	select {
	case err := <-r.exited:
		return err
	case <-time.After(timeout):
		t.Fatalf("%s did not end within %s\nstdout:\n%s\nstderr:\n%s", what, timeout, r.out.String(), r.errOut.String())
		return nil
	}
}

// startCLI starts terrane in the project; exited receives what Wait
// returns.
func startCLI(t *testing.T, p *e2eProject, args ...string) (cmd *exec.Cmd, stdout, stderr *clitest.SyncBuffer, exited <-chan error) {
	t.Helper()
	cmd = p.command(args...)
	stdout, stderr = &clitest.SyncBuffer{}, &clitest.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return cmd, stdout, stderr, done
}

// storeKind is a shared store the end-to-end tests run against; start
// gives each test a store of its own.
type storeKind struct {
	name  string
	start func(t *testing.T) *sharedstore.Store
}

// sharedStoreKinds are etcd (a key prefix of server's per test) and a
// terrane serve process over TLS in front of the store serveBackend names.
func sharedStoreKinds(server *etcdtest.Server, serveBackend func(t *testing.T) string) []storeKind {
	return []storeKind{
		{"etcd", func(*testing.T) *sharedstore.Store { return sharedstore.EtcdOn(server) }},
		{"serve", func(t *testing.T) *sharedstore.Store {
			return sharedstore.Serve(t, terraneBinary, serveBackend(t))
		}},
	}
}

// servedSQLite is a SQLite file of the test's for a terrane serve to front.
func servedSQLite(t *testing.T) string {
	return "sqlite://" + filepath.Join(t.TempDir(), "served.db")
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
	store, closeStore := p.openRecords()
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

// openRecords opens the default workspace's records of the project's
// store as its commands do (workdir.OpenStore), with the store and its
// credentials named by the project's environment rather than this
// process's.
func (p *e2eProject) openRecords() (*recordstore.Store, func() error) {
	p.t.Helper()
	mod, hclDiags := config.NewParser().LoadModuleSelective(p.dir, config.SelectBackend)
	if hclDiags.HasErrors() {
		p.t.Fatal(hclDiags.Error())
	}
	var block *config.Backend
	if mod != nil {
		block = mod.Backend
	}
	settings, ds := storeconfig.ForCommand(p.dir, block, p.env)
	if ds.HasErrors() {
		p.t.Fatal(ds.Err())
	}
	backend, err := storeconfig.Open(p.dir, settings, storeconfig.TokenLookup(discovery.NewCredentials(nil, p.env).Token))
	if err != nil {
		p.t.Fatal(err)
	}
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		p.t.Fatal(err)
	}
	store := recordstore.New(resourceservice.New(backend, registry), workdir.DefaultProject, workdir.DefaultWorkspace)
	if _, err := store.EnsureWorkspace(context.Background()); err != nil {
		_ = backend.Close()
		p.t.Fatal(err)
	}
	return store, backend.Close
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// expectNoChanges runs plan -detailed-exitcode and fails unless it finds
// nothing to do.
func (p *e2eProject) expectNoChanges(what string) {
	p.t.Helper()
	out, errOut, code := p.run("plan", "-no-color", "-detailed-exitcode")
	if code != 0 {
		p.t.Fatalf("%s: exit %d, want 0 (no changes)\n%s\n%s", what, code, out, errOut)
	}
}

// oracleTofu is the executable of OpenTofu the differential corpus runs
// (TERRANE_ORACLE_DIR: its env file names it as TOFU), or the test is
// skipped.
func oracleTofu(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TERRANE_ORACLE_DIR")
	if dir == "" {
		t.Skip("no OpenTofu oracle installed (TERRANE_ORACLE_DIR)")
	}
	tofu := filepath.Join(dir, "bin", "tofu")
	if env, err := os.ReadFile(filepath.Join(dir, "env")); err == nil {
		for _, line := range strings.Split(string(env), "\n") {
			if value, ok := strings.CutPrefix(strings.TrimSpace(line), "export TOFU="); ok {
				tofu = strings.Trim(value, `"`)
			}
		}
	}
	if _, err := os.Stat(tofu); err != nil {
		t.Skipf("no OpenTofu at %s", tofu)
	}
	return tofu
}

// interrupt sends the process an interrupt, as Ctrl-C would, and returns
// its exit status once it has ended.
func (r *backgroundRun) interrupt(t *testing.T, what string) int {
	t.Helper()
	_ = r.cmd.Process.Signal(os.Interrupt)
	return exitCode(t, r.wait(t, what, 30*time.Second))
}
